import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("import errors: capped with a count of the rest, and invalid UTF-8 named by line")
struct ImportOutputTests {
  @Test("1,500 bad documents print the first 1,000 errors and a count of the other 500")
  func capped() throws {
    let space = try Workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    try space.write("many.jsonl", String(repeating: "{}\n", count: 1500))
    let result = runCLI(["import", "appstore", space.path("many.jsonl"), "--catalog", space.path("catalog.json")])
    #expect(result.status == 65)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == Limits.diagnosticsShownMax + 1)
    #expect(lines.last == "… and 500 more errors not shown")
  }

  @Test("input that is not UTF-8 is refused naming the first bad line")
  func utf8Line() throws {
    let space = try Workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    try Data(Array("{}\n{}\n".utf8) + [0xFF, 0xFE, 10]).write(to: URL(fileURLWithPath: space.path("bad.jsonl")))
    let result = runCLI(["import", "appstore", space.path("bad.jsonl"), "--catalog", space.path("catalog.json")])
    #expect(result.status == 65)
    #expect(result.stderr == "\(space.path("bad.jsonl")):3: error: line is not valid UTF-8\n")
  }
}
