/// A loaded, validated log: every event grouped by subject in effective order.
///
/// Immutable once built; queries at any (at, as_of) fold a subject's events on demand,
/// so knowledge-time answers stay exact.
public struct Ledger: Sendable {
  /// Catalog and consumable currencies.
  public let context: FoldContext
  /// Interned strings.
  public let symbols: LedgerSymbols
  /// All events; subject `s` owns `events[subjectStarts[s]..<subjectStarts[s+1]]`, in effective order.
  public let events: [Event]
  /// Where each subject's events start (one extra entry at the end).
  public let subjectStarts: [UInt32]
  /// Number of subscriptions per subject.
  public let subscriptionCounts: [UInt32]
  /// Lines read, including empty and duplicate lines.
  public let linesRead: Int
  /// Redeliveries skipped.
  public let duplicatesSkipped: Int
  /// The latest effective time of any event.
  public let latestEffective: Timestamp
  /// Warnings from loading (torn line, events that change nothing).
  public let warnings: [Diagnostic]

  /// The catalog.
  public var catalog: Catalog { context.catalog }

  /// A placeholder with no events and no catalog.
  static var empty: Ledger {
    var symbols = LedgerSymbols()
    return Ledger(
      context: FoldContext(catalog: Catalog(products: []), symbols: &symbols), symbols: symbols, events: [],
      subjectStarts: [0], subscriptionCounts: [], linesRead: 0, duplicatesSkipped: 0,
      latestEffective: .distantPast, warnings: [])
  }

  /// The number of subjects.
  public var subjectCount: Int { subjectStarts.count - 1 }

  /// The subject symbol for a subject id, if the ledger has seen it.
  public func subject(named name: String) -> Symbol? { symbols.subjects.lookup(name) }

  /// The events of a subject, in effective order.
  public func events(of subject: Symbol) -> ArraySlice<Event> {
    let s = Int(subject.rawValue)
    return events[Int(subjectStarts[s])..<Int(subjectStarts[s + 1])]
  }
}
