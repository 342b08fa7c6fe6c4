/// A loaded, validated log: every event grouped by subject in effective order.
///
/// Immutable once built; queries at any (at, as_of) fold a subject's events on demand,
/// so knowledge-time answers stay exact.
package struct Ledger: Sendable {
  /// Catalog and consumable currencies.
  package let context: FoldContext
  /// Interned strings.
  package var symbols: LedgerSymbols
  /// Prices and meta hashes of the events, by line.
  package var details: EventDetailTable
  /// All events; subject `s` owns `events[subjectStarts[s]..<subjectStarts[s+1]]`, in effective order.
  package var events: [Event]
  /// Where each subject's events start (one extra entry at the end).
  package var subjectStarts: [UInt32]
  /// Number of subscriptions per subject.
  package var subscriptionCounts: [UInt32]
  /// Lines read, including empty and duplicate lines.
  package var linesRead: Int
  /// Redeliveries skipped.
  package var duplicatesSkipped: Int
  /// The latest effective time of any event.
  package var latestEffective: Timestamp
  /// Warnings from loading (torn line, events that change nothing).
  package var warnings: [Diagnostic]
  /// Subjects an open `LedgerStore` re-folded after an append: their current events were
  /// moved to the end of `events` (the old range is dead until compaction). Empty for a
  /// ledger loaded in one go, so `subjectStarts` alone describes it.
  package var relocated: [UInt32: RelocatedSubject] = [:]
  /// Redelivery lines that made an event known earlier (each with its own `line`): skipped as
  /// events, but the index keeps them under their subject so a subject's lines tell the same.
  /// Empty unless a log redelivers an event with an earlier `recorded`.
  package var learnedEarlier: [Event] = []
  /// Who owned each transferred unit when (contract v1.3, section 9); empty without transfers.
  /// Set by `settleOwners` once the events are in place.
  package var owners = OwnerChains()
  /// The subjects with a `transfer` among their events, ascending, as a snapshot's decode found
  /// them; nil when not known (a ledger loaded from lines). It describes `events` as they were
  /// made and is not kept up to date: only `LedgerBuilder(restoring:)` reads it, before any change.
  package var transferSubjects: [Symbol]? = nil
  /// The shard this ledger was read as (`--shard`), with the transfer groups it placed by; nil: the whole log.
  package var shard: Shard? = nil

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(
    context: FoldContext, symbols: LedgerSymbols, details: EventDetailTable, events: [Event], subjectStarts: [UInt32],
    subscriptionCounts: [UInt32], linesRead: Int, duplicatesSkipped: Int, latestEffective: Timestamp,
    warnings: [Diagnostic], relocated: [UInt32: RelocatedSubject] = [:]
  ) {
    self.context = context
    self.symbols = symbols
    self.details = details
    self.events = events
    self.subjectStarts = subjectStarts
    self.subscriptionCounts = subscriptionCounts
    self.linesRead = linesRead
    self.duplicatesSkipped = duplicatesSkipped
    self.latestEffective = latestEffective
    self.warnings = warnings
    self.relocated = relocated
  }

  /// The catalog.
  package var catalog: Catalog { context.catalog }

  /// A placeholder with no events and no catalog.
  package static var empty: Ledger {
    var symbols = LedgerSymbols()
    return Ledger(
      context: FoldContext(catalog: Catalog(products: []), symbols: &symbols), symbols: symbols, details: EventDetailTable(), events: [],
      subjectStarts: [0], subscriptionCounts: [], linesRead: 0, duplicatesSkipped: 0,
      latestEffective: .distantPast, warnings: [])
  }

  /// The number of subjects.
  package var subjectCount: Int { subjectStarts.count - 1 }

  /// The subject symbol for a subject id, if the ledger has seen it.
  package func subject(named name: String) -> Symbol? { symbols.subjects.lookup(name) }

  /// The events of a subject, in effective order.
  package func events(of subject: Symbol) -> ArraySlice<Event> {
    let extent = extent(of: subject)
    return events[extent.lower..<extent.upper]
  }

  /// Calls `body` with every live event and its subject, subject after subject (a relocated
  /// subject's events where they now lie; the dead ranges not at all).
  /// - Complexity: O(events).
  package func forEachEvent(_ body: (Event, Symbol) throws -> Void) rethrows {
    // An open store's subjects new since loading exist only as relocated ones.
    for s in 0..<max(subjectCount, symbols.subjects.count) {
      let subject = Symbol(rawValue: UInt32(s))
      guard s < subjectCount || relocated[subject.rawValue] != nil else { continue }
      let range = extent(of: subject)
      for index in range.lower..<range.upper { try body(events[index], subject) }
    }
  }

  /// The subject whose events include `events[index]`, in a ledger without relocated subjects.
  /// - Complexity: O(log subjects).
  package func subject(ofEventAt index: Int) -> Symbol {
    precondition(relocated.isEmpty && index < events.count, "the subject of an event by position")
    var low = 0
    var high = subjectCount
    // The last subject whose start is at or before `index`: subjects without events share starts.
    while low < high {
      let mid = (low + high + 1) >> 1
      if Int(subjectStarts[mid]) <= index { low = mid } else { high = mid - 1 }
    }
    return Symbol(rawValue: UInt32(low))
  }

  /// Where a subject's events lie in `events`, and how many subscriptions it has.
  @inline(__always)
  package func extent(of subject: Symbol) -> (lower: Int, upper: Int, subscriptions: Int) {
    if !relocated.isEmpty, let moved = relocated[subject.rawValue] {
      return (Int(moved.start), Int(moved.end), Int(moved.subscriptions))
    }
    let s = Int(subject.rawValue)
    return (Int(subjectStarts[s]), Int(subjectStarts[s + 1]), Int(subscriptionCounts[s]))
  }
}

/// Where a re-folded subject's events now lie (see `Ledger.relocated`).
package struct RelocatedSubject: Sendable {
  /// First event.
  var start: UInt32
  /// One past the last event.
  var end: UInt32
  /// Subscriptions of the subject.
  var subscriptions: UInt32

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(start: UInt32, end: UInt32, subscriptions: UInt32) {
    self.start = start
    self.end = end
    self.subscriptions = subscriptions
  }
}
