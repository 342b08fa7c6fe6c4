import StoreLedgerCore
import StoreLedgerStorage

/// What opening a log with `LedgerStore(logPath:)` will cost, estimated from its size before it is
/// read, and whether the indexed calls that read one subject can be used instead (Docs/library.md,
/// "Large logs: what opening costs").
///
/// The estimate is linear in the log's bytes, at the rates measured on the release build
/// (`memoryBytesPerLogByte`, `logBytesPerSecond`); a slower disk or a loaded machine takes longer.
public struct OpeningCost: Sendable, Hashable {
  /// Resident memory per byte of log after opening it (measured: see Docs/library.md).
  package static let memoryBytesPerLogByte = 0.8
  /// Bytes of log read, checked and folded per second on one core of the measuring machine.
  package static let logBytesPerSecond = 70_000_000.0

  /// The log's size in bytes.
  public var logBytes: Int64
  /// Whether an index is beside the log (`storeledger index`): then `LedgerStore.answer(logPath:…)`
  /// and `LedgerStore.can(logPath:…)` read only the subject's lines.
  public var hasIndex: Bool
  /// About how much memory the open ledger holds.
  public var estimatedMemoryBytes: Int64
  /// About how long opening takes.
  public var estimatedSeconds: Double
}

extension LedgerStore {
  /// What opening the log at `logPath` would cost, from its size alone: nothing of it is read.
  /// - Throws: `file_not_found` or `cannot_read` when the log cannot be opened.
  public static func openingCost(logPath: String) throws(DiagnosticList) -> OpeningCost {
    guard PlatformFile.exists(logPath) else { throw DiagnosticList([Diagnostic(.fileNotFound(path: logPath))]) }
    let bytes: Int64
    do {
      bytes = try PlatformFile(path: logPath, mode: .read).size()
    } catch {
      throw DiagnosticList([error])
    }
    return OpeningCost(
      logBytes: bytes, hasIndex: PlatformFile.entryKind(LogIndex.directory(forLog: logPath)) == .directory,
      estimatedMemoryBytes: Int64(Double(bytes) * OpeningCost.memoryBytesPerLogByte),
      estimatedSeconds: Double(bytes) / OpeningCost.logBytesPerSecond)
  }
}
