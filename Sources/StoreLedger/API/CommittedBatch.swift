import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage
import Dispatch

/// Lines that became part of the log together: one append of this process, or what other
/// processes appended since the ledger last looked (`refresh`, or a stream's polling).
public struct CommittedBatch: Hashable, Sendable {
  /// The 1-based line of the log the batch starts at.
  public var firstLine: Int
  /// How many lines it added (redeliveries included).
  public var lineCount: Int
  /// The events it added, in log order.
  public var events: [Event]
  /// The subjects whose answers may have changed, each once, sorted: those of the events, and
  /// every subject a transfer joins to one of them (a transfer's `to`, a unit's later owners).
  public var subjects: [SubjectID]

  /// One added event.
  public struct Event: Hashable, Sendable {
    /// Its id.
    public var id: EventID
    /// Its type.
    public var kind: EventKind
    /// Its subject.
    public var subject: SubjectID
    /// Its effective time.
    public var at: Timestamp
    /// Its knowledge time.
    public var recorded: Timestamp
    /// Its 1-based line in the log.
    public var line: Int
  }

  /// The lines after `linesBefore` that `outcome` (an append or refresh) took in.
  /// - Complexity: O(events of the subjects re-folded + parties of the owner chains).
  init(_ outcome: LogAppender.Outcome, after linesBefore: Int) {
    let ledger = outcome.ledger
    let symbols = ledger.symbols
    var taken: [(event: StoreLedgerCore.Event, subject: Symbol)] = []
    ledger.forEachEvent { event, subject in if Int(event.line) > linesBefore { taken.append((event, subject)) } }
    events = taken.sorted { $0.event.line < $1.event.line }.map { event, subject in
      Event(
        id: EventID(rawValue: symbols.ids.string(event.id)), kind: event.kind,
        subject: SubjectID(rawValue: symbols.subjects.string(subject)), at: event.at, recorded: event.recorded,
        line: Int(event.line))
    }
    subjects = ledger.withGroups(ofNames: Set(events.map(\.subject.rawValue))).map(SubjectID.init(rawValue:)).sorted {
      $0.rawValue < $1.rawValue
    }
    firstLine = linesBefore + 1
    lineCount = outcome.logLines - linesBefore
  }
}

/// The open change streams of one `LedgerStore`.
final class CommitStreams: @unchecked Sendable {
  /// Batches a reader may fall behind before its stream ends with `commits_dropped`.
  static let bufferLimit = 4096
  private let lock = DispatchSemaphore(value: 1)
  // Guarded by `lock`.
  private var continuations: [Int: AsyncThrowingStream<CommittedBatch, any Error>.Continuation] = [:]
  private var nextKey = 0

  /// Registers a stream's continuation; the returned key removes it.
  func add(_ continuation: AsyncThrowingStream<CommittedBatch, any Error>.Continuation) -> Int {
    lock.wait()
    defer { lock.signal() }
    nextKey += 1
    continuations[nextKey] = continuation
    return nextKey
  }

  /// Whether no stream is open (then no batch is built).
  var isEmpty: Bool {
    lock.wait()
    defer { lock.signal() }
    return continuations.isEmpty
  }

  /// Forgets a stream.
  func remove(_ key: Int) {
    lock.wait()
    defer { lock.signal() }
    continuations[key] = nil
  }

  /// Hands `batch` to every stream; a stream whose reader fell too far behind ends with an error.
  func publish(_ batch: CommittedBatch) {
    lock.wait()
    defer { lock.signal() }
    for (key, continuation) in continuations {
      if case .dropped = continuation.yield(batch) {
        continuation.finish(throwing: DiagnosticList([Diagnostic(.commitsDropped(limit: Self.bufferLimit))]))
        continuations[key] = nil
      }
    }
  }
}

extension LedgerStore {
  /// The batches committed from now on, as they are taken in: this process's appends at
  /// once, other processes' appends when the ledger reads them (`refresh`, or every
  /// `pollingInterval` while the stream is read; nil polls never). Ends when the task reading it
  /// is cancelled; throws `commits_dropped` if the reader falls 4,096 batches behind, or the
  /// error a poll met (the log shrank).
  public func commits(pollingInterval: Duration? = .milliseconds(250)) -> AsyncThrowingStream<CommittedBatch, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: CommittedBatch.self, throwing: (any Error).self, bufferingPolicy: .bufferingOldest(CommitStreams.bufferLimit))
    let key = commits.add(continuation)
    let poller: Task<Void, Never>? =
      pollingInterval.flatMap { interval in
        isInMemory
          ? nil
          : Task.detached { [weak self] in
            while !Task.isCancelled {
              try? await Task.sleep(for: interval)
              guard let self, !Task.isCancelled else { return }
              do throws(DiagnosticList) {
                if try self.logHasGrown() { try await self.refresh() }
              } catch {
                continuation.finish(throwing: error)
                return
              }
            }
          }
      }
    continuation.onTermination = { [weak self] _ in
      poller?.cancel()
      self?.commits.remove(key)
    }
    return stream
  }

  /// Whether the log file is longer than what the ledger has read (a cheap look, no lock).
  func logHasGrown() throws(DiagnosticList) -> Bool {
    do throws(Diagnostic) {
      let size = try PlatformFile(path: logPath, mode: .read).size()
      return size != gate.read { state.logBytes }
    } catch {
      throw DiagnosticList([error])
    }
  }
}
