import Dispatch
import StoreLedgerCore

/// Appends waiting to be written together (`LedgerStore.groupsCommits`).
///
/// The first caller to arrive leads: it takes every batch waiting (its own first), writes them
/// with one fsync, answers each waiting caller, and wakes the next one waiting, if any, to lead
/// the next group. While a group is written, newcomers queue, so a group is as large as the
/// arrivals during one write: one caller alone is written at once, with no wait added.
final class CommitGroups: @unchecked Sendable {
  /// A caller waiting for its batch to be written.
  final class Waiting: @unchecked Sendable {
    /// Its batch.
    let member: LogAppender.GroupMember
    /// Set by the leader before `done` is signalled; still nil after it: lead the next group.
    var result: Result<AppendReport, DiagnosticList>?
    /// Signalled once: answered, or made leader.
    let done = DispatchSemaphore(value: 0)

    init(_ member: LogAppender.GroupMember) { self.member = member }
  }

  private struct Queue {
    var waiting: [Waiting] = []
    var isLed = false
    var groupsWritten = 0
  }

  /// The most batches written together: bounds one write and the work of deciding it.
  static let membersMax = 64

  // Guarded by `lock` (a semaphore: the layer table keeps API/ to Dispatch).
  private var state = Queue()
  private let lock = DispatchSemaphore(value: 1)

  private func withQueue<R>(_ body: (inout Queue) -> R) -> R {
    lock.wait()
    defer { lock.signal() }
    return body(&state)
  }

  /// Groups written so far, each one write and one fsync (the server's metrics).
  var groupsWritten: Int { withQueue { $0.groupsWritten } }

  /// Counts a group written.
  func countWrite() { withQueue { $0.groupsWritten += 1 } }

  /// Whether a group is being written, and the callers queued behind it (tests wait for a
  /// group to form).
  var queued: (isLed: Bool, waiting: Int) { withQueue { ($0.isLed, $0.waiting.count) } }

  /// Queues `waiting`; true when the caller leads (no group is being written).
  func enqueue(_ waiting: Waiting) -> Bool {
    withQueue { queue in
      queue.waiting.append(waiting)
      guard !queue.isLed else { return false }
      queue.isLed = true
      return true
    }
  }

  /// The leader's group: the first `membersMax` waiting (the leader is the first of them).
  func takeGroup() -> [Waiting] {
    withQueue { queue in
      let group = Array(queue.waiting.prefix(Self.membersMax))
      queue.waiting.removeFirst(group.count)
      return group
    }
  }

  /// After a group is answered: the next caller waiting is woken to lead, or the lead lapses.
  func handOff() {
    let next = withQueue { queue -> Waiting? in
      guard let first = queue.waiting.first else {
        queue.isLed = false
        return nil
      }
      return first
    }
    next?.done.signal()
  }
}
