import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("One intake check for every log line, on the builder's path and the pipelined reader's")
struct LineIntakeTests {
  static let event = EventLines.line(.purchase(id: "a", subject: "u", at: ts("2026-03-01T00:00:00Z"), product: "coins.100", transaction: "t"))

  /// The diagnostics of `lines` given one by one to `LedgerBuilder.add(line:)`.
  private func builderErrors(_ lines: [String], catalog: Catalog) -> [Diagnostic] {
    var builder = LedgerBuilder(catalog: catalog, file: "log.jsonl")
    for (index, line) in lines.enumerated() {
      var bytes = Array(line.utf8)
      bytes.withUnsafeMutableBufferPointer { _ = builder.add(line: UnsafeBufferPointer($0), lineNumber: index + 1) }
    }
    return builder.errors
  }

  /// The diagnostics of the same lines as a log file read by the pipelined reader.
  private func readerErrors(_ lines: [String], catalog: Catalog) throws -> [Diagnostic] {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("log.jsonl").path
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
    var builder = LedgerBuilder(catalog: catalog, file: "log.jsonl")
    _ = try PipelinedLogReader.feed(&builder, path: path, catalog: catalog, blockBytes: 4096)
    return builder.errors
  }

  @Test(
    "the builder and the pipelined reader give the same verdict on whitespace, long and ordinary lines",
    arguments: [
      ("a whitespace-only line over the limit", String(repeating: " ", count: Limits.lineBytesMax + 1)),
      ("a whitespace-only line at the limit", String(repeating: "\t", count: Limits.lineBytesMax)),
      ("a line of text over the limit", String(repeating: "x", count: Limits.lineBytesMax + 1)),
      ("an empty line", ""),
      ("carriage returns only", "\r\r"),
      ("not JSON", "nope"),
    ])
  func bothPathsAgree(name: String, line: String) throws {
    let catalog = try LedgerLoader.loadCatalog(path: repoPath("Events/catalog.json"))
    let lines = [Self.event, line]
    let viaBuilder = builderErrors(lines, catalog: catalog)
    let viaReader = try readerErrors(lines, catalog: catalog)
    #expect(viaBuilder.map(\.description) == viaReader.map(\.description), "\(name)")
  }

  @Test("a line over the limit is refused before anything else, even when it is whitespace")
  func lengthComesFirst() {
    let whitespace = [UInt8](repeating: 32, count: 11)
    let verdict = whitespace.withUnsafeBufferPointer { LineIntake.check($0, lineNumber: 3, lineBytesMax: 10) }
    #expect(verdict == .refused(Diagnostic(line: 3, .lineTooLong(bytes: 11, limit: 10))))
    let fits = whitespace.withUnsafeBufferPointer { LineIntake.check(UnsafeBufferPointer(rebasing: $0[0..<10]), lineNumber: 3, lineBytesMax: 10) }
    #expect(fits == .empty)
  }

  @Test("a line past the most lines a log may have is refused as too many lines, not as a long line")
  func tooManyLines() {
    let line = Array(Self.event.utf8)
    let past = line.withUnsafeBufferPointer { LineIntake.check($0, lineNumber: 6, linesMax: 5) }
    #expect(past == .refused(Diagnostic(line: 6, .tooManyLines(limit: 5))))
    #expect(Diagnostic(line: 6, .tooManyLines(limit: 5)).description == "6: error: the log has more than 5 lines")
    let last = line.withUnsafeBufferPointer { LineIntake.check($0, lineNumber: 5, linesMax: 5) }
    #expect(last == .parse)
  }
}
