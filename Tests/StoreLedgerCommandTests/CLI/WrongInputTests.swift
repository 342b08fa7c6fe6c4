import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCLI

private let goodLine = EventLines.line(
  .purchase(id: "e1", subject: "u1", at: ts("2026-03-01T12:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-04-01T12:00:00Z")))

/// The `n`th good event, for subject `u1`, one per day of March.
private func good(_ n: Int) -> String {
  EventLines.line(
    .purchase(id: "e\(n)", subject: "u1", at: ts("2026-03-\(n < 10 ? "0" : "")\(n)T12:00:00Z"), product: "pro.lifetime", transaction: "t\(n)"))
}

/// Bytes that look like a binary file's body: every byte value, newlines and NUL bytes among them.
private func binaryBody(_ count: Int, seed: UInt64 = 7) -> [UInt8] {
  var state = seed
  return (0..<count).map { _ in
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return UInt8(truncatingIfNeeded: state >> 56)
  }
}

@Suite("Wrong inputs: a file that is not a log, a missing folder, a mistyped subject (issue 37)")
struct WrongInputTests {
  /// (file, its bytes, the phrase that says what it is).
  static let foreignFiles: [(String, [UInt8], String)] = [
    ("log.jsonl.gz", [0x1F, 0x8B, 0x08, 0x00] + binaryBody(200_000), "it is gzip-compressed; decompress it first"),
    ("log.zip", Array("PK".utf8) + [0x03, 0x04] + binaryBody(5_000), "it is a zip archive"),
    ("picture.png", [0x89] + Array("PNG".utf8) + [0x0D, 0x0A, 0x1A, 0x0A] + binaryBody(5_000), "it is a PNG image"),
    ("data.bin", binaryBody(50_000), "it holds binary data (NUL bytes) and none of its first 8 lines is JSON"),
    (
      "export.csv", Array(("id,subject,at,product\n" + (1...500).map { "e\($0),u1,2026-03-01,pro.monthly\n" }.joined()).utf8),
      "none of its first 8 lines is JSON (line 1: invalid JSON: expected '{' at the start of an event)"
    ),
    ("short.bin", [0x00, 0x01, 0x02, 0x0A, 0xFF, 0x00, 0x0A], "it holds binary data (NUL bytes) and none of its 2 lines is JSON"),
    // No newline at all: not a torn last line of an empty log (which would start with `{`).
    ("noline.bin", [0x00, 0x7F, 0xFF, 0x00] + Array("abc".utf8) + [0x00], "it holds binary data (NUL bytes) and its only line is not JSON"),
    (
      "pretty.json", Array(String(repeating: "{\n  \"id\": \"e1\",\n  \"type\": \"purchase\"\n}\n", count: 3).utf8),
      "none of its first 8 lines is JSON (line 1: invalid JSON: expected a field name in double quotes; the log is JSON Lines"
    ),
  ]

  @Test("a file that is not JSON Lines gives one error naming it and saying what it is, exit 65, no repair advice", arguments: foreignFiles)
  func foreignFile(name: String, bytes: [UInt8], phrase: String) throws {
    let space = try Workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let path = space.path(name)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let result = runCLI(["check", path, "--catalog", space.path("catalog.json")])
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("\(path): error: not a JSON Lines log: "), "\(result.stderr)")
    #expect(result.stderr.contains(phrase), "\(result.stderr)")
    #expect(result.stderr.contains("a log holds one event per line, each a JSON object"))
    #expect(result.stderr.components(separatedBy: "error:").count == 2, "one error: \(result.stderr)")
    #expect(!result.stderr.contains("repair"), "\(result.stderr)")
  }

  /// Every command that reads a log, with `LOG` for the log and `OUT` for a file it may write.
  static let readers: [[String]] = [
    ["check", "LOG"], ["replay", "LOG"], ["query", "LOG", "--subject", "u1"], ["audit", "LOG", "--queries", "-"],
    ["append", "LOG", "-"], ["snapshot", "LOG", "--out", "OUT"], ["timeline", "LOG", "--subject", "u1"],
    ["report", "LOG", "--from", "2026-03-01", "--to", "2026-04-01"], ["index", "LOG"],
  ]

  @Test("every command that reads a log stops at a gzip log with the same one error", arguments: readers)
  func everyReader(arguments: [String]) throws {
    let space = try Workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    try Data([0x1F, 0x8B, 0x08, 0x00] + binaryBody(20_000)).write(to: URL(fileURLWithPath: space.log))
    let resolved = arguments.map { $0 == "LOG" ? space.log : $0 == "OUT" ? space.path("out.json") : $0 }
    let stdin = arguments[0] == "append" ? good(2) + "\n" : #"{"subject":"u1","at":"2026-03-05T00:00:00Z"}"# + "\n"
    let result = runCLI(resolved, stdin: stdin)
    #expect(result.status == 65)
    #expect(result.stderr.contains("\(space.log): error: not a JSON Lines log: it is gzip-compressed"), "\(result.stderr)")
    #expect(!result.stderr.contains("repair"))
  }

  @Test("append to a text file that is not a log and has no final newline says so, not 'repair'")
  func appendToTornForeignFile() throws {
    let space = try Workspace(log: "id,subject,at\n" + (1...9).map { "e\($0),u1,2026-03-01" }.joined(separator: "\n"))
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let before = try space.read()
    let result = runCLI(["append", space.log, "-"], stdin: good(1) + "\n")
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("\(space.log): error: not a JSON Lines log: none of its first 8 lines is JSON"), "\(result.stderr)")
    #expect(!result.stderr.contains("repair"))
    #expect(try space.read() == before)
    let torn = try Workspace(log: good(1) + "\n" + #"{"id":"e2","type":"#)
    defer { try? FileManager.default.removeItem(at: torn.directory) }
    let tornResult = runCLI(["append", torn.log, "-"], stdin: good(3) + "\n")
    #expect(tornResult.stderr.contains("the log ends in a torn line; run 'storeledger repair' before appending"))
  }

  @Test(
    "a refused first append leaves no log behind; an accepted one creates it",
    arguments: [
      (#"{"id":1}"#, 65, false),
      (good(1).replacingOccurrences(of: "pro.lifetime", with: "pro.nothing"), 65, false),
      (good(1), 0, true),
    ])
  func refusedFirstAppend(input: String, status: Int32, logLeft: Bool) throws {
    let space = try Workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(["append", space.log, "-", "--catalog", space.path("catalog.json")], stdin: input + "\n")
    #expect(result.status == status, "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: space.log) == logLeft)
  }

  @Test("a log that is only a torn first line, zeros after it as a crash may leave, is still a torn log: a warning, and append advises repair")
  func tornFirstLineWithZeros() throws {
    let space = try Workspace(log: "")
    defer { try? FileManager.default.removeItem(at: space.directory) }
    try Data(Array(#"{"id":"e1","type":"purch"#.utf8) + [UInt8](repeating: 0, count: 64)).write(to: URL(fileURLWithPath: space.log))
    let check = runCLI(["check", space.log, "--catalog", space.path("catalog.json")])
    #expect(check.status == 0)
    #expect(check.stderr.contains("torn last line"), "\(check.stderr)")
    let append = runCLI(["append", space.log, "-"], stdin: good(1) + "\n")
    #expect(append.stderr.contains("run 'storeledger repair' before appending"), "\(append.stderr)")
    // Binary data without a newline is refused by append as not a log, with nothing written.
    try Data([0x00, 0x7F, 0xFF, 0x00, 0x41]).write(to: URL(fileURLWithPath: space.log))
    let binary = runCLI(["append", space.log, "-"], stdin: good(1) + "\n")
    #expect(binary.status == 65)
    #expect(binary.stderr.contains("not a JSON Lines log: it holds binary data (NUL bytes) and its only line is not JSON"), "\(binary.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: space.log)) == Data([0x00, 0x7F, 0xFF, 0x00, 0x41]))
  }

  @Test("a log on stdin that is not JSON Lines gets the same one error, naming <stdin>")
  func foreignStdin() throws {
    let space = try Workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let csv = "id,subject,at\n" + (1...50).map { "e\($0),u1,2026-03-01\n" }.joined()
    let result = runCLI(["check", "-", "--catalog", space.path("catalog.json")], stdin: csv)
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("<stdin>: error: not a JSON Lines log: none of its first 8 lines is JSON"), "\(result.stderr)")
  }

  /// (bad lines before the first good one, whether the file is judged not JSON Lines).
  @Test("bad lines among good ones keep their per-line errors; eight bad lines first make it not a log", arguments: [(1, false), (7, false), (8, true)])
  func badLinesAmongGood(badFirst: Int, isForeign: Bool) throws {
    let lines = (0..<badFirst).map { "garbage \($0)" } + [good(1), "{oops", good(2), "not json"]
    let space = try Workspace(log: lines.joined(separator: "\n") + "\n")
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(["check", space.log])
    #expect(result.status == 65)
    #expect(result.stderr.contains("not a JSON Lines log") == isForeign, "\(result.stderr)")
    if !isForeign {
      #expect(result.stderr.contains("\(space.log):1:1: error: invalid JSON: expected '{'"), "\(result.stderr)")
      #expect(result.stderr.contains("\(space.log):\(badFirst + 2):2: error: invalid JSON"), "\(result.stderr)")
      #expect(result.stderr.contains("\(space.log):\(badFirst + 4):1: error: invalid JSON"), "\(result.stderr)")
    }
  }

  @Test("a short text file keeps one error per line, with its place and hint")
  func shortTextFile() throws {
    let space = try Workspace(log: "id,subject\ne1,u1\n[\(goodLine)]\n")
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(["check", space.log])
    #expect(result.status == 65)
    #expect(!result.stderr.contains("not a JSON Lines log"), "\(result.stderr)")
    #expect(result.stderr.contains("\(space.log):2:1: error: invalid JSON: expected '{'"), "\(result.stderr)")
    #expect(result.stderr.contains("\(space.log):3:1: error: invalid JSON: expected '{' at the start of an event; found '['"), "\(result.stderr)")
  }

  @Test("a log with bad fields only is JSON Lines: its lines keep their own errors")
  func badFieldsOnly() throws {
    let lines = (1...10).map { #"{"id":"e\#($0)","type":"purchase","subject":"u1","at":"soon","product":"pro.lifetime","transaction":"t\#($0)"}"# }
    let space = try Workspace(log: lines.joined(separator: "\n") + "\n")
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(["check", space.log])
    #expect(result.status == 65)
    #expect(!result.stderr.contains("not a JSON Lines log"))
    #expect(result.stderr.contains("\(space.log):10: error: field 'at'"), "\(result.stderr)")
  }

  @Test("generate into a folder that does not exist exits 74 naming the folder")
  func generateIntoMissingFolder() throws {
    let space = try Workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let folder = space.path("no-such-folder")
    let result = runCLI(["generate", "--subjects", "2", "--seed", "1", "--out", folder + "/log.jsonl"])
    #expect(result.status == 74)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("the folder \(folder) does not exist"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder))
  }

  @Test("a file in place of the folder is named as not a folder")
  func outputUnderAFile() throws {
    let space = try Workspace(log: goodLine + "\n")
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(["snapshot", space.log, "--out", space.log + "/snapshot.json"])
    #expect(result.status == 74)
    #expect(result.stderr.contains("\(space.log) is not a folder"), "\(result.stderr)")
  }

  @Test(
    "import without --catalog looks beside the log it writes and, finding none, says where it looked: exit 66, nothing written",
    arguments: [("appstore", "--append"), ("googleplay", "--append"), ("appstore", "--out"), ("googleplay", "--out")])
  func importWithoutCatalog(store: String, option: String) throws {
    let space = try Workspace(log: goodLine + "\n")
    defer { try? FileManager.default.removeItem(at: space.directory) }
    try FileManager.default.removeItem(atPath: space.path("catalog.json"))
    try space.write("input.jsonl", "{}\n")
    let written = option == "--append" ? space.log : space.path("out.jsonl")
    let result = runCLI(["import", store, space.path("input.jsonl"), option, written, "--no-verify"].filter { store == "appstore" || $0 != "--no-verify" })
    #expect(result.status == 66)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr == "error: no catalog: looked for \(space.path("catalog.json")) (the default, catalog.json beside the log \(written)); pass --catalog FILE to name the catalog\n")
    #expect(try space.read() == Data((goodLine + "\n").utf8))
    #expect(!FileManager.default.fileExists(atPath: space.path("out.jsonl")))
  }

  @Test("timeline of a mistyped subject exits 66 with the nearest subjects")
  func timelineDidYouMean() throws {
    let space = try Workspace(log: goodLine + "\n")
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(["timeline", space.log, "--subject", "U1"])
    #expect(result.status == 66)
    #expect(result.stderr == "error: no event in the log names subject 'U1'; did you mean 'u1'?\n", "\(result.stderr)")
    let unrelated = runCLI(["timeline", space.log, "--subject", "nobody-at-all"])
    #expect(unrelated.stderr == "error: no event in the log names subject 'nobody-at-all'\n", "\(unrelated.stderr)")
  }

  @Test("can for a mistyped subject answers and warns with the nearest subject")
  func canDidYouMean() throws {
    let space = try PolicyCommandTests.workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(["can", space.log, "--subject", "Ana", "--feature", "interaction", "--at", "2026-03-30T09:04:00Z"])
    #expect(result.status == 0)
    #expect(result.stdout.contains(#""subject":"Ana""#))
    #expect(
      result.stderr == "\(space.log): warning: subject 'Ana' has no events in the log, so the answer is empty; did you mean 'ana'?\n",
      "\(result.stderr)")
    let known = runCLI(["can", space.log, "--subject", "ana", "--feature", "interaction", "--at", "2026-03-30T09:04:00Z"])
    #expect(known.stderr.isEmpty)
  }
}
