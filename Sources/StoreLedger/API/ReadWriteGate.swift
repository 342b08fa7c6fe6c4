import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage
import Dispatch

/// Many readers or one writer, writers not starved (the turnstile lets a waiting writer in first).
///
/// `LedgerStore` needs it so that an append can extend its arrays in place: while a
/// query runs it holds a reference to them, and a write then would copy the whole ledger.
final class ReadWriteGate: @unchecked Sendable {
  private let turnstile = DispatchSemaphore(value: 1)
  private let readersLock = DispatchSemaphore(value: 1)
  private let writeLock = DispatchSemaphore(value: 1)
  // Guarded by `readersLock`.
  private var readers = 0

  /// Runs `body` alongside other readers, never alongside a writer.
  func read<R>(_ body: () -> R) -> R {
    turnstile.wait()
    turnstile.signal()
    readersLock.wait()
    readers += 1
    if readers == 1 { writeLock.wait() }
    readersLock.signal()
    defer {
      readersLock.wait()
      readers -= 1
      if readers == 0 { writeLock.signal() }
      readersLock.signal()
    }
    return body()
  }

  /// Runs `body` alone.
  func write<R>(_ body: () -> R) -> R {
    turnstile.wait()
    writeLock.wait()
    turnstile.signal()
    defer { writeLock.signal() }
    return body()
  }
}
