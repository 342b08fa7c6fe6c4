import Dispatch
import StoreLedgerCore

extension LedgerStore {
  /// An append that waits to be written with the appends of other threads (`groupsCommits`):
  /// its batch is decided on its own and is durable when this returns, as with one append.
  /// - Throws: every problem of its own batch, or of the group's write (then nothing was written).
  /// - Complexity: as `append(_:)`, plus the wait for the group written before it.
  func appendInGroup(_ batch: AppendBatch, named inputName: String, now: Timestamp?) throws(DiagnosticList) -> AppendReport {
    let mine = CommitGroups.Waiting(LogAppender.GroupMember(batch: batch, inputName: inputName, now: now))
    if !commitGroups.enqueue(mine) {
      mine.done.wait()
      if let result = mine.result { return try result.get() }
    }
    // This caller leads: its own batch is the first of the group.
    let group = commitGroups.takeGroup()
    precondition(group.first === mine, "the leader of a commit group is the first waiting")
    let results = commitGroup(group.map(\.member))
    for (waiting, result) in zip(group, results).dropFirst() {
      waiting.result = result
      waiting.done.signal()
    }
    commitGroups.handOff()
    return try results[0].get()
  }

  /// Writes a group under the appender: one lock, one write, one fsync; a result per member.
  private func commitGroup(_ members: [LogAppender.GroupMember]) -> [Result<AppendReport, DiagnosticList>] {
    appending.wait()
    defer { appending.signal() }
    let linesBefore = state.logLines
    do throws(DiagnosticList) {
      let group = try LogAppender.appendGroup(
        members, logPath: logPath, catalog: catalog, wait: lockWait,
        prepare: { (log, size, batches) throws(DiagnosticList) in
          try state.builder(forAppending: batches, log: log, size: size, catalog: catalog, logPath: logPath)
        },
        afterCommit: { log, committed, written in
          IndexBuild.afterAppend(log: log, logPath: logPath, committed: committed, catalog: catalog, written: written)
        })
      if let outcome = group.outcome {
        if outcome.logLines > linesBefore { commitGroups.countWrite() }
        committed(outcome, linesBefore: linesBefore)
      }
      return group.results
    } catch {
      return members.map { _ in .failure(error) }
    }
  }
}
