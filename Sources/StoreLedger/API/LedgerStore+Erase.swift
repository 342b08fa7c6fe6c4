import StoreLedgerCore
import StoreLedgerStorage

extension LedgerStore {
  /// Erases `subjects` from the log at `logPath` (CONTRACT §12, Docs/erasure.md): their lines
  /// stay under fresh random pseudonyms, without `meta`; their store tokens are replaced in the
  /// log and their kept Google Play documents removed; an index beside the log is removed; later
  /// imports of their store data add nothing. Every other answer and report total is unchanged.
  /// Takes the log's writer lock (waiting at most 10 seconds) and switches to the new files all
  /// at once. A `LedgerStore` open on the log (this process's or another's) answers from the old
  /// file until its next `refresh` or `append`, which sees the new file and reads it whole.
  /// - Throws: `unknown_subject` for a subject no line names (nothing is erased then), and
  ///   every problem that stops a writer (`DiagnosticList`); the log is then unchanged.
  /// - Complexity: O(log + kept documents), a byte search per subject and token.
  public static func erase(_ subjects: [SubjectID], logPath: String, clock: LedgerClock = .system)
    throws(DiagnosticList) -> ErasureReport
  {
    try LedgerErasure.run(logPath: logPath, subjects: subjects.map(\.rawValue), now: clock.now())
  }
}
