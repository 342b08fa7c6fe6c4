/// What happened to one line given to the builder.
package enum LineOutcome: Sendable, Equatable {
  /// A new event.
  case added
  /// A redelivery of an event already seen (same id, equal ignoring `recorded`): skipped.
  case duplicate(firstLine: Int)
  /// A redelivery whose `recorded` is earlier than the event's: skipped as an event, but the
  /// event is now known from that earlier time (Docs/log-format.md, "Redeliveries").
  case learnedEarlier(firstLine: Int)
  /// An empty line: ignored.
  case empty
  /// The line was rejected; the diagnostic is in `errors`.
  case rejected
}

/// Builds a `Ledger` from log lines: parses, de-duplicates, checks log-wide rules.
///
/// Lines go in in log order. `finish()` groups events by subject, orders each
/// subject's events by effective time (line order for ties), resolves which
/// subscription or purchase every event refers to, and replays every subject
/// once to enforce the no-overdraw rule and collect `check` warnings.
/// Memory: one compact `Event` per new event, the details of priced events and events with
/// `meta` (`EventDetailTable`), plus the interned strings.
package struct LedgerBuilder {
  /// The file name used in diagnostics.
  package let file: String
  private var parser: EventLineParser
  private var context: FoldContext
  var symbols: LedgerSymbols
  /// Admitted events in line order, each with its subject in `loadingSubject` until grouped.
  var events: [Event] = []
  /// The admitted events' prices and meta hashes, by line.
  var eventDetails = EventDetailTable()
  /// Per id symbol: the event's index (`baseFlag` set: in `base`), or `UInt32.max` if none.
  var eventIndexByID: [UInt32] = []
  /// A restored ledger this builder extends with a log's tail (snapshot restore).
  var base: Ledger? = nil
  private static let baseFlag: UInt32 = 1 << 31
  var chargeLineByTransaction: [UInt32] = []
  /// Whether a restored base's events are still to be put in `eventIndexByID` and
  /// `chargeLineByTransaction` (`indexBase`, at the first event admitted).
  private var baseIndexPending = false
  /// Redeliveries that lowered an event's knowledge time (`Ledger.learnedEarlier`).
  var learnedEarlier: [Event] = []
  /// Restored subjects whose events a tail redelivery made known earlier: settled again.
  private var baseSubjectsLearnedEarlier: Set<UInt32> = []
  /// Ordering, resolution and the decide step for the subjects a restored log's tail touches,
  /// with buffers reused across subjects (a whole log settles on every core instead).
  private var settler: SubjectSettler
  /// Errors found so far, in line order (at most `Limits.diagnosticsShownMax` kept).
  package internal(set) var errors: [Diagnostic] = []
  /// How many errors were found, including those not kept.
  package internal(set) var errorCount = 0
  /// Warnings (torn line, events that change nothing).
  package internal(set) var warnings: [Diagnostic] = []
  /// Lines read, including empty and duplicate lines.
  package internal(set) var linesRead = 0
  /// Redeliveries skipped.
  package internal(set) var duplicatesSkipped = 0
  /// Only this shard's subjects are kept (Log/Shard.swift); lines of others are parsed and dropped.
  package var shard: Shard? = nil
  /// Partitions for a file's lines: nil gives one per processor (at most
  /// `LedgerBuilder.partitionsMax`); 1 keeps the single path, the reference the partitioned
  /// load is tested against (Log/LedgerBuilder+Partitions.swift).
  package var partitionCount: Int? = nil
  /// The partitions a file's lines go to by subject hash, each interning and admitting its own
  /// subjects' lines (empty: this builder does it all).
  var partitions: [LedgerBuilder] = []
  /// In a partition: the line where each of its strings first appeared (the merge's log order).
  var firstLines = SymbolFirstLines()
  /// Transactions interned by two partitions: the later one's symbol stands for the earlier's.
  var transactionAliases: [TransactionAlias] = []
  /// Where the block of lines being added starts in the log file (-1: not a file, or unknown).
  var blockOffset: Int64 = -1
  /// When set, the text of the lines read that hold one of its markers (`KeptLines`).
  package var keptLines: KeptLines? = nil

  /// Starts an empty ledger for a catalog; `expectedStrings` sizes its string tables (they grow).
  package init(catalog: Catalog, file: String, expectedStrings: Int = 1 << 16) {
    self.file = file
    var symbols = LedgerSymbols(expectedStrings: expectedStrings)
    context = FoldContext(catalog: catalog, symbols: &symbols)
    self.symbols = symbols
    parser = EventLineParser(catalog: catalog)
    settler = SubjectSettler(context: context)
  }

  /// Continues a restored ledger: lines added next are the log's tail after the snapshot.
  ///
  /// A caller that lets go of `base` (restore does) leaves the builder the only owner of its
  /// arrays, so the tail is interned and merged in place: no second copy of the string tables
  /// or the events. Events reserved beyond `base.events.count` take the tail without regrowing.
  /// - Complexity: O(events of the base).
  package init(restoring base: Ledger, file: String) {
    var base = base
    self.file = file
    context = base.context
    symbols = base.symbols
    // One owner of the tables: interning the tail must not copy them (copy on write).
    base.symbols = LedgerSymbols()
    parser = EventLineParser(catalog: base.catalog)
    settler = SubjectSettler(context: base.context)
    linesRead = base.linesRead
    duplicatesSkipped = base.duplicatesSkipped
    // The base's events are indexed by id and charge at the first tail event (`indexBase`): a
    // restore with an empty tail, the common case for a fresh snapshot, never needs them.
    baseIndexPending = true
    self.base = base
  }

  /// Indexes the restored base's events by id and by the transaction they charge, so the tail's
  /// redeliveries and reused transactions are found; sized for the tables as they are now
  /// (interning the tail may have grown them) and for the capacity `reserve` asked for.
  /// - Complexity: O(events of the base).
  private mutating func indexBase() {
    baseIndexPending = false
    guard let base else { return }
    var byID: [UInt32] = []
    byID.reserveCapacity(max(eventIndexByID.capacity, symbols.ids.count))
    byID.append(contentsOf: repeatElement(UInt32.max, count: symbols.ids.count))
    var byCharge: [UInt32] = []
    byCharge.reserveCapacity(max(chargeLineByTransaction.capacity, symbols.transactions.count))
    byCharge.append(contentsOf: repeatElement(0, count: symbols.transactions.count))
    for (index, event) in base.events.enumerated() {
      byID[Int(event.id.rawValue)] = UInt32(index) | Self.baseFlag
      if event.kind.isCharge { byCharge[Int(event.transaction.rawValue)] = event.line }
    }
    eventIndexByID = byID
    chargeLineByTransaction = byCharge
  }

  /// The catalog events are checked against.
  package var catalog: Catalog { context.catalog }

  /// The number of distinct events so far.
  package var eventCount: Int {
    events.count + (base?.events.count ?? 0) + partitions.reduce(0) { $0 + $1.events.count }
  }

  private func event(at index: UInt32) -> Event {
    index & Self.baseFlag != 0 ? base!.events[Int(index & ~Self.baseFlag)] : events[Int(index)]
  }

  /// The subject of the event at `index` (`eventIndexByID`'s encoding): implied by its place
  /// in a restored base, kept in `loadingSubject` for this builder's own events.
  private func subject(ofEventAt index: UInt32) -> Symbol {
    index & Self.baseFlag != 0 ? base!.subject(ofEventAt: Int(index & ~Self.baseFlag)) : events[Int(index)].loadingSubject
  }

  /// The details of the event at `index` (`eventIndexByID`'s encoding). Events added by
  /// `add(event:)` (an open store's moved subjects) come in effective order, not line order:
  /// the table is ordered first when they did.
  private mutating func details(ofEventAt index: UInt32, line: UInt32) -> EventDetails {
    if index & Self.baseFlag != 0 { return base!.details.details(line: line) }
    eventDetails.sortByLine()
    return eventDetails.details(line: line)
  }

  /// An event's knowledge time is the earliest `recorded` of its lines, so the order in which
  /// redeliveries arrive never changes an as-of answer.
  private mutating func learnEarlier(_ index: UInt32, from redelivery: Event) {
    learnedEarlier.append(redelivery)
    if index & Self.baseFlag != 0 {
      baseSubjectsLearnedEarlier.insert(redelivery.loadingSubject.rawValue)
      let position = Int(index & ~Self.baseFlag)
      base!.events[position].recorded = redelivery.recorded
      base!.events[position].hasRecorded = redelivery.hasRecorded
    } else {
      events[Int(index)].recorded = redelivery.recorded
      events[Int(index)].hasRecorded = redelivery.hasRecorded
    }
  }

  /// Reserves room for about `events` events, so loading a large log grows nothing by copying.
  ///
  /// Arrays are reserved generously (untouched capacity costs address space, not memory);
  /// hash tables, whose slots are touched when created, more tightly.
  package mutating func reserve(events estimate: Int) {
    guard estimate > 0 else { return }
    if !partitions.isEmpty {
      for p in partitions.indices { partitions[p].reserve(events: estimate / partitions.count) }
      // The first partition's array takes every event at the end (`PartitionMerge.combined`).
      partitions[0].events.reserveCapacity(estimate)
      return
    }
    events.reserveCapacity(estimate)
    eventIndexByID.reserveCapacity(estimate)
    chargeLineByTransaction.reserveCapacity(estimate)
    // `estimate` is about twice the events of a typical log (its lines average 200 bytes, not 100).
    // Every event has an id; transactions are fewer (renewals and purchases only, about 0.6 per
    // event in the generator's log, far fewer with usage): sized for half the events, a table
    // grows once at most instead of touching slots it never fills.
    symbols.ids.reserve(count: estimate / 2, bytes: estimate * 24)
    symbols.transactions.reserve(count: estimate / 4, bytes: estimate * 24)
  }

  /// Records an error, keeping at most `Limits.diagnosticsShownMax`.
  package mutating func record(_ diagnostic: Diagnostic) {
    if diagnostic.severity == .warning {
      if warnings.count < Limits.diagnosticsShownMax { warnings.append(diagnostic) }
      return
    }
    errorCount += 1
    if errors.count < Limits.diagnosticsShownMax { errors.append(diagnostic) }
  }

  /// Adds one line (without its newline) with its 1-based number.
  /// - Complexity: O(line length) expected.
  @discardableResult
  package mutating func add(line: UnsafeBufferPointer<UInt8>, lineNumber: Int) -> LineOutcome {
    precondition(shard == nil, "a shard is read through PipelinedLogReader")
    unpartition()
    linesRead += 1
    switch LineIntake.check(line, lineNumber: lineNumber) {
    case .empty: return .empty
    case .refused(var diagnostic):
      diagnostic.file = file
      record(diagnostic)
      return .rejected
    case .parse: break
    }
    switch parser.parseDetailed(line, lineNumber: lineNumber, symbols: &symbols) {
    case .failure(var diagnostic):
      diagnostic.file = file
      record(diagnostic)
      return .rejected
    case .success(let parsed):
      return admit(parsed.event, details: parsed.details)
    }
  }

  /// A transfer in a log sharded or split from a stream, whose groups a first pass cannot find.
  package static let transferFromStream = Problem.invalidValue(
    field: "type",
    expected: "no 'transfer' in a log partitioned from stdin (give the log as a file: a first pass finds the subjects "
      + "transfers join, which must stay in one shard)",
    found: "\"transfer\"")

  /// Adds a block of lines the reader thread parsed, prefetching table slots a few events ahead.
  /// Events are read where the worker wrote them, not copied (`ParsedLines`).
  mutating func add(
    parsed lines: ParsedLines, owners: [LineOwner], buffer: UnsafeBufferPointer<UInt8>,
    scratch: UnsafeBufferPointer<UInt8>
  ) {
    if !partitions.isEmpty {
      add(partitioning: lines, owners: owners, buffer: buffer, scratch: scratch)
      return
    }
    let distance = 6
    var other = 0
    lines.events.withUnsafeBufferPointer { events in
      var event = 0
      for index in 0..<lines.count {
        if other < lines.others.count && lines.others[other].index == index {
          if case .failure(let diagnostic) = lines.others[other].line { add(refused: diagnostic) } else { linesRead += 1 }
          other += 1
          continue
        }
        if event + distance < events.count {
          let ahead = events.baseAddress! + event + distance
          symbols.ids.prefetch(hash: ahead.pointee.id.hash)
          if ahead.pointee.transaction.ref.isPresent { symbols.transactions.prefetch(hash: ahead.pointee.transaction.hash) }
          if ahead.pointee.originalTransaction.ref.isPresent {
            symbols.transactions.prefetch(hash: ahead.pointee.originalTransaction.hash)
          }
        }
        add(pending: events.baseAddress! + event, buffer: buffer, scratch: scratch)
        event += 1
      }
    }
  }

  /// Counts a line refused before admission (it did not parse, or was too long) and records why.
  mutating func add(refused diagnostic: Diagnostic) {
    linesRead += 1
    var diagnostic = diagnostic
    diagnostic.file = file
    record(diagnostic)
  }

  /// Adds an event line the reader thread parsed (see `PipelinedLogReader`), read in place.
  @inline(__always)
  private mutating func add(
    pending: UnsafePointer<PendingEvent>, buffer: UnsafeBufferPointer<UInt8>, scratch: UnsafeBufferPointer<UInt8>
  ) {
    linesRead += 1
    if let shard, shard.groups.isUnknown, pending.pointee.event.kind == .transfer {
      return record(Diagnostic(file: file, line: Int(pending.pointee.event.line), Self.transferFromStream))
    }
    if let shard, !pending.pointee.belongs(to: shard, buffer: buffer, scratch: scratch) { return }
    let interned = pending.pointee.interned(into: &symbols, buffer: buffer, scratch: scratch, blockOffset: blockOffset)
    _ = admit(interned.event, details: interned.details)
  }

  /// Interns strings for events built outside the line parser (benchmark baselines, tests).
  package mutating func withSymbols<R>(_ body: (inout LedgerSymbols) -> R) -> R {
    unpartition()
    return body(&symbols)
  }

  /// Adds an event decoded by other means; it gets the same log-wide checks as a parsed line.
  ///
  /// The caller has validated the fields; its symbols (`subject` and the price currency of
  /// `details` too) must come from `withSymbols`.
  package mutating func add(event: Event, subject: Symbol, details: EventDetails = EventDetails()) -> LineOutcome {
    unpartition()
    linesRead += 1
    var event = event
    event.loadingSubject = subject
    return admit(event, details: details)
  }

  /// Admits one event (its subject in `loadingSubject`) with its details: gathers what the
  /// ledger knows of its id and transaction, asks `Decision`, and keeps what it decided.
  mutating func admit(_ event: Event, details: EventDetails) -> LineOutcome {
    if baseIndexPending { indexBase() }
    let idIndex = Int(event.id.rawValue)
    var known = Decision.Known()
    let firstIndex = idIndex < eventIndexByID.count ? eventIndexByID[idIndex] : UInt32.max
    if firstIndex != UInt32.max {
      let first = self.event(at: firstIndex)
      known.eventWithID = first
      known.sameSubject = subject(ofEventAt: firstIndex) == event.loadingSubject
      known.firstDetails = self.details(ofEventAt: firstIndex, line: first.line)
    } else if event.kind.isCharge {
      let txIndex = Int(event.transaction.rawValue)
      if txIndex >= chargeLineByTransaction.count {
        chargeLineByTransaction.append(
          contentsOf: repeatElement(0, count: txIndex + 1 - chargeLineByTransaction.count))
      }
      known.chargeLine = chargeLineByTransaction[txIndex]
    }
    switch Decision.of(event, details: details, knowing: known, symbols: symbols) {
    case .accepted:
      break
    case .duplicate(let firstLine):
      duplicatesSkipped += 1
      return .duplicate(firstLine: firstLine)
    case .learnedEarlier(let firstLine):
      duplicatesSkipped += 1
      learnEarlier(firstIndex, from: event)
      return .learnedEarlier(firstLine: firstLine)
    case .rejected(let problem):
      // A refused charge leaves its id unclaimed, so a later correct line with this id is not a conflict.
      record(Diagnostic(file: file, line: Int(event.line), problem))
      return .rejected
    }
    if event.kind.isCharge { chargeLineByTransaction[Int(event.transaction.rawValue)] = event.line }
    // Ids of rejected lines are interned too, so the table can run ahead of the events.
    if idIndex >= eventIndexByID.count {
      eventIndexByID.append(contentsOf: repeatElement(UInt32.max, count: idIndex + 1 - eventIndexByID.count))
    }
    eventIndexByID[idIndex] = UInt32(events.count)
    events.append(event)
    if !details.isEmpty { eventDetails.set(details, line: event.line) }
    return .added
  }

  /// Groups, orders, resolves and validates; returns the ledger or every error found.
  /// - Complexity: O(n log k) for n events and at most k events per subject.
  package mutating func finish() -> Result<Ledger, DiagnosticList> {
    // A restored ledger's tail is only extended when it is valid; a fresh load goes on to the
    // history rules (overdraw) over the lines that parsed, so one run reports every problem.
    if errorCount > 0 && base != nil { return .failure(DiagnosticList(errors + warnings)) }
    // Loading is over: ids and transactions are only turned back into strings from now on, so
    // their hash slots go (about 23 bytes per event; `SymbolTable.dropIndex`).
    symbols.ids.dropIndex()
    symbols.transactions.dropIndex()
    if var base {
      // Handed over, not copied: the merge extends `base.events` in place.
      self.base = nil
      return finish(extending: &base)
    }
    // Partitions' strings join this builder's tables in log order (the single path's symbols).
    let merge = partitions.isEmpty ? nil : PartitionMerge(partitions, aliases: transactionAliases)
    if let merge {
      symbols = merge.symbols
      learnedEarlier = merge.learnedEarlier(partitions)
    }
    let subjectCount = symbols.subjects.count
    var starts = merge?.subjectCounts ?? [Int](repeating: 0, count: subjectCount + 1)
    if merge == nil { for event in events { starts[Int(event.loadingSubject.rawValue) + 1] += 1 } }
    let errorsBeforeSizes = errorCount
    for s in 0..<subjectCount {
      checkSize(starts[s + 1], subject: s)
      starts[s + 1] += starts[s]
    }
    // A subject over its limit is not folded at all.
    if errorCount > errorsBeforeSizes { return .failure(DiagnosticList(errorsInLineOrder() + warnings)) }
    eventIndexByID = []
    chargeLineByTransaction = []
    eventDetails.sortByLine()
    let details = merge?.details(partitions) ?? eventDetails
    eventDetails = EventDetailTable()
    var grouped = groupedBySubject(merge, starts: starts)
    let context = context
    let settled = grouped.withUnsafeMutableBufferPointer { all in
      SubjectSettler.settleAll(all, starts: starts, context: context)
    }
    report(settled.findings) { details.details(line: $0) }
    let subscriptionCounts = settled.subscriptionCounts
    let latest = settled.latest
    // History rules alone keep their order (per subject, in effective time: a cause before its
    // consequences); mixed with line errors, everything goes in line order.
    let hasErrors = errorCount > 0
    if !hasErrors { warnings.sort { ($0.line ?? 0) < ($1.line ?? 0) } }
    var ledger = Ledger(
      context: context, symbols: symbols, details: details, events: grouped, subjectStarts: starts.map { UInt32($0) },
      subscriptionCounts: subscriptionCounts, linesRead: linesRead,
      duplicatesSkipped: duplicatesSkipped, latestEffective: latest, warnings: warnings)
    ledger.learnedEarlier = learnedEarlier
    guard hasErrors else { return settledOwners(ledger) }
    // Owner chains are a log-wide rule too, checked over the lines that parsed, so one run
    // reports a broken chain beside a line error.
    let lineErrors = errorsBeforeSizes > 0 ? errorsInLineOrder() : errors
    let chainErrors = ledger.settleOwners(file: file)
    let all = chainErrors.isEmpty ? lineErrors : (lineErrors + chainErrors).sorted { ($0.line ?? 0) < ($1.line ?? 0) }
    return .failure(DiagnosticList(all + warnings))
  }

  /// Merges the tail into a restored ledger: only subjects the tail touches are re-folded.
  ///
  /// In place: the base's subjects move right, last first, to make room for their tail events,
  /// so memory holds the events once (plus the tail), not a merged copy beside the base.
  /// - Complexity: O(events + k log k per subject the tail touches, for its k events).
  private mutating func finish(extending base: inout Ledger) -> Result<Ledger, DiagnosticList> {
    let baseWarnings = base.warnings
    guard !events.isEmpty || !baseSubjectsLearnedEarlier.isEmpty else {
      return settledOwners(
        Ledger(
          context: context, symbols: symbols, details: base.details, events: base.events, subjectStarts: base.subjectStarts,
          subscriptionCounts: base.subscriptionCounts, linesRead: linesRead,
          duplicatesSkipped: duplicatesSkipped, latestEffective: base.latestEffective,
          warnings: baseWarnings + warnings),
        transferSubjects: base.transferSubjects)
    }
    let transferSubjects = base.transferSubjects.map { Self.union($0, tailTransferSubjects) }
    let subjectCount = symbols.subjects.count
    var tailStarts = [Int](repeating: 0, count: subjectCount + 1)
    for event in events { tailStarts[Int(event.loadingSubject.rawValue) + 1] += 1 }
    for s in 0..<subjectCount { tailStarts[s + 1] += tailStarts[s] }
    var tail = events
    events = []
    Self.groupBySubject(&tail, starts: tailStarts)
    let baseSubjects = base.subjectCount
    func baseRange(_ s: Int) -> Range<Int> {
      s < baseSubjects ? Int(base.subjectStarts[s])..<Int(base.subjectStarts[s + 1]) : 0..<0
    }
    var starts = [UInt32](repeating: 0, count: subjectCount + 1)
    for s in 0..<subjectCount {
      starts[s + 1] = starts[s] + UInt32(baseRange(s).count + tailStarts[s + 1] - tailStarts[s])
    }
    var merged = base.events
    base.events = []
    merged.append(contentsOf: repeatElement(Event(kind: .purchase), count: tail.count))
    merged.withUnsafeMutableBufferPointer { all in
      tail.withUnsafeBufferPointer { tail in
        // Right to left: a subject's new place is never left of its old one.
        for s in stride(from: subjectCount - 1, through: 0, by: -1) {
          let from = baseRange(s)
          let to = Int(starts[s])
          let tailRange = tailStarts[s]..<tailStarts[s + 1]
          for k in tailRange.reversed() { all[to + from.count + k - tailRange.lowerBound] = tail[k] }
          if to != from.lowerBound {
            for k in from.reversed() { all[to + k - from.lowerBound] = all[k] }
          }
        }
      }
    }
    var subscriptionCounts = [UInt32](repeating: 0, count: subjectCount)
    var latest = base.latestEffective
    for s in 0..<subjectCount {
      let range = Int(starts[s])..<Int(starts[s + 1])
      if tailStarts[s] == tailStarts[s + 1] && !baseSubjectsLearnedEarlier.contains(UInt32(s)) {
        subscriptionCounts[s] = s < baseSubjects ? base.subscriptionCounts[s] : 0
        continue
      }
      checkSize(range.count, subject: s)
      merged.withUnsafeMutableBufferPointer { all in
        subscriptionCounts[s] = settle(
          UnsafeMutableBufferPointer(rebasing: all[range]), latest: &latest, baseDetails: base.details)
      }
    }
    if errorCount > 0 { return .failure(DiagnosticList(errors + warnings)) }
    warnings.sort { ($0.line ?? 0) < ($1.line ?? 0) }
    let details = EventDetailTable.merged([base.details, eventDetails])
    base.details = EventDetailTable()
    eventDetails = EventDetailTable()
    var ledger = Ledger(
      context: context, symbols: symbols, details: details, events: merged, subjectStarts: starts,
      subscriptionCounts: subscriptionCounts, linesRead: linesRead,
      duplicatesSkipped: duplicatesSkipped, latestEffective: latest, warnings: baseWarnings + warnings)
    ledger.learnedEarlier = base.learnedEarlier + learnedEarlier
    return settledOwners(ledger, transferSubjects: transferSubjects)
  }

  /// The subjects of the tail's transfers, ascending, each once.
  /// - Complexity: O(tail events).
  private var tailTransferSubjects: [Symbol] {
    Set(events.lazy.filter { $0.kind == .transfer }.map(\.loadingSubject)).sorted()
  }

  /// `a` and `b` (each ascending, each symbol once) as one ascending list, each symbol once.
  /// - Complexity: O((a + b) log(a + b)).
  static func union(_ a: [Symbol], _ b: [Symbol]) -> [Symbol] {
    b.isEmpty ? a : Set(a).union(b).sorted()
  }

  /// The ledger with its owner chains, or the errors of chains that break contract v1.3,
  /// section 9 (a rule of the whole log, so it runs once every event is in place). With
  /// `transferSubjects`, only their events are read to find the transfers.
  private func settledOwners(_ ledger: Ledger, transferSubjects: [Symbol]? = nil) -> Result<Ledger, DiagnosticList> {
    var ledger = ledger
    let problems = ledger.settleOwners(file: file, transferSubjects: transferSubjects)
    guard problems.isEmpty else { return .failure(DiagnosticList(problems + warnings)) }
    ledger.dropUnitReferenceWarnings()
    return .success(ledger)
  }

  /// Every event, each subject's contiguous from `starts[s]` in line order: the partitions'
  /// events (in the merged symbols) or this builder's own, reordered in place.
  private mutating func groupedBySubject(_ merge: PartitionMerge?, starts: [Int]) -> [Event] {
    var grouped: [Event]
    if let merge {
      for p in partitions.indices {
        // Only the events are read from now on.
        partitions[p].symbols = LedgerSymbols(expectedStrings: 16)
        partitions[p].eventIndexByID = []
        partitions[p].chargeLineByTransaction = []
      }
      grouped = merge.grouped(&partitions, starts: starts)
      partitions = []
      return grouped
    }
    grouped = events
    events = []
    Self.groupBySubject(&grouped, starts: starts)
    return grouped
  }

  /// Reorders `events` in place so each subject's events are contiguous (counting sort by
  /// `loadingSubject`); their `slot` is then free for the resolver (`UInt32.max`).
  static func groupBySubject(_ events: inout [Event], starts: [Int]) {
    var next = starts
    var destination = [UInt32](repeating: 0, count: events.count)
    events.withUnsafeMutableBufferPointer { all in
      for index in 0..<all.count {
        let s = Int(all[index].loadingSubject.rawValue)
        destination[index] = UInt32(next[s])
        next[s] += 1
        all[index].slot = UInt32.max
      }
      // Follow permutation cycles so only one extra 4-byte index per event is needed.
      for index in 0..<all.count {
        while Int(destination[index]) != index {
          let target = Int(destination[index])
          all.swapAt(index, target)
          destination.swapAt(index, target)
        }
      }
    }
  }

  /// Orders one subject's events by effective time (line order for ties), resolves them and
  /// decides its rules; returns its subscription count and moves `latest` to its last `at`.
  /// - Complexity: O(k log k) for its k events.
  private mutating func settle(
    _ subjectEvents: UnsafeMutableBufferPointer<Event>, latest: inout Timestamp, baseDetails: EventDetailTable
  ) -> UInt32 {
    var findings: [(Event, RuleFinding)] = []
    let subscriptionCount = settler.settle(subjectEvents, findings: &findings)
    if let last = subjectEvents.last, last.at > latest { latest = last.at }
    let added = eventDetails
    // A charge revoked in the tail may be in the restored base.
    report(findings) { line in
      let own = added.isSorted ? added.details(line: line) : EventDetails()
      return own.isEmpty ? baseDetails.details(line: line) : own
    }
    return subscriptionCount
  }

  /// Records an error when subject `s` has more events than the per-subject limit.
  private mutating func checkSize(_ count: Int, subject s: Int) {
    guard count > Limits.eventsPerSubjectMax else { return }
    record(
      Diagnostic(
        file: file,
        .tooManyEvents(subject: symbols.subjects.string(Symbol(rawValue: UInt32(s))), limit: Limits.eventsPerSubjectMax)))
  }

  /// The errors by line (stable: a line's own errors keep their order); errors without a line last.
  private func errorsInLineOrder() -> [Diagnostic] {
    errors.enumerated().sorted { a, b in
      let left = a.element.line ?? Int.max
      let right = b.element.line ?? Int.max
      return left != right ? left < right : a.offset < b.offset
    }.map(\.element)
  }

  /// A revocation's v1.3 `quantity` and `refunded` against the charge it revokes (contract v1.3,
  /// section 11): packs only of a consumable and at most those bought; an amount only of a priced
  /// charge and at most its price.
  static func refundTermsProblem(
    _ event: Event, refunded: Int64, charge: EventDetails, chargeLine: UInt32, chargeQuantity: Int64, isConsumable: Bool
  ) -> Problem? {
    if event.quantity != 0 {
      guard isConsumable else {
        return .fieldNotAllowed(
          field: "quantity", type: EventKind.revocation.name,
          why: "only for a consumable purchase; line \(chargeLine) is not one")
      }
      guard event.quantity <= chargeQuantity else {
        return .invalidValue(
          field: "quantity", expected: "at most the \(chargeQuantity) packs bought on line \(chargeLine)",
          found: String(event.quantity))
      }
    }
    guard event.hasRefunded else { return nil }
    guard charge.hasPrice else {
      return .fieldNotAllowed(
        field: "refunded", type: EventKind.revocation.name,
        why: "the revoked charge on line \(chargeLine) has no price to refund from")
    }
    guard refunded <= charge.price else {
      return .invalidValue(
        field: "refunded", expected: "at most the charge's price (\(charge.price), line \(chargeLine))",
        found: String(refunded))
    }
    return nil
  }

  /// Records what the rules found, worded with this log's strings.
  private mutating func report(_ findings: [(Event, RuleFinding)], chargeDetails: (UInt32) -> EventDetails) {
    for (event, finding) in findings {
      switch finding {
      case .overdraw(let currency, let balance, let quantity):
        record(
          Diagnostic(
            file: file, line: Int(event.line),
            .overdraw(currency: symbols.currencies.string(currency), balance: balance, quantity: quantity)))
      case .balanceMovementLimit(let currency, let moved, let delta):
        let name = symbols.currencies.string(currency)
        record(
          Diagnostic(
            file: file, line: Int(event.line),
            .balanceMovementLimit(currency: name, moved: moved, delta: delta, limit: Limits.balanceMovementMax)))
      case .unknownReference(let field, let value):
        record(
          Diagnostic(
            file: file, line: Int(event.line),
            .unknownReference(field: field.name, value: symbols.transactions.string(value)), severity: .warning))
      case .refundTerms(let chargeLine, let chargeQuantity, let isConsumable):
        if let problem = Self.refundTermsProblem(
          event, refunded: chargeDetails(event.line).price, charge: chargeDetails(chargeLine), chargeLine: chargeLine,
          chargeQuantity: chargeQuantity,
          isConsumable: isConsumable)
        {
          record(Diagnostic(file: file, line: Int(event.line), problem))
        }
      }
    }
  }
}
