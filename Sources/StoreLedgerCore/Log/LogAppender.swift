/// The outcome of an append.
public struct AppendReport: Sendable, Equatable {
  /// New events written.
  public var appended: Int
  /// Input events that were already in the log (or earlier in the batch): skipped.
  public var duplicates: Int
  /// Events stamped with `recorded` because they had none.
  public var stamped: Int
  /// Redeliveries written because they tell of a known event earlier than the log had it
  /// (an earlier `recorded`): the event now counts from that time in as-of answers.
  public var learnedEarlier: Int = 0
  /// Lines the append wrote: new events and redeliveries that tell of an event earlier.
  public var linesWritten: Int { appended + learnedEarlier }
  /// Warnings about the new events (a revocation of a transaction the log does not hold...).
  public var warnings: [Diagnostic] = []
}

/// Appends events to a log: all or nothing, durably, one appender at a time.
///
/// Under an exclusive `flock` on the log it first rolls back a batch an earlier appender
/// left unfinished (`AppendIntent`), reloads the log as it stands, validates the batch
/// against it (conflicts, overdraw, unknown products, every field), stamps `recorded`
/// where absent, and writes the whole batch between an fsynced intent record and its
/// removal. On a failed write the log is truncated back to its previous length; after a
/// crash the intent record has the next appender, `repair` and readers roll it back.
/// Re-appending the same events is a no-op.
package enum LogAppender {
  /// What an append leaves behind for an open `LedgerStore`.
  package struct Outcome {
    /// What was appended.
    package var report: AppendReport
    /// The builder's result: every subject `prepare` fed, with the batch.
    package var ledger: Ledger
    /// The log's length and line count afterwards.
    package var logBytes: Int64
    /// Complete lines in the log afterwards.
    package var logLines: Int
    /// The lines written and the events they were encoded from.
    package var written = WrittenLines()
  }

  /// How often a writer opens the log again when an erasure replaced it while it waited.
  package static let reopenAttemptsMax = 8

  /// Opens the log for writing under its exclusive lock, with an interrupted erasure finished
  /// or undone (`EraseJournal`).
  ///
  /// Refuses a log with several names (hard links): its recovery record would not be found
  /// through the others. `body` runs under the lock; the holder record goes before the lock.
  /// An erasure replaces the log by a rename: a writer that waited for the lock on the old
  /// file opens the name again, so nothing is ever written to a file that is no longer the log.
  /// A log this call created to take its lock is removed again when `body` fails and leaves it
  /// empty, so a refused first append leaves no file behind (a writer queued on that lock finds
  /// the name gone and opens it again, as after an erasure).
  package static func withLockedLog<R>(
    logPath: String, command: String, wait: LogLock.Wait, waitNotice: ((String) -> Void)?,
    _ body: (borrowing PlatformFile) throws -> R
  ) throws -> R {
    for _ in 0..<reopenAttemptsMax {
      var created = false
      let log = try PlatformFile(readWriteCreating: logPath, created: &created)
      let links = try log.identityAndLinks().links
      guard links <= 1 else { throw Diagnostic(file: logPath, .logHasSeveralNames(links: links)) }
      try LogLock.acquire(log, logPath: logPath, command: command, wait: wait, notice: waitNotice)
      defer { LogLock.release(log, logPath: logPath) }
      guard log.identity() == PlatformFile.identity(logPath) else { continue }
      if try EraseJournal.recover(logPath: logPath), log.identity() != PlatformFile.identity(logPath) { continue }
      do {
        return try body(log)
      } catch {
        if created { removeIfStillEmpty(log, logPath: logPath) }
        throw error
      }
    }
    throw Diagnostic(.cannotWrite(path: logPath, reason: "the log was replaced \(reopenAttemptsMax) times while its lock was taken"))
  }

  /// Under the lock: removes the log at `logPath` if it is still `log`, empty, and without an
  /// intent record (one left by a failed rollback must keep describing its log).
  private static func removeIfStillEmpty(_ log: borrowing PlatformFile, logPath: String) {
    guard (try? log.size()) == 0, log.identity() == PlatformFile.identity(logPath),
      PlatformFile.entryKind(AppendIntent.path(forLog: logPath)) == .missing
    else { return }
    // Best effort: an empty log left behind is what happened before this removal existed.
    try? PlatformFile.remove(logPath)
  }

  /// Appends `batch` (named `inputName` in messages) to the log at `logPath`, validating it
  /// against the builder `prepare` returns.
  ///
  /// `prepare` runs under the lock with the log's current size and returns a builder holding
  /// whatever the batch must be checked against, and the number of lines already in the log.
  /// `afterCommit` runs under the lock once a batch is committed, with the log's new length and
  /// the lines written, and returns warnings for the report (the index beside the log is brought
  /// up to date there: `Index/` builds on the log, never the other way round).
  /// - Parameter now: the knowledge time stamped on events without `recorded`; nil stamps
  ///   nothing (importers whose events carry their own knowledge time).
  package static func append(
    _ batch: AppendBatch, inputName: String, logPath: String, catalog: Catalog, now: Timestamp?,
    wait: LogLock.Wait = .standard, waitNotice: ((String) -> Void)? = nil,
    prepare: (_ log: borrowing PlatformFile, _ size: Int64) throws(DiagnosticList) -> (LedgerBuilder, Int),
    afterCommit: (_ log: borrowing PlatformFile, _ committed: Int64, _ written: WrittenLines) -> [Diagnostic]
  ) throws(DiagnosticList) -> Outcome {
    try DiagnosticList.collecting(path: logPath, writing: true) {
      try withLockedLog(logPath: logPath, command: "append", wait: wait, waitNotice: waitNotice) { log in
        let (size, missingNewline) = try writableEnd(of: log, logPath: logPath, catalog: catalog)
        let (builder, existingLines) = try prepare(log, size)
        var (output, outcome) = try admit(
          batch, inputName: inputName, logPath: logPath, now: now, into: builder, existingLines: existingLines,
          logBytes: size)
        // An id compared against a span the log no longer holds was not really compared.
        if let failure = outcome.ledger.symbols.readFailure { throw DiagnosticList([failure]) }
        guard !output.isEmpty else { return outcome }
        // A last line saved without its newline gets one first, inside the same all-or-nothing batch.
        if missingNewline { output.insert(10, at: 0) }
        try write(output, to: log, logPath: logPath, committed: size)
        outcome.logBytes = size + Int64(output.count)
        outcome.logLines = existingLines + outcome.report.linesWritten
        outcome.written.logOffset = size + (missingNewline ? 1 : 0)
        outcome.report.warnings += afterCommit(log, outcome.logBytes, outcome.written)
        return outcome
      }
    }
  }

  /// Under the lock: rolls back an unfinished batch and returns where the next batch goes, and
  /// whether the last line lacks its newline.
  /// - Throws: `tornLineBlocksAppend` (or what the file's start says it is) for a torn last line.
  static func writableEnd(of log: borrowing PlatformFile, logPath: String, catalog: Catalog) throws -> (Int64, Bool) {
    _ = try AppendIntent.recover(log, logPath: logPath)
    let size = try log.size()
    let ending = try LogReader.ending(of: log, size: size)
    if case .torn = ending {
      let foreign = try JSONLinesSniffer.judgeStart(of: log, name: logPath, size: size, catalog: catalog)
      throw DiagnosticList([foreign ?? Diagnostic(file: logPath, .tornLineBlocksAppend)])
    }
    return (size, ending == .missingNewline)
  }

  /// Checks `batch` against `builder` (holding what the log holds, `existingLines` lines):
  /// stamps `recorded` with `now` where absent, admits each line, and returns the lines to
  /// write (duplicates left out) and what the append will leave behind. No file is touched.
  /// - Complexity: O(batch + the builder's finish).
  package static func admit(
    _ batch: AppendBatch, inputName: String, logPath: String, now: Timestamp?,
    into builder: consuming LedgerBuilder, existingLines: Int, logBytes: Int64
  ) throws(DiagnosticList) -> (batch: [UInt8], outcome: Outcome) {
    let admitted = try admit(
      [Segment(batch: batch, now: now)], inputName: inputName, ownLinesFrom: 1, logPath: logPath, into: builder,
      existingLines: existingLines, logBytes: logBytes)
    return (admitted.batch, admitted.outcome)
  }

  /// One caller's lines in an admission (a group commit admits several), with the time stamped
  /// on its lines.
  package struct Segment: Sendable {
    /// The caller's lines, each parsed once.
    package var batch: AppendBatch
    /// The knowledge time stamped on its events without `recorded`; nil stamps nothing.
    package var now: Timestamp?
    /// `batch`'s lines stamped with `now`.
    package init(batch: AppendBatch, now: Timestamp?) {
      self.batch = batch
      self.now = now
    }
  }

  /// What `admit` found: the lines to write, the outcome, and the counts of each segment
  /// (warnings stay in `outcome.report`, by input line).
  package struct Admitted {
    /// The lines to write, duplicates left out.
    package var batch: [UInt8]
    /// What the append leaves behind; its report counts every segment.
    package var outcome: Outcome
    /// Appended, duplicate, stamped and learned-earlier counts of each segment, without warnings.
    package var reports: [AppendReport]
  }

  /// `admit` over `segments`, each stamped with its own time and counted apart; their lines are
  /// numbered on from one segment to the next, as if their inputs were joined.
  ///
  /// Input lines before `ownLinesFrom` belong to callers admitted already: a diagnostic that
  /// points at one names the log line it takes, and diagnostics of the later lines are numbered
  /// from `ownLinesFrom`, so a caller whose lines come last reads its own line numbers.
  /// - Complexity: O(the segments' lines + the builder's finish).
  package static func admit(
    _ segments: [Segment], inputName: String, ownLinesFrom: Int, logPath: String,
    into builder: consuming LedgerBuilder, existingLines: Int, logBytes: Int64
  ) throws(DiagnosticList) -> Admitted {
    var builder = builder
    if builder.errorCount > 0 { throw DiagnosticList(builder.errors) }
    var output: [UInt8] = []
    var reports = [AppendReport](repeating: AppendReport(appended: 0, duplicates: 0, stamped: 0), count: segments.count)
    var places = BatchPlaces(
      inputName: inputName, logPath: logPath, existingLines: existingLines, ownLinesFrom: ownLinesFrom)
    var inputLine = 0
    var logLine = existingLines
    var inputErrors: [Diagnostic] = []
    var written = WrittenLines()
    written.batches = segments.map(\.batch)
    written.nows = segments.map(\.now)
    for (index, segment) in segments.enumerated() {
      for (lineIndex, line) in segment.batch.lines.enumerated() {
        inputLine += 1
        switch line {
        case .blank: continue
        case .failed(var diagnostic):
          diagnostic.file = inputName
          diagnostic.line = places.ownLine(inputLine)
          inputErrors.append(diagnostic)
        case .parsed(let parsed):
          // The line this one takes in the log if it is written: a skipped redelivery takes none, so
          // the next line gets its number (a rejected one keeps its own, for its diagnostic).
          logLine += 1
          places.note(logLine: logLine, inputLine: inputLine)
          let start = output.count
          let takesLine = admit(parsed, of: segment, lineNumber: logLine, into: &builder, output: &output, &reports[index])
          if !takesLine { logLine -= 1 }
          if output.count > start {
            written.lines.append(
              WrittenLines.Line(
                segment: Int32(index), index: Int32(lineIndex), length: Int32(output.count - start - 1), start: start))
          }
        }
      }
    }
    if !inputErrors.isEmpty || builder.errorCount > 0 {
      throw DiagnosticList(inputErrors + builder.errors.map(places.relocate))
    }
    var admitted = try finish(builder, output: output, reports: reports, places: places, logBytes: logBytes)
    admitted.outcome.written = written
    return admitted
  }

  /// Admits one parsed line as log line `lineNumber`: stamps `recorded` on its value, writes the
  /// line from that value (`AppendBatch.encode`), checks it as `LedgerBuilder.add(line:)` checks
  /// a line, and adds its event to the builder and the report. Returns false when it takes no
  /// line in the log (a skipped redelivery).
  private static func admit(
    _ parsed: AppendBatch.ParsedLine, of segment: Segment, lineNumber: Int, into builder: inout LedgerBuilder,
    output: inout [UInt8], _ report: inout AppendReport
  ) -> Bool {
    let batch = segment.batch
    // Knowledge time goes on the value before it is admitted, so the stored line is the one checked.
    let (event, isStamped) = batch.stamped(parsed, now: segment.now)
    let start = output.count
    batch.encode(parsed, as: event, into: &output)
    let outcome: LineOutcome
    if isStamped, !event.recorded.isReadable {
      // A clock outside the times a log can hold (only a caller's own clock can be): the parser
      // would refuse the stamped line when the log is read, so it is refused now.
      var diagnostic = Diagnostic(
        line: lineNumber,
        .invalidValue(
          field: "recorded", expected: TimeInput.rangeDescription,
          found: "the append's clock, \(event.recorded.millisecondsSinceEpoch) ms after 1970, stamped because the line has none"))
      diagnostic.file = builder.file
      builder.record(diagnostic)
      outcome = .rejected
    } else if case .refused(var diagnostic) = output[start...].withUnsafeBufferPointer({ LineIntake.check($0, lineNumber: lineNumber) }) {
      diagnostic.file = builder.file
      builder.record(diagnostic)
      outcome = .rejected
    } else {
      var (moved, details) = builder.withSymbols { batch.moved(event, details: parsed.details, into: &$0) }
      moved.line = UInt32(lineNumber)
      outcome = builder.add(event: moved, subject: moved.loadingSubject, details: details)
    }
    switch outcome {
    case .added:
      output.append(10)
      report.appended += 1
      if isStamped { report.stamped += 1 }
    case .learnedEarlier:
      output.append(10)
      report.learnedEarlier += 1
    case .duplicate:
      output.removeSubrange(start...)
      report.duplicates += 1
      return false
    case .empty:
      output.removeSubrange(start...)
      return false
    case .rejected:
      output.removeSubrange(start...)
    }
    return true
  }

  /// The builder's finish after every line was admitted: errors thrown, warnings of new lines kept.
  private static func finish(
    _ builder: consuming LedgerBuilder, output: [UInt8], reports: [AppendReport], places: BatchPlaces, logBytes: Int64
  ) throws(DiagnosticList) -> Admitted {
    var report = AppendReport(appended: 0, duplicates: 0, stamped: 0)
    for part in reports {
      report.appended += part.appended
      report.duplicates += part.duplicates
      report.stamped += part.stamped
      report.learnedEarlier += part.learnedEarlier
    }
    let ledger: Ledger
    switch builder.finish() {
    case .failure(let list):
      throw DiagnosticList(list.diagnostics.filter { $0.severity == .error }.map(places.relocate))
    case .success(let finished):
      ledger = finished
      report.warnings = finished.warnings.filter { ($0.line ?? 0) > places.existingLines }.map(places.relocate)
    }
    let outcome = Outcome(report: report, ledger: ledger, logBytes: logBytes, logLines: places.existingLines)
    return Admitted(batch: output, outcome: outcome, reports: reports)
  }

  /// Where a batch's lines are: batch lines are numbered in the input, log lines in the log; a
  /// message that points at another line says which file it is in.
  private struct BatchPlaces {
    let inputName: String
    let logPath: String
    /// Lines the log held before the batch.
    let existingLines: Int
    /// The first input line of the caller whose diagnostics these are (earlier ones are others').
    var ownLinesFrom = 1
    /// The caller's input line of each of its batch lines, by its line number in the log.
    var inputLineOf: [Int: Int] = [:]

    /// An input line numbered from the caller's first line.
    func ownLine(_ inputLine: Int) -> Int { inputLine >= ownLinesFrom ? inputLine - ownLinesFrom + 1 : inputLine }

    /// Notes where an admitted line is; lines of callers admitted before keep their log line.
    mutating func note(logLine: Int, inputLine: Int) {
      if inputLine >= ownLinesFrom { inputLineOf[logLine] = ownLine(inputLine) }
    }

    /// The file and line a log line number stands for.
    func place(_ line: Int) -> (file: String, line: Int) {
      if line > existingLines, let original = inputLineOf[line] { return (inputName, original) }
      return (logPath, line)
    }

    /// `diagnostic` pointing at its input line (and naming the file of a first line it refers to).
    func relocate(_ diagnostic: Diagnostic) -> Diagnostic {
      var moved = diagnostic
      if let line = diagnostic.line, line > existingLines, let original = inputLineOf[line] {
        moved.file = inputName
        moved.line = original
      }
      switch moved.problem {
      case .idConflict(let id, let firstLine, nil, let differing):
        let first = place(firstLine)
        moved.problem = .idConflict(id: id, firstLine: first.line, firstFile: first.file, differing: differing)
      case .transactionReused(let transaction, let firstLine, nil):
        let first = place(firstLine)
        moved.problem = .transactionReused(transaction: transaction, firstLine: first.line, firstFile: first.file)
      default: break
      }
      return moved
    }
  }

  /// Writes a validated batch all or nothing: intent record, batch, fsync, intent removed.
  ///
  /// A failure at any point leaves either the old log or (if only the record's removal
  /// failed durably) the old log plus the whole batch, never part of it: a failed write is
  /// cut back at once, and a crash leaves the record for the next appender, `repair` or
  /// reader to roll back.
  static func write(_ batch: [UInt8], to log: borrowing PlatformFile, logPath: String, committed: Int64)
    throws(Diagnostic)
  {
    try AppendIntent.begin(logPath: logPath, try AppendIntent.record(for: batch, log: log, committed: committed))
    do {
      try log.seek(to: committed)
      try log.write(batch)
      try log.sync()
      // A new log's directory entry must be durable before the batch counts as committed.
      if committed == 0 { try PlatformFile.syncDirectory(of: logPath) }
      try AppendIntent.commit(logPath: logPath)
    } catch {
      // Cut back whatever part of the batch reached the file; the record stays unless that worked.
      do throws(Diagnostic) {
        try log.truncate(to: committed)
        try log.sync()
        try AppendIntent.commit(logPath: logPath)
      } catch {}
      throw error
    }
  }

  /// Splits input on `\n`; a last line without `\n` counts (input is not a log).
  package static func forEachInputLine(_ input: [UInt8], _ body: (ArraySlice<UInt8>) -> Void) {
    var start = 0
    for index in input.indices where input[index] == 10 {
      body(input[start..<index])
      start = index + 1
    }
    if start < input.count { body(input[start...]) }
  }
}

/// Rolls back an interrupted append and moves a torn last line aside.
package enum LogRepair {
  /// What `repair` did.
  package struct Report: Sendable, Equatable {
    /// Bytes moved into `LOG.torn`.
    package var movedBytes: Int64
    /// The log's length afterwards.
    package var logBytes: Int64
    /// Bytes of an interrupted append's batch removed (its intent record was found).
    package var rolledBackBytes: Int64 = 0
  }

  /// Appends a torn last line to `LOG.torn` (never overwriting) and truncates the log to its last complete line.
  ///
  /// A last line that is complete but lacks its newline is not torn and stays. `LOG.torn` must be
  /// a regular file or absent: a symbolic link there is refused, never followed. With
  /// `discardIntent`, an intent record that does not describe the log is removed instead of refused.
  package static func repair(
    logPath: String, discardIntent: Bool = false, wait: LogLock.Wait = .standard, waitNotice: ((String) -> Void)? = nil
  ) throws(Diagnostic) -> Report {
    do {
      return try LogAppender.withLockedLog(logPath: logPath, command: "repair", wait: wait, waitNotice: waitNotice) {
        log throws(Diagnostic) in
        if discardIntent, case .foreign? = try intentVerdict(log, logPath: logPath) {
          try AppendIntent.commit(logPath: logPath)
        }
        let rolledBack = try AppendIntent.recover(log, logPath: logPath)
        let size = try log.size()
        guard case .torn(let tornLength, let completeLength) = try LogReader.ending(of: log, size: size) else {
          return Report(movedBytes: 0, logBytes: size, rolledBackBytes: rolledBack)
        }
        let torn = try log.readBytes(count: Int(tornLength), at: completeLength)
        let aside = try PlatformFile(path: logPath + ".torn", mode: .appendCreateRegular)
        try aside.write(torn + [10])
        try aside.sync()
        try PlatformFile.syncDirectory(of: logPath + ".torn")
        try log.truncate(to: completeLength)
        try log.sync()
        return Report(movedBytes: tornLength, logBytes: completeLength, rolledBackBytes: rolledBack)
      }
    } catch let diagnostic as Diagnostic {
      throw diagnostic
    } catch {
      throw Diagnostic(.cannotWrite(path: logPath, reason: "\(error)"))
    }
  }

  /// What the record beside the log says about it, if there is one that parses.
  private static func intentVerdict(_ log: borrowing PlatformFile, logPath: String) throws(Diagnostic) -> AppendIntent.Verdict? {
    guard let found = try AppendIntent.read(logPath: logPath), let record = found else { return nil }
    return try AppendIntent.verdict(record, log: log, size: try log.size())
  }
}
