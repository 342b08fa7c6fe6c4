import StoreLedgerCore

/// When the voided purchases list was last polled, kept beside the log: `voidedpurchases.list`
/// returns only the last 30 days, so a backend that has not fetched it for longer has missed
/// refunds for good (Docs/import-googleplay.md, "Polling the voided purchases list").
extension GooglePlayImporter {
  /// The pseudo purchase token the document store keeps list polls under (no real token has a
  /// space): one line per poll, `{"fetchTime": …, "voidedPurchases": []}`, so that an empty
  /// response counts as a poll too.
  static let voidedPollToken = "voidedpurchases.list polls"
  /// How far back `voidedpurchases.list` reaches.
  static let voidedListWindowMilliseconds: Int64 = 30 * 86_400_000

  /// The poll record of every voided purchases list in `documents` that says when it was
  /// fetched (`fetchTime`), empty ones included, with its `packageName` when given.
  static func voidedPolls(in documents: [InputDocument]) -> [(line: Int, fetched: Timestamp, document: JSONValue)] {
    documents.compactMap { document in
      guard case .array? = document.value["voidedPurchases"],
        let text = document.value["fetchTime"]?.stringValue, let fetched = Timestamp.parseRFC3339(text)
      else { return nil }
      var members: [(String, JSONValue)] = [("fetchTime", .string(text)), ("voidedPurchases", .array([]))]
      if let package = document.value["packageName"] { members.insert(("packageName", package), at: 0) }
      return (document.line, fetched, .object(members))
    }
  }

  /// The warning for an import of purchases when neither its input nor the kept polls hold a
  /// voided purchases list fetched in the 30 days before the import's clock (else before the
  /// latest knowledge time of its documents); nil when one does, or nothing tells the time.
  /// - Complexity: O(s) in the size of the store.
  static func staleVoidedListWarning(
    documents: [InputDocument], payloads: [GooglePlayPayload], store: [UInt8], importedAt: Timestamp?
  ) -> (line: Int, message: String)? {
    let resources = payloads.filter {
      switch $0 {
      case .subscription(let resource): !resource.isFromLedger
      case .product: true
      default: false
      }
    }
    guard let first = resources.map(\.line).min() else { return nil }
    let knownTimes = payloads.compactMap { payload -> Timestamp? in
      switch payload {
      case .subscription(let resource): resource.knownAt
      case .product(let resource): resource.knownAt
      case .notification(let notification): notification.knownAt
      default: nil
      }
    }
    guard let now = importedAt ?? knownTimes.max() else { return nil }
    let kept = GooglePlayDocumentStore.lines(in: store, tokens: [voidedPollToken]).compactMap {
      GooglePlayDocumentStore.document(ofLine: $0)?["fetchTime"]?.stringValue.flatMap(Timestamp.parseRFC3339)
    }
    let latest = (voidedPolls(in: documents).map(\.fetched) + kept).max()
    if let latest, now.millisecondsSinceEpoch - latest.millisecondsSinceEpoch < voidedListWindowMilliseconds {
      return nil
    }
    let last = latest.map { "the last was fetched at \($0.rfc3339)" } ?? "none is kept"
    return (
      first,
      "no voidedpurchases.list fetched in the 30 days before \(now.rfc3339) is kept with this log (\(last)): the list returns only the last 30 days, so refunds and chargebacks older than that are never learned; poll it at least daily with type=1 (subscriptions too) and import each response with its fetchTime (Docs/import-googleplay.md, \"Polling the voided purchases list\")"
    )
  }
}
