import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage
import Dispatch

extension LedgerStore {
  /// Appends JSON lines (`inputName` in messages), stamping `now` as `recorded` where absent,
  /// waiting for another process's lock at most `wait` (nil: `lockWait`, grouped with other
  /// callers' appends when `groupsCommits` is set).
  ///
  /// Under the log's lock, `LogAppender` hands over the log's size; the builder it validates
  /// against holds only the subjects the batch and the lines appended since involve (by
  /// subject, by event id, by charged transaction), so a full load is never needed. After the
  /// fsync the re-folded subjects replace theirs in `state`. An in-memory ledger does the same
  /// without a file.
  /// - Complexity: O(input + lines appended since + events of the subjects involved).
  package func append(lines input: [UInt8], named inputName: String, now: Timestamp?, wait: LogLock.Wait? = nil)
    throws(DiagnosticList) -> AppendReport
  {
    try append(AppendBatch(parsing: input, catalog: catalog), named: inputName, now: now, wait: wait)
  }

  /// `append(lines:)` of lines parsed already: each line of `batch` is parsed once, by its
  /// `AppendBatch`, and never again on the way to the log.
  /// - Complexity: O(batch + lines appended since + events of the subjects involved).
  package func append(_ batch: AppendBatch, named inputName: String, now: Timestamp?, wait: LogLock.Wait? = nil)
    throws(DiagnosticList) -> AppendReport
  {
    if groupsCommits && !isInMemory && !batch.input.isEmpty && wait == nil {
      return try appendInGroup(batch, named: inputName, now: now)
    }
    appending.wait()
    defer { appending.signal() }
    let linesBefore = state.logLines
    let outcome: LogAppender.Outcome
    if isInMemory {
      let (builder, lines) = state.builder(forAppending: [batch], appendedSince: [], catalog: catalog, logPath: logPath)
      let (written, admitted) = try LogAppender.admit(
        batch, inputName: inputName, logPath: logPath, now: now, into: builder, existingLines: lines,
        logBytes: state.logBytes)
      var committed = admitted
      committed.logBytes += Int64(written.count)
      committed.logLines += admitted.report.linesWritten
      memoryLog.append(contentsOf: written)
      outcome = committed
    } else {
      outcome = try LogAppender.append(
        batch, inputName: inputName, logPath: logPath, catalog: catalog, now: now, wait: wait ?? lockWait,
        prepare: { (log, size) throws(DiagnosticList) in
          try reopenIfReplaced(log, size: size)
          return try state.builder(forAppending: [batch], log: log, size: size, catalog: catalog, logPath: logPath)
        },
        afterCommit: { log, committed, written in
          IndexBuild.afterAppend(log: log, logPath: logPath, committed: committed, catalog: catalog, written: written)
        })
    }
    committed(outcome, linesBefore: linesBefore)
    return outcome.report
  }

  /// Takes in an append's outcome and tells the change streams; called by the appender.
  func committed(_ outcome: LogAppender.Outcome, linesBefore: Int) {
    take(outcome)
    if outcome.logLines > linesBefore && !commits.isEmpty {
      commits.publish(CommittedBatch(outcome, after: linesBefore))
    }
  }
}

extension LedgerStore {
  /// Takes in what an append re-folded, holding readers off only for work proportional to
  /// the batch: whatever copies the whole ledger (growing the events array, a compaction)
  /// is built beside the readers first and swapped in, and the old arrays are freed after.
  /// Only the appender (holding `appending`) calls it, so `state` changes nowhere else meanwhile.
  /// - Complexity: O(events of the re-folded subjects) under the write lock; O(events) beside
  ///   the readers when the array grows or a compaction is due (amortized over the appends).
  func take(_ outcome: LogAppender.Outcome) {
    guard compactsBesideReaders else {
      timedWrite {
        engines.removeAll()
        state.merge(outcome)
        if state.needsCompaction {
          var layout = state.compacted()
          state.install(&layout)
        }
      }
      return
    }
    var grown = state.grownEvents(adding: outcome.ledger.events.count)
    timedWrite {
      // Pooled engines hold the ledger: dropped first, the merge extends its arrays in place.
      engines.removeAll()
      if grown != nil { swap(&state.ledger.events, &grown!) }
      state.merge(outcome)
    }
    grown = nil  // the old events, freed here rather than under the lock
    guard state.needsCompaction else { return }
    var layout = state.compacted()
    timedWrite {
      engines.removeAll()
      state.install(&layout)
    }
  }

  /// `gate.write`, keeping the longest time the body held it.
  private func timedWrite(_ body: () -> Void) {
    gate.write {
      let start = DispatchTime.now().uptimeNanoseconds
      body()
      longestWriteNanoseconds = max(longestWriteNanoseconds, DispatchTime.now().uptimeNanoseconds - start)
    }
  }
}

/// What a `LedgerStore` knows: the ledger and how much of the log it has read.
struct StoreState {
  /// Events by subject; subjects re-folded after an append are `relocated`.
  var ledger: Ledger
  /// Bytes of the log read (complete lines only).
  var logBytes: Int64
  /// Complete lines of the log read.
  var logLines: Int
  /// By event id symbol: the subject whose event has it (`UInt32.max`: none).
  var subjectOfID: [UInt32]
  /// By transaction symbol: the subject whose `purchase` or `renewal` charged it.
  var subjectOfCharge: [UInt32]
  /// Events in `ledger.events` superseded by a relocation, reclaimed by `compact`.
  var deadEvents = 0
  /// Superseded events tolerated before compacting, however few are live (tests lower it).
  var compactionFloor = 4096
  /// The log file the ledger was read from (nil in memory): another file under the log's name
  /// at an append or refresh, with a grown erasure record, means an erasure replaced it
  /// (`LedgerStore.reopenIfReplaced`).
  var pinnedLog: PinnedLog? = nil

  /// Indexes a loaded ledger.
  /// - Complexity: O(events).
  init(ledger: Ledger, extent: LogExtent) {
    self.ledger = ledger
    // A loaded ledger drops these look-up indexes (`LedgerBuilder.finish`); appends look ids and charges up.
    self.ledger.symbols.ids.rebuildIndex()
    self.ledger.symbols.transactions.rebuildIndex()
    logBytes = extent.completeBytes
    logLines = extent.lineCount
    subjectOfID = [UInt32](repeating: UInt32.max, count: ledger.symbols.ids.count)
    subjectOfCharge = [UInt32](repeating: UInt32.max, count: ledger.symbols.transactions.count)
    ledger.forEachEvent { event, subject in index(event, subject: subject) }
  }

  /// Distinct events held.
  var liveEvents: Int { ledger.events.count - deadEvents }

  private mutating func index(_ event: Event, subject: Symbol) {
    Self.set(&subjectOfID, event.id, subject)
    if event.kind.isCharge { Self.set(&subjectOfCharge, event.transaction, subject) }
  }

  private static func set(_ table: inout [UInt32], _ key: Symbol, _ subject: Symbol) {
    let at = Int(key.rawValue)
    if at >= table.count { table.append(contentsOf: repeatElement(UInt32.max, count: at + 1 - table.count)) }
    table[at] = subject.rawValue
  }

  /// A builder holding every subject that lines appended since `logBytes` and `batches`
  /// involve, followed by those appended lines; and the number of lines in the log.
  /// - Complexity: O(size - logBytes + batches + events of the subjects involved).
  func builder(
    forAppending batches: [AppendBatch], log: borrowing PlatformFile, size: Int64, catalog: Catalog, logPath: String
  ) throws(DiagnosticList) -> (LedgerBuilder, Int) {
    guard size >= logBytes else {
      throw DiagnosticList([Diagnostic(file: logPath, .logShrank(bytes: size, known: logBytes))])
    }
    let appendedSince: [UInt8]
    do {
      appendedSince = size > logBytes ? try log.readBytes(count: Int(size - logBytes), at: logBytes) : []
    } catch {
      throw DiagnosticList([error])
    }
    let prepared = builder(forAppending: batches, appendedSince: appendedSince, catalog: catalog, logPath: logPath)
    // The loaded ids were looked up (and the involved subjects' moved) by reading the log back:
    // a log changed under the store, now or at an earlier append's re-index, refuses every append.
    if let failure = ledger.symbols.readFailure { throw DiagnosticList([failure]) }
    return prepared
  }

  /// A builder holding every subject that `appendedSince` (lines others appended) and `batches`
  /// involve, followed by the `appendedSince` lines; and the number of lines then in the log.
  /// The batches' lines are not parsed again: their typed events name what they involve.
  /// - Complexity: O(appendedSince + batches + events of the subjects involved).
  func builder(forAppending batches: [AppendBatch], appendedSince: [UInt8], catalog: Catalog, logPath: String)
    -> (LedgerBuilder, Int)
  {
    // It holds only the subjects involved: small tables, grown as needed.
    var builder = LedgerBuilder(catalog: catalog, file: logPath, expectedStrings: 256)
    var parser = EventLineParser(catalog: catalog)
    let main = ledger.symbols
    var involved = Set<UInt32>()
    var parties = Set<String>()
    /// Notes what `event` (its strings in the builder's tables) involves.
    func noteSubjects(of event: Event) {
      builder.withSymbols { mini in
        func note(_ table: SymbolTable, _ symbol: Symbol, _ owners: [UInt32]?, in mainTable: SymbolTable) {
          guard symbol.isSome, let found = table.withBytes(symbol, { mainTable.lookup($0) }) else { return }
          guard let owners else {
            involved.insert(found.rawValue)
            return
          }
          if Int(found.rawValue) < owners.count, owners[Int(found.rawValue)] != UInt32.max {
            involved.insert(owners[Int(found.rawValue)])
          }
        }
        note(mini.subjects, event.loadingSubject, nil, in: main.subjects)
        note(mini.ids, event.id, subjectOfID, in: main.ids)
        if event.kind.isCharge {
          note(mini.transactions, event.transaction, subjectOfCharge, in: main.transactions)
        }
        if !ledger.owners.isEmpty {
          // A subject a transfer alone named has no lines, but its group has.
          parties.insert(mini.subjects.string(event.loadingSubject))
          if event.kind == .transfer { parties.insert(mini.transactions.string(event.transferRecipient)) }
        }
        if event.kind == .transfer, let to = mini.transactions.withBytes(event.transferRecipient, { main.subjects.lookup($0) }) {
          involved.insert(to.rawValue)
        }
      }
    }
    LogAppender.forEachInputLine(appendedSince) { line in
      let parsed = line.withUnsafeBufferPointer { bytes in
        builder.withSymbols { parser.parse(bytes, lineNumber: 0, symbols: &$0) }
      }
      if case .success(let event) = parsed { noteSubjects(of: event) }  // a failure is reported when the line is added
    }
    // Each event's strings go into the builder's tables as a parse of its line would put them.
    for batch in batches {
      for case .parsed(let line) in batch.lines {
        noteSubjects(of: builder.withSymbols { batch.moved(line.event, details: line.details, into: &$0).event })
      }
    }
    // A transfer's chain, and the answers of a unit, span its group (contract v1.3, section 9).
    for name in ledger.withGroups(ofNames: parties) { if let subject = main.subjects.lookup(name) { involved.insert(subject.rawValue) } }
    addEvents(ofSubjects: ledger.withGroups(of: involved), to: &builder)
    var lineNumber = logLines
    LogAppender.forEachInputLine(appendedSince) { line in
      lineNumber += 1
      _ = line.withUnsafeBufferPointer { builder.add(line: $0, lineNumber: lineNumber) }
    }
    return (builder, lineNumber)
  }

  /// Adds the events `subjects` hold in the ledger to `builder`, their strings moved into its tables.
  /// - Complexity: O(events of those subjects).
  private func addEvents(ofSubjects subjects: Set<UInt32>, to builder: inout LedgerBuilder) {
    let main = ledger.symbols
    for subject in subjects.sorted() {
      guard let (lower, upper) = extent(of: Symbol(rawValue: subject)) else { continue }
      for event in ledger.events[lower..<upper] {
        var moved = event
        var details = ledger.details.details(line: event.line)
        let subjectInMini = builder.withSymbols { mini in
          Self.move(&moved, &details, from: main, to: &mini)
          return main.subjects.withBytes(Symbol(rawValue: subject)) { mini.subjects.intern($0) }
        }
        _ = builder.add(event: moved, subject: subjectInMini, details: details)
      }
    }
  }

  /// Re-interns an event's strings (and its price's currency) from one symbol space into another;
  /// its subject is the caller's (implied by where a ledger keeps it).
  private static func move(
    _ event: inout Event, _ details: inout EventDetails, from: LedgerSymbols, to: inout LedgerSymbols
  ) {
    (event, details) = from.moved(event, details: details, into: &to, movingSubject: false)
  }

  /// Takes in the subjects an append re-folded; compacts when superseded events outnumber live ones.
  /// - Complexity: O(events of those subjects), amortized; a compaction is O(events).
  mutating func merge(_ outcome: LogAppender.Outcome) {
    let refolded = outcome.ledger
    // The details of lines new to this ledger; older lines' are here already (a line's never change).
    var newDetails: [(line: UInt32, details: EventDetails)] = []
    for s in 0..<refolded.subjectCount {
      let source = Symbol(rawValue: UInt32(s))
      let (lower, upper, subscriptions) = refolded.extent(of: source)
      if lower == upper { continue }
      let subject = refolded.symbols.subjects.withBytes(source) { ledger.symbols.subjects.intern($0) }
      if let previous = extent(of: subject) { deadEvents += previous.upper - previous.lower }
      let start = ledger.events.count
      for var event in refolded.events[lower..<upper] {
        var details = Int(event.line) > logLines ? refolded.details.details(line: event.line) : EventDetails()
        Self.move(&event, &details, from: refolded.symbols, to: &ledger.symbols)
        if !details.isEmpty { newDetails.append((event.line, details)) }
        index(event, subject: subject)
        ledger.events.append(event)
        if event.at > ledger.latestEffective { ledger.latestEffective = event.at }
      }
      ledger.relocated[subject.rawValue] = RelocatedSubject(
        start: UInt32(start), end: UInt32(ledger.events.count), subscriptions: UInt32(subscriptions))
    }
    // New lines follow every line the table holds: in line order, they append.
    for (line, details) in newDetails.sorted(by: { $0.line < $1.line }) { ledger.details.set(details, line: line) }
    // Lines the input repeated were not written; only the log's own redeliveries count.
    // Owner chains are a rule of the whole log, rebuilt from every event (O(events)), but only
    // when the batch touched one: the refold holds the whole group of every subject it names, so
    // it has transfers exactly when a chain, or a unit's charges, may have changed.
    if !refolded.owners.isEmpty { _ = ledger.settleOwners(file: nil) }
    ledger.duplicatesSkipped += refolded.duplicatesSkipped - outcome.report.duplicates
    ledger.linesRead = outcome.logLines
    logBytes = outcome.logBytes
    logLines = outcome.logLines
  }

  /// A copy of the events with room for `count` more, when appending them would reallocate
  /// (nil when there is room): built while readers read, swapped in under the lock.
  /// - Complexity: O(events) when it copies.
  func grownEvents(adding count: Int) -> [Event]? {
    let events = ledger.events
    guard events.capacity - events.count < count else { return nil }
    var grown: [Event] = []
    grown.reserveCapacity(max(events.count * 2, events.count + count, 1024))
    grown.append(contentsOf: events)
    return grown
  }

  /// Whether superseded events outnumber the live ones (and the floor), so a compaction is due.
  var needsCompaction: Bool { deadEvents > compactionFloor && deadEvents > liveEvents }

  /// Where a subject's events are, if it has any.
  private func extent(of subject: Symbol) -> (lower: Int, upper: Int)? {
    guard ledger.relocated[subject.rawValue] != nil || Int(subject.rawValue) < ledger.subjectCount else { return nil }
    let found = ledger.extent(of: subject)
    return (found.lower, found.upper)
  }

  /// Every subject's live events regrouped contiguously, superseded ones dropped.
  struct Layout {
    var events: [Event]
    var starts: [UInt32]
    var counts: [UInt32]
  }

  /// The compacted layout, built from the current one without changing it (readers may read).
  /// - Complexity: O(events).
  func compacted() -> Layout {
    var events: [Event] = []
    events.reserveCapacity(liveEvents + liveEvents / 2)
    var starts: [UInt32] = [0]
    var counts: [UInt32] = []
    starts.reserveCapacity(ledger.symbols.subjects.count + 1)
    counts.reserveCapacity(ledger.symbols.subjects.count)
    for s in 0..<ledger.symbols.subjects.count {
      let subject = Symbol(rawValue: UInt32(s))
      if let (lower, upper) = extent(of: subject) {
        events.append(contentsOf: ledger.events[lower..<upper])
        counts.append(UInt32(ledger.extent(of: subject).subscriptions))
      } else {
        counts.append(0)
      }
      starts.append(UInt32(events.count))
    }
    return Layout(events: events, starts: starts, counts: counts)
  }

  /// Installs a compacted layout; `layout` gets the old arrays, to be freed by the caller.
  /// - Complexity: O(relocated subjects).
  mutating func install(_ layout: inout Layout) {
    swap(&ledger.events, &layout.events)
    swap(&ledger.subjectStarts, &layout.starts)
    swap(&ledger.subscriptionCounts, &layout.counts)
    ledger.relocated = [:]
    deadEvents = 0
  }
}
