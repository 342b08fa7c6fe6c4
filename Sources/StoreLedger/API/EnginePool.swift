import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage
import Dispatch

/// Idle query engines, at most `limit` (one per thread that answered at once, bounded).
final class EnginePool: @unchecked Sendable {
  private let lock = DispatchSemaphore(value: 1)
  // Guarded by `lock`.
  private var idle: [QueryEngine] = []
  private let limit = 64

  /// An idle engine, if any.
  func take() -> QueryEngine? {
    lock.wait()
    defer { lock.signal() }
    return idle.popLast()
  }

  /// Returns an engine for reuse (dropped when `limit` are idle).
  func give(_ engine: QueryEngine) {
    lock.wait()
    defer { lock.signal() }
    if idle.count < limit { idle.append(engine) }
  }

  /// Drops every idle engine.
  func removeAll() {
    lock.wait()
    defer { lock.signal() }
    idle.removeAll()
  }
}
