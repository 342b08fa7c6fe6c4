import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore

/// A parsed block keeps its events apart from its other lines (`ParsedLines`); these check that
/// the lines still come back, and reach the builder, in their order with their numbers.
@Suite("A parsed block's lines keep their order, whatever mix of events, empty lines and refusals")
struct ParsedLinesTests {
  /// One line per character: `E` an event, `.` an empty line, `x` a line that is no JSON.
  static let patterns = ["E", ".", "x", "EEE", "..", "xx", "xE", "Ex", ".E", "E.", "x.xE.E", "E..xxE", "EExEE.E", ".x.x."]

  static func text(_ pattern: String) -> String {
    pattern.enumerated().map { index, mark in
      switch mark {
      case "E":
        EventLines.line(
          .purchase(id: "e\(index)", subject: "u\(index % 2)", at: ts("2026-03-01T12:00:00Z"), product: "pro.lifetime", transaction: "t\(index)"))
      case ".": ""
      default: "{not json"
      }
    }.joined(separator: "\n") + "\n"
  }

  static func parsed(_ pattern: String) throws -> ParsedBlock {
    let bytes = Array(text(pattern).utf8)
    let block = ParsedBlock(capacity: bytes.count, catalog: try catalog(exampleCatalogText))
    bytes.withUnsafeBytes { block.buffer.copyMemory(from: $0) }
    block.length = bytes.count
    block.firstLineNumber = 1
    block.parse()
    return block
  }

  @Test("the lines come back in order", arguments: patterns)
  func inOrder(pattern: String) throws {
    let block = try Self.parsed(pattern)
    var marks = ""
    block.lines.forEach { line in
      switch line {
      case .event: marks += "E"
      case .empty: marks += "."
      case .failure: marks += "x"
      }
      return true
    }
    #expect(marks == pattern)
    #expect(block.lines.count == pattern.count)
    #expect(block.lines.events.count == pattern.filter { $0 == "E" }.count)
  }

  @Test("the builder counts every line and refuses the bad ones on their own line numbers", arguments: patterns)
  func admitted(pattern: String) throws {
    let block = try Self.parsed(pattern)
    var builder = LedgerBuilder(catalog: try catalog(exampleCatalogText), file: "log.jsonl")
    let bytes = UnsafeBufferPointer(block.buffer.bindMemory(to: UInt8.self))
    block.scratch.withUnsafeBufferPointer { scratch in
      builder.add(parsed: block.lines, owners: block.owners, buffer: bytes, scratch: scratch)
    }
    #expect(builder.linesRead == pattern.count)
    let bad = pattern.enumerated().filter { $0.element == "x" }.map { $0.offset + 1 }
    #expect(builder.errors.map(\.line) == bad)
    #expect(builder.errors.allSatisfy { $0.file == "log.jsonl" })
    let good = pattern.enumerated().filter { $0.element == "E" }.map { UInt32($0.offset + 1) }
    #expect(builder.events.map(\.line) == good)
  }

  @Test("forEach stops when its body says so")
  func stops() throws {
    let block = try Self.parsed("x.E.x")
    var seen = 0
    block.lines.forEach { _ in
      seen += 1
      return seen < 2
    }
    #expect(seen == 2)
  }
}
