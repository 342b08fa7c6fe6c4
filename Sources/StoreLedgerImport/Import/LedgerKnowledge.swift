import StoreLedgerCore

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
    package var id: EventID
    /// `purchase` or `renewal`.
    package var kind: EventKind
    /// When the charged period began.
    package var at: Timestamp
    /// When it ends, when the event says.
    package var expires: Timestamp?
    /// `original_transaction`, for a subscription's charges.
    package var originalTransaction: String? = nil
    /// The subscription key of a Google Play charge: `meta.purchaseToken`, with
    /// `#<meta.addOnProduct>` for an add-on line item.
    package var subscriptionKey: String?
  }

  /// Every imported event, by id, without `recorded`: the first line of each id the log holds,
  /// as its typed value (read once, by `typedEvent(line:)`).
  package private(set) var events = KnownEvents()
  /// When the ledger first knew each imported event: the earliest `recorded` (absent: `at`)
  /// over its lines that hold the same event, as the log counts it (Docs/log-format.md, "Redeliveries").
  package var knownAt: [EventID: Timestamp] = [:]
  /// Charges by transaction.
  package var charges: [String: Charge] = [:]
  /// Transactions of the charges of each original transaction.
  var chargesByOriginal: [String: [String]] = [:]
  /// Transactions of the Google Play charges of each subscription key.
  var chargesBySubscription: [String: [String]] = [:]
  /// Google Play period end corrections by transaction: the `expires` of the last one in the
  /// log (`googleplay:<transaction>:period_end:…`), which overrides the charge's.
  var periodEnds: [String: Timestamp] = [:]
  /// Revocations by transaction: when and of which subject (the first one the log holds).
  package var revocations: [String: (at: Timestamp, subject: String)] = [:]
  /// The subject of every Google Play purchase token the ledger holds events of.
  package var googlePlaySubjects: [String: String] = [:]
  /// Google Play subscription tokens and the original transaction and subject they got.
  package var googlePlayTokens: [String: GooglePlayKnownToken] = [:]
  /// The subject of each Google Play subscription (its `original_transaction`): the first
  /// owner its events keep, whichever of its tokens the log holds.
  var googlePlayUnitSubjects: [String: String] = [:]
  /// The subject each App Store unit (an `original_transaction`, or a purchase's
  /// `transaction`) was first imported under: its first owner, which its events keep.
  package var appStoreUnitSubjects: [String: String] = [:]
  /// The transfers of each unit the log holds (imported or written by hand), in log order.
  package var transfers: [String: [KnownTransfer]] = [:]

  /// How many log lines this knowledge read into typed events, each line it learned from once:
  /// what the layer that hands it the lines counts (`LineParses`, which `Import/` may not name).
  package private(set) var linesRead = 0
  /// Of `linesRead`, the lines read by the compact layout's fast path (`NewEvent(compactLine:)`)
  /// rather than the JSON reader: nearly all, for lines the importers wrote (`CompactLineReaderTests`).
  package private(set) var compactLinesRead = 0

  /// An empty knowledge: nothing is known (an import into a new log, `--out`, stdout).
  package init() {}

  /// Whether nothing is known.
  package var isEmpty: Bool {
    events.isEmpty && charges.isEmpty && revocations.isEmpty && transfers.isEmpty
  }

  /// The knowledge of a log's imported events: lines whose `meta.source` is `appstore` or
  /// `googleplay`. Other lines are passed over unparsed; unreadable lines are left to the
  /// append, which refuses them.
  /// - Complexity: O(n) in the size of the log.
  package static func read(log bytes: [UInt8]) -> LedgerKnowledge {
    learning(lines: bytes.split(separator: 10))
  }

  /// What a log's lines hold that `read(log:)` would find, from lines already read: the text of
  /// the lines a load kept because they hold one of `lineMarkers` (`KeptLines`), so an import
  /// that loads the log for its append learns what the log knows in that same read.
  /// - Complexity: O(total length of `lines`).
  package static func learning<Line: Collection<UInt8>>(lines: some Sequence<Line>) -> LedgerKnowledge {
    var knowledge = LedgerKnowledge()
    knowledge.learn(lines: lines)
    return knowledge
  }

  /// Adds what `lines`, the log's next lines in order, hold: learning a log's lines in two runs
  /// gives what learning them in one does (an open store learns each import's new lines only).
  /// - Complexity: O(total length of `lines`).
  package mutating func learn<Line: Collection<UInt8>>(lines: some Sequence<Line>) {
    let markers = Self.lineMarkers.map { Array($0.utf8) }
    for line in lines {
      let bytes = Array(line)
      let hasMarker = bytes.withUnsafeBufferPointer { buffer in
        markers.contains { ByteScan.firstOccurrence(of: $0, in: buffer, from: 0, end: buffer.count) != nil }
      }
      guard hasMarker else { continue }
      linesRead += 1
      guard let event = typedEvent(line: bytes) else { continue }
      learnTransfer(event)
      learn(event)
    }
  }

  /// A log line's typed event, read by the one reader of a typed event: its fast path for the
  /// encoder's compact layout (`NewEvent(compactLine:)`, counted), else `NewEvent(json:)` over
  /// the core's JSON reader; nil when the line is not one, which the append refuses.
  /// - Complexity: O(length of the line).
  mutating func typedEvent(line: [UInt8]) -> NewEvent? {
    if let event = line.withUnsafeBufferPointer({ NewEvent(compactLine: $0) }) {
      compactLinesRead += 1
      return event
    }
    guard let json = try? JSONValue.parse(bytes: line) else { return nil }
    return try? NewEvent(json: json)
  }

  /// What a line holds when it may tell the knowledge something: an imported event's
  /// `meta.source`, or a `transfer` (one written by hand, with no `meta.source`, still moves an
  /// imported unit).
  package static let lineMarkers = [#""source":""#, #""type":"\#(EventKind.transfer.name)""#]

  /// Adds one event.
  mutating func learn(_ line: NewEvent) {
    guard let source = line.metaValues["source"]?.stringValue, source == "appstore" || source == "googleplay" else {
      return
    }
    let event = line.withoutRecorded
    let id = event.id
    // The log's redelivery rule: a line of the same event known earlier makes it known from then.
    let time = line.recorded ?? line.at
    if events.insert(event) {
      knownAt[id] = time
    } else if let since = knownAt[id], time < since, events[id] == event {
      knownAt[id] = time
    }
    let meta = event.metaValues
    let token = meta["purchaseToken"]?.stringValue
    // An add-on line item is a subscription of its own, keyed like the importer keys it.
    let key = token.map { token in meta["addOnProduct"]?.stringValue.map { token + "#" + $0 } ?? token }
    let kind = event.kind, subject = event.subject.rawValue
    let transaction = event.transaction?.rawValue, original = event.originalTransaction?.rawValue
    if kind.isCharge, let transaction, charges[transaction] == nil {
      charges[transaction] = Charge(
        id: id, kind: kind, at: event.at, expires: event.expires, originalTransaction: original,
        subscriptionKey: key)
      if let key { chargesBySubscription[key, default: []].append(transaction) }
      if let original { chargesByOriginal[original, default: []].append(transaction) }
    }
    if source == "googleplay", kind == .renewalExtended, let corrected = Self.correctedTransaction(id.rawValue),
      let expires = event.expires
    {
      periodEnds[corrected] = expires
    }
    if source == "appstore", kind != .transfer, let unit = original ?? (kind.isCharge ? transaction : nil),
      appStoreUnitSubjects[unit] == nil
    {
      appStoreUnitSubjects[unit] = subject
    }
    if kind == .revocation, let transaction, revocations[transaction] == nil {
      revocations[transaction] = (event.at, subject)
    }
    guard source == "googleplay", let token, let key else { return }
    if googlePlaySubjects[token] == nil { googlePlaySubjects[token] = subject }
    if let original, googlePlayTokens[key] == nil {
      googlePlayTokens[key] = GooglePlayKnownToken(originalTransaction: original, subject: subject)
      if googlePlayUnitSubjects[original] == nil { googlePlayUnitSubjects[original] = subject }
    }
  }

  /// Records a `transfer` line, whoever wrote it.
  mutating func learnTransfer(_ event: NewEvent) {
    guard event.kind == .transfer, let unit = event.originalTransaction ?? event.transaction, let to = event.to
    else { return }
    transfers[unit.rawValue, default: []].append(
      KnownTransfer(id: event.id.rawValue, at: event.at, from: event.subject.rawValue, to: to.rawValue))
  }

  /// The subject a Google Play subscription was first imported under; nil when the log has none.
  func googlePlayUnitSubject(_ originalTransaction: String) -> String? {
    googlePlayUnitSubjects[originalTransaction]
  }

  /// Where the period of a charged transaction ends, when a correction changed it.
  func periodEnd(of transaction: String) -> Timestamp? { periodEnds[transaction] }

  /// The transaction of a period end correction's id, nil for any other id.
  static func correctedTransaction(_ id: String) -> String? {
    let parts = id.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count >= 4, parts[0] == "googleplay",
      parts[parts.count - 2] == GooglePlayMapper.periodEndName
    else { return nil }
    return parts[1..<(parts.count - 2)].joined(separator: ":")
  }

  /// When another token of the subscription `root` took over from the token `key`: the first
  /// purchase of another token the ledger holds after `start`; nil when none.
  /// - Complexity: O(k) in the subscription's known charges.
  func replacement(of key: String, root: String, after start: Timestamp) -> Timestamp? {
    (chargesByOriginal[root] ?? []).compactMap { charges[$0] }
      .filter { $0.kind == .purchase && $0.subscriptionKey != key && $0.at > start }
      .map(\.at).min()
  }

  /// Google Play charges of a subscription key, by transaction.
  /// - Complexity: O(k log k) in the subscription's known charges.
  func charges(ofSubscription key: String) -> [(transaction: String, charge: Charge)] {
    (chargesBySubscription[key] ?? []).sorted().compactMap { transaction in
      charges[transaction].map { (transaction, $0) }
    }
  }
}

/// The imported events a log holds, by id: each stored once, densely (a dictionary of a value
/// this large would hold a slot of its size for every bucket, about twice the events).
package struct KnownEvents: Sendable {
  /// Where each id's event is in `values`.
  private var slots: [EventID: Int] = [:]
  /// The events, in the order first learned.
  private var values: [NewEvent] = []

  /// How many events are known.
  package var count: Int { values.count }
  /// Whether none is known.
  package var isEmpty: Bool { values.isEmpty }

  /// The event known as `id`, without `recorded`; nil when none is.
  package subscript(_ id: EventID) -> NewEvent? { slots[id].map { values[$0] } }

  /// Keeps `event` unless an event of its id is known; whether it was kept.
  mutating func insert(_ event: NewEvent) -> Bool {
    guard slots[event.id] == nil else { return false }
    slots[event.id] = values.count
    values.append(event)
    return true
  }
}

/// A `transfer` the log holds: from `from` to `to` at `at`.
package struct KnownTransfer: Sendable, Equatable {
  /// The event id.
  package var id: String
  /// When the unit moved.
  package var at: Timestamp
  /// The subject it moved from.
  package var from: String
  /// The subject it moved to.
  package var to: String
}
