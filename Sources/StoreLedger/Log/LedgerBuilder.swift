/// What happened to one line given to the builder.
package enum LineOutcome: Sendable, Equatable {
  /// A new event.
  case added
  /// A redelivery of an event already seen (same id, equal ignoring `recorded`): skipped.
  case duplicate(firstLine: Int)
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
/// Memory: one compact `Event` per new event plus the interned strings.
package struct LedgerBuilder {
  /// The file name used in diagnostics.
  package let file: String
  private var parser: EventLineParser
  private var context: FoldContext
  private var symbols: LedgerSymbols
  private var events: [Event] = []
  /// Per id symbol: the event's index (`baseFlag` set: in `base`), or `UInt32.max` if none.
  private var eventIndexByID: [UInt32] = []
  /// A restored ledger this builder extends with a log's tail (snapshot restore).
  private var base: Ledger? = nil
  private static let baseFlag: UInt32 = 1 << 31
  private var chargeLineByTransaction: [UInt32] = []
  /// The decide step, with buffers reused across subjects.
  private var rules = SubjectRules()
  /// Resolution of subscription numbers and refund targets, with buffers reused across subjects.
  private var resolver: Resolver
  /// Errors found so far, in line order (at most `Limits.diagnosticsShownMax` kept).
  package private(set) var errors: [Diagnostic] = []
  /// How many errors were found, including those not kept.
  package private(set) var errorCount = 0
  /// Warnings (torn line, events that change nothing).
  package private(set) var warnings: [Diagnostic] = []
  /// Lines read, including empty and duplicate lines.
  package private(set) var linesRead = 0
  /// Redeliveries skipped.
  package private(set) var duplicatesSkipped = 0
  /// Only this shard's subjects are kept (Log/Shard.swift); lines of others are parsed and dropped.
  package var shard: Shard? = nil

  /// Starts an empty ledger for a catalog.
  package init(catalog: Catalog, file: String) {
    self.file = file
    var symbols = LedgerSymbols()
    context = FoldContext(catalog: catalog, symbols: &symbols)
    self.symbols = symbols
    parser = EventLineParser(catalog: catalog)
    resolver = Resolver(catalog: catalog)
  }

  /// Continues a restored ledger: lines added next are the log's tail after the snapshot.
  /// - Complexity: O(events of the base).
  package init(restoring base: Ledger, file: String) {
    self.file = file
    context = base.context
    symbols = base.symbols
    parser = EventLineParser(catalog: base.catalog)
    resolver = Resolver(catalog: base.catalog)
    linesRead = base.linesRead
    duplicatesSkipped = base.duplicatesSkipped
    eventIndexByID = [UInt32](repeating: UInt32.max, count: base.symbols.ids.count)
    chargeLineByTransaction = [UInt32](repeating: 0, count: base.symbols.transactions.count)
    for (index, event) in base.events.enumerated() {
      eventIndexByID[Int(event.id.rawValue)] = UInt32(index) | Self.baseFlag
      if event.kind == .purchase || event.kind == .renewal {
        chargeLineByTransaction[Int(event.transaction.rawValue)] = event.line
      }
    }
    self.base = base
  }

  /// The catalog events are checked against.
  package var catalog: Catalog { context.catalog }

  /// The number of distinct events so far.
  package var eventCount: Int { events.count + (base?.events.count ?? 0) }

  private func event(at index: UInt32) -> Event {
    index & Self.baseFlag != 0 ? base!.events[Int(index & ~Self.baseFlag)] : events[Int(index)]
  }

  /// Reserves room for about `events` events, so loading a large log grows nothing by copying.
  ///
  /// Arrays are reserved generously (untouched capacity costs address space, not memory);
  /// hash tables, whose slots are touched when created, more tightly.
  package mutating func reserve(events estimate: Int) {
    guard estimate > 0 else { return }
    events.reserveCapacity(estimate)
    eventIndexByID.reserveCapacity(estimate)
    chargeLineByTransaction.reserveCapacity(estimate)
    let tableEstimate = estimate / 2
    symbols.ids.reserve(count: tableEstimate, bytes: estimate * 24)
    symbols.transactions.reserve(count: tableEstimate, bytes: estimate * 24)
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
    linesRead += 1
    switch LineIntake.check(line, lineNumber: lineNumber) {
    case .empty: return .empty
    case .refused(var diagnostic):
      diagnostic.file = file
      record(diagnostic)
      return .rejected
    case .parse: break
    }
    switch parser.parse(line, lineNumber: lineNumber, symbols: &symbols) {
    case .failure(var diagnostic):
      diagnostic.file = file
      record(diagnostic)
      return .rejected
    case .success(let event):
      return admit(event)
    }
  }

  /// Adds a block of lines the reader thread parsed, prefetching table slots a few lines ahead.
  mutating func add(
    parsed lines: [ParsedLine], buffer: UnsafeBufferPointer<UInt8>, scratch: UnsafeBufferPointer<UInt8>
  ) {
    let distance = 6
    for index in lines.indices {
      if index + distance < lines.count, case .event(let ahead) = lines[index + distance] {
        symbols.ids.prefetch(hash: ahead.id.hash)
        if ahead.transaction.ref.isPresent { symbols.transactions.prefetch(hash: ahead.transaction.hash) }
        if ahead.originalTransaction.ref.isPresent {
          symbols.transactions.prefetch(hash: ahead.originalTransaction.hash)
        }
      }
      add(parsed: lines[index], buffer: buffer, scratch: scratch)
    }
  }

  /// Adds a line the reader thread parsed (see `PipelinedLogReader`).
  mutating func add(
    parsed: ParsedLine, buffer: UnsafeBufferPointer<UInt8>, scratch: UnsafeBufferPointer<UInt8>
  ) {
    linesRead += 1
    switch parsed {
    case .empty:
      return
    case .failure(var diagnostic):
      diagnostic.file = file
      record(diagnostic)
    case .event(let pending):
      if let shard, !pending.belongs(to: shard, buffer: buffer, scratch: scratch) { return }
      _ = admit(pending.interned(into: &symbols, buffer: buffer, scratch: scratch))
    }
  }

  /// Interns strings for events built outside the line parser (benchmark baselines, tests).
  package mutating func withSymbols<R>(_ body: (inout LedgerSymbols) -> R) -> R {
    body(&symbols)
  }

  /// Adds an event decoded by other means; it gets the same log-wide checks as a parsed line.
  ///
  /// The caller has validated the fields; its symbols must come from `withSymbols`.
  package mutating func add(event: Event) -> LineOutcome {
    linesRead += 1
    return admit(event)
  }

  private mutating func admit(_ event: Event) -> LineOutcome {
    let idIndex = Int(event.id.rawValue)
    if idIndex < eventIndexByID.count, eventIndexByID[idIndex] != UInt32.max {
      let first = self.event(at: eventIndexByID[idIndex])
      if event.isRedelivery(of: first) {
        duplicatesSkipped += 1
        return .duplicate(firstLine: Int(first.line))
      }
      record(
        Diagnostic(
          file: file, line: Int(event.line),
          .idConflict(id: symbols.ids.string(event.id), firstLine: Int(first.line))))
      return .rejected
    }
    if event.kind == .purchase || event.kind == .renewal {
      let txIndex = Int(event.transaction.rawValue)
      if txIndex >= chargeLineByTransaction.count {
        chargeLineByTransaction.append(
          contentsOf: repeatElement(0, count: txIndex + 1 - chargeLineByTransaction.count))
      }
      let firstLine = chargeLineByTransaction[txIndex]
      if firstLine != 0 {
        record(
          Diagnostic(
            file: file, line: Int(event.line),
            .transactionReused(
              transaction: symbols.transactions.string(event.transaction), firstLine: Int(firstLine))))
        // The id stays unclaimed so a later correct line with this id is not a conflict.
        return .rejected
      }
      chargeLineByTransaction[txIndex] = event.line
    }
    // Ids of rejected lines are interned too, so the table can run ahead of the events.
    if idIndex >= eventIndexByID.count {
      eventIndexByID.append(contentsOf: repeatElement(UInt32.max, count: idIndex + 1 - eventIndexByID.count))
    }
    eventIndexByID[idIndex] = UInt32(events.count)
    events.append(event)
    return .added
  }

  /// Groups, orders, resolves and validates; returns the ledger or every error found.
  /// - Complexity: O(n log k) for n events and at most k events per subject.
  package mutating func finish() -> Result<Ledger, DiagnosticList> {
    if errorCount > 0 { return .failure(DiagnosticList(errors + warnings)) }
    if let base { return finish(extending: base) }
    let subjectCount = symbols.subjects.count
    var starts = [Int](repeating: 0, count: subjectCount + 1)
    for event in events { starts[Int(event.subject.rawValue) + 1] += 1 }
    for s in 0..<subjectCount {
      checkSize(starts[s + 1], subject: s)
      starts[s + 1] += starts[s]
    }
    if errorCount > 0 { return .failure(DiagnosticList(errors + warnings)) }
    eventIndexByID = []
    chargeLineByTransaction = []
    var grouped = events
    events = []
    Self.groupBySubject(&grouped, starts: starts)
    var subscriptionCounts = [UInt32](repeating: 0, count: subjectCount)
    var latest = Timestamp.distantPast
    grouped.withUnsafeMutableBufferPointer { all in
      for s in 0..<subjectCount {
        let range = starts[s]..<starts[s + 1]
        subscriptionCounts[s] = settle(UnsafeMutableBufferPointer(rebasing: all[range]), latest: &latest)
      }
    }
    if errorCount > 0 { return .failure(DiagnosticList(errors + warnings)) }
    warnings.sort { ($0.line ?? 0) < ($1.line ?? 0) }
    return .success(
      Ledger(
        context: context, symbols: symbols, events: grouped, subjectStarts: starts.map { UInt32($0) },
        subscriptionCounts: subscriptionCounts, linesRead: linesRead,
        duplicatesSkipped: duplicatesSkipped, latestEffective: latest, warnings: warnings))
  }

  /// Merges the tail into a restored ledger: only subjects the tail touches are re-folded.
  private mutating func finish(extending base: Ledger) -> Result<Ledger, DiagnosticList> {
    let baseWarnings = base.warnings
    guard !events.isEmpty else {
      return .success(
        Ledger(
          context: context, symbols: symbols, events: base.events, subjectStarts: base.subjectStarts,
          subscriptionCounts: base.subscriptionCounts, linesRead: linesRead,
          duplicatesSkipped: duplicatesSkipped, latestEffective: base.latestEffective,
          warnings: baseWarnings + warnings))
    }
    let subjectCount = symbols.subjects.count
    var tailStarts = [Int](repeating: 0, count: subjectCount + 1)
    for event in events { tailStarts[Int(event.subject.rawValue) + 1] += 1 }
    for s in 0..<subjectCount { tailStarts[s + 1] += tailStarts[s] }
    var tail = events
    events = []
    Self.groupBySubject(&tail, starts: tailStarts)
    var merged: [Event] = []
    merged.reserveCapacity(base.events.count + tail.count)
    var starts: [UInt32] = [0]
    starts.reserveCapacity(subjectCount + 1)
    var subscriptionCounts = [UInt32](repeating: 0, count: subjectCount)
    var latest = base.latestEffective
    for s in 0..<subjectCount {
      let baseRange: Range<Int> =
        s < base.subjectCount ? Int(base.subjectStarts[s])..<Int(base.subjectStarts[s + 1]) : 0..<0
      let tailRange = tailStarts[s]..<tailStarts[s + 1]
      let begin = merged.count
      merged.append(contentsOf: base.events[baseRange])
      if tailRange.isEmpty {
        subscriptionCounts[s] = s < base.subjectCount ? base.subscriptionCounts[s] : 0
      } else {
        merged.append(contentsOf: tail[tailRange])
        checkSize(merged.count - begin, subject: s)
        merged.withUnsafeMutableBufferPointer { all in
          subscriptionCounts[s] = settle(UnsafeMutableBufferPointer(rebasing: all[begin..<all.count]), latest: &latest)
        }
      }
      starts.append(UInt32(merged.count))
    }
    if errorCount > 0 { return .failure(DiagnosticList(errors + warnings)) }
    warnings.sort { ($0.line ?? 0) < ($1.line ?? 0) }
    return .success(
      Ledger(
        context: context, symbols: symbols, events: merged, subjectStarts: starts,
        subscriptionCounts: subscriptionCounts, linesRead: linesRead,
        duplicatesSkipped: duplicatesSkipped, latestEffective: latest, warnings: baseWarnings + warnings))
  }

  /// Reorders `events` in place so each subject's events are contiguous (counting sort).
  private static func groupBySubject(_ events: inout [Event], starts: [Int]) {
    var next = starts
    var destination = [UInt32](repeating: 0, count: events.count)
    for (index, event) in events.enumerated() {
      let s = Int(event.subject.rawValue)
      destination[index] = UInt32(next[s])
      next[s] += 1
    }
    // Follow permutation cycles so only one extra 4-byte index per event is needed.
    events.withUnsafeMutableBufferPointer { all in
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
  private mutating func settle(_ subjectEvents: UnsafeMutableBufferPointer<Event>, latest: inout Timestamp) -> UInt32 {
    var subjectEvents = subjectEvents
    subjectEvents.sort(by: Event.effectiveOrder)
    let subscriptionCount = resolver.resolve(subjectEvents)
    if let last = subjectEvents.last, last.at > latest { latest = last.at }
    validate(subjectEvents, subscriptionCount: Int(subscriptionCount))
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

  /// Decides one subject's log-wide rules and records what they find, worded with this log's strings.
  private mutating func validate(_ subjectEvents: UnsafeMutableBufferPointer<Event>, subscriptionCount: Int) {
    var findings: [(Event, RuleFinding)] = []
    rules.decide(subjectEvents, subscriptionCount: subscriptionCount, context: context) { findings.append(($0, $1)) }
    for (event, finding) in findings {
      switch finding {
      case .overdraw(let currency, let balance, let quantity):
        record(
          Diagnostic(
            file: file, line: Int(event.line),
            .overdraw(currency: symbols.currencies.string(currency), balance: balance, quantity: quantity)))
      case .unknownReference(let field, let value):
        record(
          Diagnostic(
            file: file, line: Int(event.line),
            .unknownReference(field: field.name, value: symbols.transactions.string(value)), severity: .warning))
      }
    }
  }
}
