import Dispatch
import StoreLedger
import Synchronization

/// One reader of a store's change stream (`commits(pollingInterval:)`), handed from the task
/// that reads the stream to the connection thread that writes Server-Sent Events.
///
/// The stream is subscribed when the feed is made, so no batch committed after that is
/// missed; the connection then catches up on what came before from the log itself.
final class ChangeFeed: @unchecked Sendable {
  /// Batches a connection may fall behind before its feed ends (the client resumes with `Last-Event-ID`).
  static let pendingMax = 1024

  /// What `next` found.
  enum Next {
    case batch(CommittedBatch)
    case timeout
    case ended(String)
  }

  private struct Pending {
    var batches: [CommittedBatch] = []
    var end: String? = nil
  }

  private let pending = Mutex(Pending())
  private let arrived = DispatchSemaphore(value: 0)
  private let reader = Mutex<Task<Void, Never>?>(nil)

  /// Subscribes to `store`'s commits, polling for other processes' lines every `pollingMilliseconds`.
  init(store: LedgerStore, pollingMilliseconds: Int) {
    let stream = store.commits(pollingInterval: .milliseconds(pollingMilliseconds))
    let task = Task.detached { [self] in
      do {
        for try await batch in stream { push(batch) }
        finish("the change stream ended")
      } catch {
        finish("the change stream ended: \(error)")
      }
    }
    reader.withLock { $0 = task }
  }

  /// The next batch, waiting at most `timeoutMilliseconds`.
  func next(timeoutMilliseconds: Int) -> Next {
    if arrived.wait(timeout: .now() + .milliseconds(timeoutMilliseconds)) == .timedOut { return .timeout }
    return pending.withLock { pending in
      if !pending.batches.isEmpty { return .batch(pending.batches.removeFirst()) }
      return .ended(pending.end ?? "the change stream ended")
    }
  }

  /// Stops reading the stream (which unsubscribes it).
  func cancel() {
    reader.withLock { $0?.cancel() }
  }

  private func push(_ batch: CommittedBatch) {
    let accepted = pending.withLock { pending in
      guard pending.end == nil else { return false }
      guard pending.batches.count < Self.pendingMax else {
        pending.end = "the client fell \(Self.pendingMax) batches behind; resume with Last-Event-ID"
        return true
      }
      pending.batches.append(batch)
      return true
    }
    if accepted { arrived.signal() }
  }

  private func finish(_ reason: String) {
    let first = pending.withLock { pending in
      guard pending.end == nil else { return false }
      pending.end = reason
      return true
    }
    if first { arrived.signal() }
  }
}
