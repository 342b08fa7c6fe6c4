import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage

/// What an erasure did (`storeledger erase`, `LedgerStore.erase`).
public struct ErasureReport: Sendable, Equatable {
  /// The pseudonyms the erased subjects' lines now carry, sorted (never the subjects).
  public var pseudonyms: [String]
  /// Lines of the erased subjects, rewritten under their pseudonyms.
  public var erasedLines: Int
  /// Lines changed in all: the erased subjects' and any other that named one of them or their tokens.
  public var changedLines: Int
  /// Store tokens of the erased subjects that were replaced or removed.
  public var tokens: Int
  /// Kept Google Play documents removed (those of an erased subject's purchase tokens).
  public var documentsRemoved: Int
  /// Whether an index beside the log was removed (it is rebuilt with `storeledger index`).
  public var indexRemoved: Bool
  /// Snapshot files beside the log that covered a changed line: restoring them is refused.
  public var staleSnapshots: [String]
}

/// An erasure (CONTRACT §12, Docs/erasure.md): under the import lock and the log's writer lock,
/// every file kept for the log is written anew without the erased subjects, their `meta` and
/// their store tokens, and switched to all at once (`EraseJournal`).
package enum LedgerErasure {
  /// Erases `subjects` from the log at `logPath`; `now` dates the erasure record.
  /// - Throws: `unknownSubject` (66) for a subject no line names (already erased, or a typo),
  ///   `tornLineBlocksAppend` (65), damaged kept documents (65), `lockBusy` (75), `cannotWrite` (74).
  /// - Complexity: O(log + kept documents) in bytes, times the number of subjects and tokens
  ///   searched for; only the lines that hold one of them are parsed.
  package static func run(
    logPath: String, subjects: [String], now: Timestamp, names: ErasureNames = .system,
    wait: LogLock.Wait = .standard, waitNotice: ((String) -> Void)? = nil
  ) throws(DiagnosticList) -> ErasureReport {
    guard !subjects.isEmpty else { throw DiagnosticList([Diagnostic(.usage("Give at least one subject to erase."))]) }
    return try DiagnosticList.collecting(path: logPath, writing: true) {
      guard PlatformFile.exists(logPath) else { throw Diagnostic(.fileNotFound(path: logPath)) }
      let (report, oldLog, firstChange) = try GooglePlayDocumentFile.whileLocked(log: logPath, wait: wait, notice: waitNotice) {
        try LogAppender.withLockedLog(logPath: logPath, command: "erase", wait: wait, waitNotice: waitNotice) { log in
          try eraseLocked(log, logPath: logPath, subjects: subjects, now: now, names: names)
        }
      }
      var finished = report
      finished.staleSnapshots = SnapshotStaleness.stale(besideLog: PlatformFile.canonicalPath(logPath), oldLog: oldLog, firstChange: firstChange)
      return finished
    }
  }

  /// The erasure under both locks: read and check everything, write the new set, switch.
  private static func eraseLocked(
    _ log: borrowing PlatformFile, logPath: String, subjects: [String], now: Timestamp, names: ErasureNames
  ) throws -> (ErasureReport, [UInt8], Int?) {
    _ = try AppendIntent.recover(log, logPath: logPath)
    let size = try log.size()
    if case .torn = try LogReader.ending(of: log, size: size) { throw Diagnostic(file: logPath, .tornLineBlocksAppend) }
    let old = try log.readBytes(count: Int(size), at: 0)
    let kept = try GooglePlayDocumentFile.read(log: logPath)
    var names = names
    var registry = try ErasureRegistry.read(log: logPath) ?? .fresh(&names)
    var rewrite = ErasureRewrite(subjects: subjects, random: names)
    let counts = rewrite.learnTokens(fromLog: old)
    if let missing = subjects.first(where: { counts[$0] == nil }) {
      throw Diagnostic(file: logPath, .unknownSubject(NearMatch.Hint(name: missing, suggestions: [])))
    }
    kept.learnTokens(into: &rewrite)
    rewrite.finishLearning(fromLog: old)
    let newLog = rewrite.rewrite(old)
    let documents = kept.erased(by: rewrite, newLog: newLog.bytes)
    for subject in Set(subjects).sorted(by: { rewrite.pseudonyms[$0]! < rewrite.pseudonyms[$1]! }) {
      registry.erasures.append(.init(erasedAt: now, pseudonym: rewrite.pseudonyms[subject]!, lines: counts[subject]!))
      registry.marks.insert(registry.mark(subject))
    }
    for token in rewrite.tokens { registry.marks.insert(registry.mark(token)) }
    let canonical = PlatformFile.canonicalPath(logPath)
    var staged = Staged()
    if let documents {
      try staged.stage(documents.documents, over: GooglePlayDocumentFile.path(log: logPath))
      try staged.stage(documents.record, over: GooglePlayDocumentFile.recordPath(log: logPath))
    }
    try staged.stage(registry.encoded(), over: ErasureRegistry.path(log: logPath))
    if PlatformFile.entryKind(canonical + ".torn") == .regular {
      try staged.stage(rewrite.replacingFragments(in: try LedgerLoader.readFile(canonical + ".torn")), over: canonical + ".torn")
    }
    // The log last: once readers see it, everything beside it is new too.
    try staged.stage(newLog.bytes, over: canonical)
    let indexes = Array(Set([LogIndex.directory(forLog: canonical), LogIndex.directory(forLog: logPath)]))
      .filter { PlatformFile.entryKind($0) == .directory }.sorted()
    try staged.commit(EraseJournal.Plan(renames: staged.renames, removals: indexes), logPath: logPath)
    let report = ErasureReport(
      pseudonyms: subjects.compactMap { rewrite.pseudonyms[$0] }.sorted(), erasedLines: newLog.erasedLines,
      changedLines: newLog.changedLines, tokens: rewrite.tokens.count, documentsRemoved: documents?.dropped ?? 0,
      indexRemoved: !indexes.isEmpty, staleSnapshots: [])
    return (report, old, newLog.firstChange)
  }

  /// The new files written whole beside their targets, not yet switched to; removed when the
  /// erasure fails before its journal is committed.
  private struct Staged {
    /// Each temporary and its target, in the order they are switched.
    var renames: [(temporary: String, target: String)] = []

    /// Writes `bytes` to `TARGET.erase-new` and fsyncs it.
    mutating func stage(_ bytes: [UInt8], over target: String) throws(Diagnostic) {
      let temporary = target + EraseJournal.temporarySuffix
      do throws(Diagnostic) {
        let file = try PlatformFile(path: temporary, mode: .createExclusive)
        renames.append((temporary, target))
        try file.write(bytes)
        try file.sync()
      } catch {
        discard()
        throw error
      }
    }

    /// Commits the switch; a failure before the journal is in place leaves the old set alone,
    /// one after it leaves a journal that the next writer or `repair` carries out.
    func commit(_ plan: EraseJournal.Plan, logPath: String) throws(Diagnostic) {
      do throws(Diagnostic) {
        try EraseJournal.commit(plan, logPath: logPath)
      } catch {
        guard PlatformFile.entryKind(EraseJournal.path(forLog: logPath)) == .missing else {
          throw Diagnostic(
            .cannotWrite(
              path: logPath,
              reason: error.message + "; the erasure is committed and 'storeledger repair' (or the next append) finishes it"))
        }
        discard()
        throw error
      }
    }

    /// Removes the temporaries (best effort: `EraseJournal.recover` removes what is left).
    func discard() {
      for (temporary, _) in renames { try? PlatformFile.remove(temporary) }
      if let log = renames.last?.target { try? PlatformFile.remove(EraseJournal.path(forLog: log) + EraseJournal.temporarySuffix) }
    }
  }
}
