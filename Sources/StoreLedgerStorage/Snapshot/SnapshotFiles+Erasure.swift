import StoreLedgerCore

extension SnapshotFiles {
  /// Why the snapshot at `snapshotPath` no longer matches the log when an erasure done after
  /// the snapshot was written rewrote the log (Docs/erasure.md), and what to do; nil when no
  /// erasure is that recent (the log was then changed some other way).
  ///
  /// The snapshot's own time is its file's modification time: a copy made later (`cp`) looks
  /// newer than the erasure and gets the general message with `erasureHint`.
  static func staleByErasure(snapshotPath: String, logPath: String) -> String? {
    guard let registry = try? ErasureRegistry.read(log: logPath), let written = PlatformFile.modificationTime(snapshotPath),
      let erasure = registry.erasures.first(where: { $0.erasedAt >= written })
    else { return nil }
    let later = registry.erasures.filter { $0.erasedAt >= written }.count
    return "snapshot \(snapshotPath) is stale: the log was rewritten by 'erase' on \(AnswerWords.instant(erasure.erasedAt))"
      + (later > 1 ? " (and \(Plural.counted(later - 1, "later erasure")))" : "")
      + ", after this snapshot was written on \(AnswerWords.instant(written)), so the lines it covers are no longer the log's "
      + "(\(ErasureRegistry.path(log: logPath)) keeps the erasure record); make a new snapshot with "
      + "'storeledger snapshot \(logPath) --out \(snapshotPath)'"
  }

  /// Why a log no longer matches its snapshots when an erasure rewrote it (Docs/erasure.md), and
  /// what to do; empty when the log has had none.
  static func erasureHint(logPath: String) -> String {
    guard let registry = try? ErasureRegistry.read(log: logPath), let last = registry.erasures.last else { return "" }
    return "; an erasure rewrote the log on \(AnswerWords.instant(last.erasedAt)) (\(ErasureRegistry.path(log: logPath))), "
      + "which makes every older snapshot stale: make a new one with 'storeledger snapshot'"
  }
}
