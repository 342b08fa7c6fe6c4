import Synchronization

/// Counts the lines `EventLineParser` parses and validates one by one (`parseDetailed`, `parse`)
/// inside `counting(_:)`: what pins "an appended line is parsed once" (Docs/architecture.md,
/// "How often an appended line is parsed").
///
/// The count is bound to the task, like `IOFaults`' plans, so tests running at once never count
/// each other's lines, and work handed to other threads is not counted. A process-wide gate keeps
/// the task-local look-up off every parse while nothing counts; the pipelined reader of a whole
/// log (`parsePending` on its workers) is never counted, so replay pays nothing.
package enum LineParses {
  /// The lines parsed while one `counting` call runs.
  package final class Counter: Sendable {
    fileprivate let lines = Atomic<Int>(0)
    fileprivate let logLines = Atomic<Int>(0)
    fileprivate let typedLines = Atomic<Int>(0)
  }

  /// The counter bound to the current task, if any.
  @TaskLocal static var bound: Counter?
  /// How many `counting` calls run now, in any task.
  private static let countersRunning = Atomic<Int>(0)

  /// Notes one line parsed: a relaxed load while nothing counts.
  @inline(__always)
  static func note() {
    guard countersRunning.load(ordering: .relaxed) > 0 else { return }
    bound?.lines.wrappingAdd(1, ordering: .relaxed)
  }

  /// Whether some task counts now: the readers that must scan to count check it first.
  static var isCounting: Bool { countersRunning.load(ordering: .relaxed) > 0 }

  /// Notes `count` lines of a log read from its file (a block of the pipelined reader, the
  /// committed text an importer read whole): a relaxed load while nothing counts.
  @inline(__always)
  static func noteLogLines(_ count: Int) {
    guard countersRunning.load(ordering: .relaxed) > 0 else { return }
    bound?.logLines.wrappingAdd(count, ordering: .relaxed)
  }

  /// Notes `count` log lines read into typed events outside the load (the importers' knowledge
  /// reads the lines the load kept, `KeptLines`; `LedgerKnowledge.linesRead`): a relaxed load
  /// while nothing counts.
  @inline(__always)
  package static func noteTypedLines(_ count: Int) {
    guard countersRunning.load(ordering: .relaxed) > 0 else { return }
    bound?.typedLines.wrappingAdd(count, ordering: .relaxed)
  }

  /// Runs `body` and returns its result with the lines of logs read from their files in this
  /// task meanwhile, and the lines of them read into typed events outside the load: what pins
  /// "an import reads the log once, and each line it learns from once" (Docs/architecture.md).
  package static func countingLogLines<R>(
    _ body: () throws -> R
  ) rethrows -> (result: R, logLines: Int, typedLines: Int) {
    let counter = Counter()
    countersRunning.wrappingAdd(1, ordering: .relaxed)
    defer { countersRunning.wrappingSubtract(1, ordering: .relaxed) }
    let result = try $bound.withValue(counter) { try body() }
    return (result, counter.logLines.load(ordering: .relaxed), counter.typedLines.load(ordering: .relaxed))
  }

  /// Runs `body` and returns its result with the lines parsed one by one in this task meanwhile.
  package static func counting<R>(_ body: () throws -> R) rethrows -> (result: R, lines: Int) {
    let counter = Counter()
    countersRunning.wrappingAdd(1, ordering: .relaxed)
    defer { countersRunning.wrappingSubtract(1, ordering: .relaxed) }
    let result = try $bound.withValue(counter) { try body() }
    return (result, counter.lines.load(ordering: .relaxed))
  }
}
