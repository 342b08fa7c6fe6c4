import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Concurrent appenders")
struct ConcurrentAppendTests {
  @Test("concurrent append processes never interleave or lose lines")
  func concurrentAppends() throws {
    let space = try Workspace(log: "")
    let processes = 6
    let batchLines = 40
    var appends: [[String]] = []
    for p in 0..<processes {
      // Long lines make a torn or interleaved write visible.
      let padding = String(repeating: "p\(p)", count: 200)
      let batch = (0..<batchLines).map { i in
        EventLines.line(
          .purchase(id: "p\(p)-\(i)", subject: "u\(p)", at: ts("2026-03-01T00:00:00Z"), product: "coins.100", transaction: "t\(p)-\(i)")
            .withMeta(["pad": padding]))
      }.joined(separator: "\n") + "\n"
      try space.write("batch\(p).jsonl", batch)
      appends.append(["append", space.log, space.path("batch\(p).jsonl")])
    }
    #expect(try runCLIConcurrently(appends) == Array(repeating: 0, count: processes))
    let text = String(decoding: try space.read(), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(text.hasSuffix("\n"))
    #expect(lines.count == processes * batchLines)
    // Each batch is one contiguous block in its original order.
    var index = 0
    var seen = Set<String>()
    while index < lines.count {
      let first = try JSONValue.parse(String(lines[index]))
      let id = first["id"]!.stringValue!
      let process = String(id.split(separator: "-")[0])
      #expect(seen.insert(process).inserted)
      for i in 0..<batchLines {
        let line = try JSONValue.parse(String(lines[index + i]))
        #expect(line["id"] == .string("\(process)-\(i)"))
      }
      index += batchLines
    }
    #expect(seen.count == processes)
    #expect(runCLI(["check", space.log]).status == 0)
  }
}
