/// What a ledger already knows, as far as an importer needs it: the events earlier imports
/// wrote (by id, without `recorded`), the transactions already charged, and the Google Play
/// subscription tokens with the identity they got.
///
/// An import adds only what the ledger did not know yet (Docs/import-googleplay.md, "Importing
/// as data arrives"): an event whose id is known is not written again, a transaction already
/// charged is not charged again, whichever payload carried it first. Built from the log's bytes
/// by `read(log:)`, the one place that reads "what is known"; a per-subject index can replace it.
package struct LedgerKnowledge: Sendable {
  /// A charge (`purchase` or `renewal`) the ledger holds.
  package struct Charge: Sendable, Equatable {
    /// The event id.
    package var id: String
    /// `purchase` or `renewal`.
    package var kind: EventKind
    /// When the charged period began.
    package var at: Timestamp
    /// When it ends, when the event says.
    package var expires: Timestamp?
    /// The subscription key of a Google Play charge: `meta.purchaseToken`, with
    /// `#<meta.addOnProduct>` for an add-on line item.
    package var subscriptionKey: String?
  }

  /// Compact JSON (sorted keys, no `recorded`) of every imported event, by id.
  package var events: [String: String] = [:]
  /// Charges by transaction.
  package var charges: [String: Charge] = [:]
  /// Transactions of the Google Play charges of each subscription key.
  var chargesBySubscription: [String: [String]] = [:]
  /// Revocations by transaction: when and of which subject (the first one the log holds).
  package var revocations: [String: (at: Timestamp, subject: String)] = [:]
  /// The subject of every Google Play purchase token the ledger holds events of.
  package var googlePlaySubjects: [String: String] = [:]
  /// Google Play subscription tokens and the original transaction and subject they got.
  package var googlePlayTokens: [String: GooglePlayKnownToken] = [:]

  /// An empty knowledge: nothing is known (an import into a new log, `--out`, stdout).
  package init() {}

  /// Whether nothing is known.
  package var isEmpty: Bool { events.isEmpty && charges.isEmpty && revocations.isEmpty }

  /// The knowledge of a log's imported events: lines whose `meta.source` is `appstore` or
  /// `googleplay`. Other lines are passed over unparsed; unreadable lines are left to the
  /// append, which refuses them.
  /// - Complexity: O(n) in the size of the log.
  package static func read(log bytes: [UInt8]) -> LedgerKnowledge {
    var knowledge = LedgerKnowledge()
    let marker = Array(#""source":""#.utf8)
    for line in bytes.split(separator: 10) where line.firstRange(of: marker) != nil {
      guard case .object(let members)? = try? JSONValue.parse(bytes: Array(line)) else { continue }
      knowledge.learn(members)
    }
    return knowledge
  }

  /// Adds one event (a log line's members).
  mutating func learn(_ members: [(String, JSONValue)]) {
    let event = JSONValue.object(members)
    guard let source = event["meta"]?["source"]?.stringValue,
      source == "appstore" || source == "googleplay",
      let id = event["id"]?.stringValue
    else { return }
    if events[id] == nil {
      events[id] = JSONWriter.compact(.object(members.filter { $0.0 != "recorded" }))
    }
    let token = event["meta"]?["purchaseToken"]?.stringValue
    // An add-on line item is a subscription of its own, keyed like the importer keys it.
    let key = token.map { token in
      event["meta"]?["addOnProduct"]?.stringValue.map { token + "#" + $0 } ?? token
    }
    if let typeName = event["type"]?.stringValue,
      let kind = EventKind(name: typeName), kind == .purchase || kind == .renewal,
      let transaction = event["transaction"]?.stringValue,
      let at = event["at"]?.stringValue.flatMap(Timestamp.parseRFC3339),
      charges[transaction] == nil
    {
      charges[transaction] = Charge(
        id: id, kind: kind, at: at,
        expires: event["expires"]?.stringValue.flatMap(Timestamp.parseRFC3339),
        subscriptionKey: key)
      if let key { chargesBySubscription[key, default: []].append(transaction) }
    }
    if event["type"]?.stringValue == "revocation",
      let transaction = event["transaction"]?.stringValue,
      let at = event["at"]?.stringValue.flatMap(Timestamp.parseRFC3339),
      let subject = event["subject"]?.stringValue, revocations[transaction] == nil
    {
      revocations[transaction] = (at, subject)
    }
    if source == "googleplay", let token, let subject = event["subject"]?.stringValue,
      googlePlaySubjects[token] == nil
    {
      googlePlaySubjects[token] = subject
    }
    if source == "googleplay", let key,
      let original = event["original_transaction"]?.stringValue,
      let subject = event["subject"]?.stringValue
    {
      if googlePlayTokens[key] == nil {
        googlePlayTokens[key] = GooglePlayKnownToken(
          originalTransaction: original, subject: subject)
      }
    }
  }

  /// Google Play charges of a subscription key, by transaction.
  /// - Complexity: O(k log k) in the subscription's known charges.
  func charges(ofSubscription key: String) -> [(transaction: String, charge: Charge)] {
    (chargesBySubscription[key] ?? []).sorted().compactMap { transaction in
      charges[transaction].map { (transaction, $0) }
    }
  }
}
