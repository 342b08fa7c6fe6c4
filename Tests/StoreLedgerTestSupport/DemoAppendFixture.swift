import Foundation

@testable import StoreLedgerCore

/// The demo log split into a log and a batch to append, for the parse-count tests in process and
/// on the command line.
package protocol DemoAppendFixture {}

extension DemoAppendFixture {
  /// The demo scenario split in two: the log as it stands and the batch appended to it (a
  /// blank line and a line with leading spaces among them, neither of which is an extra event).
  package static func demoSplit() throws -> (
    log: String, batch: String, batchEvents: Int, unstamped: Int
  ) {
    let lines = try String(contentsOfFile: repoPath("Events/demo.jsonl"), encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let batch = lines[3...].map { "  " + $0 + "\n\n" }.joined()
    let unstamped = lines[3...].filter { !$0.contains(#""recorded""#) }.count
    return (lines[..<3].map { $0 + "\n" }.joined(), batch, lines.count - 3, unstamped)
  }

  /// A directory with the demo log's first lines and its catalog beside it.
  package static func workspace() throws -> (
    directory: URL, log: String, batch: String, batchEvents: Int, unstamped: Int
  ) {
    let directory = try temporaryDirectory()
    let split = try demoSplit()
    let log = directory.appendingPathComponent("log.jsonl").path
    try split.log.write(toFile: log, atomically: true, encoding: .utf8)
    try String(contentsOfFile: repoPath("Events/catalog.json"), encoding: .utf8)
      .write(
        toFile: LedgerLoader.defaultCatalogPath(forLog: log), atomically: true, encoding: .utf8)
    return (directory, log, split.batch, split.batchEvents, split.unstamped)
  }
}
