import StoreLedgerCore

extension LogAppender {
  /// Appends the JSON lines in `input` (named `inputName` in messages) to the log at `logPath`,
  /// keeping the index beside it: the batch is checked against the subjects it involves (read
  /// through the index, else the whole log), and a usable index of `catalog` is extended after
  /// the commit (`IndexBuild.afterAppend`).
  /// - Parameter now: the knowledge time stamped on events without `recorded`; nil stamps
  ///   nothing (importers whose events carry their own knowledge time).
  /// - Complexity: O(batch + events of the subjects involved + unindexed tail) with a usable
  ///   index, else O(log).
  package static func append(
    input: [UInt8], inputName: String, logPath: String, catalog: Catalog, now: Timestamp?,
    wait: LogLock.Wait = .standard, waitNotice: ((String) -> Void)? = nil
  ) throws(DiagnosticList) -> AppendReport {
    // Each line is parsed here, once: the index's look-ups and the admission read the typed events.
    try append(
      AppendBatch(parsing: input, catalog: catalog), inputName: inputName, logPath: logPath, catalog: catalog,
      now: now, wait: wait, waitNotice: waitNotice, loaded: { _, _ in nil })
  }

  /// Appends `batch` as `append(input:…)` does; `loaded` may offer a builder already holding the
  /// log up to the committed size the lock found (an import that read the log before locking it),
  /// which the batch is then checked against instead of reading the log again.
  /// - Complexity: O(batch) with `loaded`'s builder; else as `append(input:…)`.
  package static func append(
    _ batch: AppendBatch, inputName: String, logPath: String, catalog: Catalog, now: Timestamp?,
    wait: LogLock.Wait, waitNotice: ((String) -> Void)?,
    loaded: (_ log: borrowing PlatformFile, _ size: Int64) -> (builder: LedgerBuilder, lines: Int)?
  ) throws(DiagnosticList) -> AppendReport {
    try append(
      batch, inputName: inputName, logPath: logPath, catalog: catalog, now: now, wait: wait, waitNotice: waitNotice,
      prepare: { (log, size) throws(DiagnosticList) in
        if let held = loaded(log, size) { return held }
        if let indexed = try IndexedLedger.appendBuilder(batch: batch, log: log, size: size, catalog: catalog, logPath: logPath) {
          return indexed
        }
        var builder = LedgerBuilder(catalog: catalog, file: logPath)
        let extent = try DiagnosticList.collecting(path: logPath) {
          try LedgerLoader.feed(&builder, path: logPath, endingAt: size)
        }
        return (builder, extent.lineCount)
      },
      afterCommit: { log, committed, written in
        IndexBuild.afterAppend(log: log, logPath: logPath, committed: committed, catalog: catalog, written: written)
      }
    ).report
  }
}
