import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerCLI

/// Replay's output without its elapsed-time line (the one line that differs run to run).
private func withoutElapsed(_ text: String) -> String {
  text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("elapsed: ") }.joined(separator: "\n")
}

/// Every scenario log of Events/ (not its queries, answers or reports).
private let scenarioLogs: [String] = {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: repoPath("Events"))) ?? []
  return names.filter { $0.hasSuffix(".jsonl") && !$0.contains(".answers") && !$0.contains(".queries") }.sorted()
}()

/// A generated log with usage (policy metrics) in a fresh directory, made once per test process.
private let generatedLog: String = {
  let directory = try! temporaryDirectory()
  let log = directory.appendingPathComponent("log.jsonl").path
  let result = runCLI(["generate", "--subjects", "240", "--seed", "11", "--out", log, "--months", "14"])
  precondition(result.status == 0, result.stderr)
  return log
}()

/// The numbers of a replay summary: "name: N" lines and entitlement lines.
private func replayCounts(_ text: String) -> [String: Int] {
  var counts: [String: Int] = [:]
  for line in text.split(separator: "\n") {
    let parts = line.split(separator: ":")
    guard parts.count == 2, let value = Int(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
    counts[parts[0].trimmingCharacters(in: .whitespaces), default: 0] += value
  }
  return counts
}

@Suite("A log streamed from stdin")
struct StdinLogTests {
  @Test("replay - gives byte for byte what replay LOG gives, for every scenario", arguments: scenarioLogs)
  func replayFromStdin(name: String) throws {
    let log = repoPath("Events/" + name)
    let text = try String(contentsOfFile: log, encoding: .utf8)
    let fromFile = runCLI(["replay", log])
    let fromStdin = runCLI(["replay", "-", "--catalog", repoPath("Events/catalog.json")], stdin: text)
    #expect(fromStdin.status == fromFile.status)
    #expect(withoutElapsed(fromStdin.stdout) == withoutElapsed(fromFile.stdout))
    #expect(fromStdin.stderr == fromFile.stderr.replacingOccurrences(of: log, with: "<stdin>"))
  }

  @Test("replay - reads a real pipe in small writes like the file, for every scenario", .timeLimit(.minutes(1)), arguments: scenarioLogs)
  func realPipe(name: String) throws {
    let log = repoPath("Events/" + name)
    let process = Process()
    process.executableURL = try storeledgerBinary()
    process.arguments = ["replay", "-", "--catalog", repoPath("Events/catalog.json")]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    // One line per write: the reader must gather short reads into whole lines.
    for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
      input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }
    try input.fileHandleForWriting.close()
    let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let fromFile = runCLI(["replay", log])
    #expect(process.terminationStatus == fromFile.status)
    #expect(withoutElapsed(out) == withoutElapsed(fromFile.stdout))
  }

  @Test(
    "a bad line on stdin is named <stdin> with its line number",
    arguments: [["replay"], ["check"], ["audit", "--queries", "QUERIES"], ["report", "--from", "2026-01-01", "--to", "2026-02-01"]])
  func errorsNameStdin(command: [String]) throws {
    let space = try Workspace()
    try space.write("q.jsonl", #"{"subject":"u1","at":"2026-03-05T00:00:00Z"}"# + "\n")
    let good = EventLines.line(.purchase(id: "e1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "t1"))
    let arguments = [command[0], "-"] + command.dropFirst().map { $0 == "QUERIES" ? space.path("q.jsonl") : $0 }
      + ["--catalog", space.path("catalog.json")]
    let result = runCLI(arguments, stdin: good + "\n" + #"{"id":"e2","type":"purchase","subject":"u1"}"# + "\n")
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("<stdin>:2"), "\(result.stderr)")
  }

  @Test("a last line without a newline on stdin is a torn line, as in a file")
  func tornLastLine() throws {
    let space = try Workspace()
    let good = EventLines.line(.purchase(id: "e1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "t1"))
    let result = runCLI(["replay", "-", "--catalog", space.path("catalog.json")], stdin: good + "\n" + #"{"id":"e2""#)
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("events read: 1\n"))
    #expect(result.stderr.contains("<stdin>:2: warning"), "\(result.stderr)")
  }

  @Test("a log on stdin needs --catalog, and only one input may be stdin")
  func needsCatalog() {
    let missing = runCLI(["replay", "-"], stdin: "")
    #expect(missing.status == 64)
    #expect(missing.stderr.contains("needs '--catalog <file>'"))
    let both = runCLI(["replay", "-", "--catalog", "-"], stdin: "")
    #expect(both.status == 64)
  }
}

@Suite("Commands run shard by shard")
struct ShardedCommandTests {
  @Test("the shards' replay counts add up to the whole log's, active entitlements at the same --at", arguments: [1, 3, 5])
  func replayCountsAddUp(shards: Int) {
    let at = ["--at", "2024-09-01T00:00:00Z"]
    let whole = runCLI(["replay", generatedLog] + at)
    #expect(whole.status == 0)
    var summed: [String: Int] = [:]
    for index in 0..<shards {
      let part = runCLI(["replay", generatedLog, "--shard", "\(index)/\(shards)"] + at)
      #expect(part.status == 0, "\(part.stderr)")
      #expect(replayCounts(part.stdout)["events read"]! > 0)
      summed.merge(replayCounts(part.stdout), uniquingKeysWith: +)
    }
    var expected = replayCounts(whole.stdout)
    // Each shard has its own latest time; the counts add up.
    expected["latest effective time"] = nil
    summed["latest effective time"] = nil
    #expect(summed == expected)
    #expect(expected["events read"]! > 2000)
    #expect(expected.keys.count > 4, "\(expected)")
  }

  @Test("each shard answers its subjects' queries, and merged back in query order they equal the whole log's answers")
  func auditMerges() throws {
    let log = generatedLog
    let subjects = Set(
      try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").prefix(400).compactMap { line in
        line.range(of: #""subject":""#).map { line[$0.upperBound...].prefix { $0 != "\"" } }.map(String.init)
      }
    ).sorted()
    var queries = ""
    for (n, subject) in subjects.enumerated() {
      queries += #"{"subject":"\#(subject)","at":"2024-0\#(n % 9 + 1)-15T00:00:00Z"}"# + "\n"
      queries += #"{"subject":"\#(subject)","at":"2025-01-01T00:00:00Z","as_of":"2024-06-01T00:00:00Z"}"# + "\n"
    }
    let space = try Workspace()
    try space.write("queries.jsonl", queries)
    let whole = runCLI(["audit", log, "--queries", space.path("queries.jsonl")])
    #expect(whole.status == 0)
    let shards = 4
    var answers = (0..<shards).map { index in
      runCLI(["audit", log, "--queries", space.path("queries.jsonl"), "--shard", "\(index)/\(shards)"])
        .stdout.split(separator: "\n").map(String.init)[...]
    }
    #expect(answers.map(\.count).reduce(0, +) == subjects.count * 2)
    var merged: [String] = []
    for line in queries.split(separator: "\n") {
      let subject = String(line.dropFirst(#"{"subject":""#.count).prefix { $0 != "\"" })
      merged.append(answers[Shard.index(ofSubject: subject, count: shards)].popFirst()!)
    }
    #expect(merged == whole.stdout.split(separator: "\n").map(String.init))
  }

  @Test("a shard's snapshot restores with its shard, and is refused with another")
  func snapshotPerShard() throws {
    let space = try Workspace()
    let lines = try String(contentsOfFile: generatedLog, encoding: .utf8).split(separator: "\n")
    let cut = lines.count * 2 / 3
    try space.write("log.jsonl", lines[..<cut].joined(separator: "\n") + "\n")
    try FileManager.default.removeItem(atPath: space.path("catalog.json"))
    try FileManager.default.copyItem(
      atPath: PlatformFile.directory(of: generatedLog) + "/catalog.json", toPath: space.path("catalog.json"))
    let snapshot = space.path("shard1.json")
    let made = runCLI(["snapshot", space.log, "--shard", "1/3", "--out", snapshot])
    #expect(made.status == 0, "\(made.stderr)")
    // The log grows after the snapshot: restoring folds the tail's lines of the shard only.
    try space.write("log.jsonl", lines.joined(separator: "\n") + "\n")
    let restored = runCLI(["replay", space.log, "--shard", "1/3", "--snapshot", snapshot])
    let folded = runCLI(["replay", space.log, "--shard", "1/3"])
    #expect(restored.status == 0, "\(restored.stderr)")
    #expect(withoutElapsed(restored.stdout) == withoutElapsed(folded.stdout))
    let wrong = runCLI(["replay", space.log, "--shard", "2/3", "--snapshot", snapshot])
    #expect(wrong.status == 65)
    #expect(wrong.stderr.contains("not of --shard 2/3"), "\(wrong.stderr)")
  }

  @Test(
    "the shards' partial reports merge into exactly the whole log's report",
    arguments: [("json", 3), ("csv", 3), ("json", 1), ("partial", 2)])
  func reportMerges(format: String, shards: Int) throws {
    let space = try Workspace()
    let window = ["--from", "2024-01-01", "--to", "2025-03-01"]
    let whole = runCLI(["report", generatedLog] + window + ["--format", format])
    #expect(whole.status == 0)
    var partials: [String] = []
    for index in 0..<shards {
      let part = runCLI(["report", generatedLog] + window + ["--shard", "\(index)/\(shards)", "--format", "partial"])
      #expect(part.status == 0, "\(part.stderr)")
      try space.write("part\(index).json", part.stdout)
      partials.append(space.path("part\(index).json"))
    }
    let merged = runCLI(["report", "--merge"] + partials + ["--format", format])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stdout == whole.stdout)
    // The policy metrics are in the comparison.
    #expect(whole.stdout.contains("limit_hit"))
  }

  @Test("report --merge refuses partials of different windows and finished reports")
  func mergeRefusesMismatch() throws {
    let space = try Workspace()
    try space.write("a.json", runCLI(["report", generatedLog, "--from", "2024-01-01", "--to", "2024-03-01", "--format", "partial"]).stdout)
    try space.write("b.json", runCLI(["report", generatedLog, "--from", "2024-01-01", "--to", "2024-05-01", "--format", "partial"]).stdout)
    try space.write("c.json", runCLI(["report", generatedLog, "--from", "2024-01-01", "--to", "2024-03-01"]).stdout)
    let windows = runCLI(["report", "--merge", space.path("a.json"), space.path("b.json")])
    #expect(windows.status == 65)
    #expect(windows.stderr.contains("b.json"))
    let finished = runCLI(["report", "--merge", space.path("a.json"), space.path("c.json")])
    #expect(finished.status == 65)
    #expect(finished.stderr.contains("partial report"))
  }

  @Test(
    "a bad --shard is a usage error on every command that takes it",
    arguments: [
      (["replay", "LOG"], "3/3"), (["replay", "LOG"], "0/0"), (["replay", "LOG"], "x/2"), (["replay", "LOG"], "1/5000"),
      (["audit", "LOG", "--queries", "LOG"], "2/2"), (["snapshot", "LOG", "--out", "SNAP"], "a/b"),
      (["report", "LOG", "--from", "2024-01-01", "--to", "2024-02-01"], "1/0"),
    ])
  func badShard(command: [String], shard: String) throws {
    let space = try Workspace(log: "")
    let arguments = command.map { $0 == "LOG" ? space.log : $0 == "SNAP" ? space.path("s.json") : $0 }
    let result = runCLI(arguments + ["--shard", shard])
    #expect(result.status == 64)
    #expect(result.stderr.contains("Invalid value for '--shard': '\(shard)'"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: space.path("s.json")))
  }
}

@Suite("split")
struct SplitCommandTests {
  @Test("split writes one file per shard, in log order, each folding like --shard on the whole log", arguments: [3, 16])
  func splits(shards: Int) throws {
    let space = try OutputDirectory()
    let result = runCLI(["split", generatedLog, "--shards", "\(shards)", "--out", space.path("")])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = try String(contentsOfFile: generatedLog, encoding: .utf8).split(separator: "\n")
    #expect(try space.read("catalog.json") == Data(contentsOf: URL(fileURLWithPath: PlatformFile.directory(of: generatedLog) + "/catalog.json")))
    var total = 0
    for index in 0..<shards {
      let name = LogSplitter.fileName(index: index, count: shards)
      let text = try String(contentsOfFile: space.path(name), encoding: .utf8)
      // The shard's lines are exactly the log's lines of its subjects, in log order.
      let expected = lines.filter { line in
        let subject = String(line[line.range(of: #""subject":""#)!.upperBound...].prefix { $0 != "\"" })
        return Shard.index(ofSubject: subject, count: shards) == index
      }
      #expect(text.split(separator: "\n") == expected)
      total += expected.count
      #expect(result.stdout.contains("\(name): \(expected.count) lines, \(text.utf8.count) bytes"))
      if index < 3 {
        let folded = runCLI(["replay", space.path(name)])
        let sharded = runCLI(["replay", generatedLog, "--shard", "\(index)/\(shards)"])
        #expect(withoutElapsed(folded.stdout) == withoutElapsed(sharded.stdout))
      }
    }
    #expect(total == lines.count)
  }

  @Test("shard files are named so that a glob lists them in order", arguments: [(0, 16, "shard-00-of-16.jsonl"), (7, 100, "shard-007-of-100.jsonl"), (0, 1, "shard-00-of-01.jsonl")])
  func names(index: Int, count: Int, name: String) {
    #expect(LogSplitter.fileName(index: index, count: count) == name)
  }

  @Test("split reads the log from stdin with --catalog")
  func fromStdin() throws {
    let space = try OutputDirectory()
    let log = repoPath("Events/demo.jsonl")
    let result = runCLI(
      ["split", "-", "--shards", "2", "--out", space.path(""), "--catalog", repoPath("Events/catalog.json")],
      stdin: try String(contentsOfFile: log, encoding: .utf8))
    #expect(result.status == 0, "\(result.stderr)")
    let fromFile = try OutputDirectory()
    #expect(runCLI(["split", log, "--shards", "2", "--out", fromFile.path("")]).status == 0)
    for index in 0..<2 {
      let name = LogSplitter.fileName(index: index, count: 2)
      #expect(try space.read(name) == fromFile.read(name))
    }
  }

  @Test("split refuses existing shard files without --force and replaces them with it")
  func refusesOverwrite() throws {
    let space = try OutputDirectory()
    try space.write("shard-01-of-02.jsonl", "old\n")
    let refused = runCLI(["split", repoPath("Events/demo.jsonl"), "--shards", "2", "--out", space.path("")])
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("shard-01-of-02.jsonl' exists; pass --force"))
    #expect(try space.read("shard-01-of-02.jsonl") == Data("old\n".utf8))
    #expect(!FileManager.default.fileExists(atPath: space.path("shard-00-of-02.jsonl")))
    let forced = runCLI(["split", repoPath("Events/demo.jsonl"), "--shards", "2", "--out", space.path(""), "--force"])
    #expect(forced.status == 0)
    #expect(try space.read("shard-01-of-02.jsonl") != Data("old\n".utf8))
  }

  @Test("split keeps the same catalog.json already in the directory and refuses another without --force")
  func catalogCopy() throws {
    let space = try OutputDirectory()
    let log = repoPath("Events/demo.jsonl")
    #expect(runCLI(["split", log, "--shards", "2", "--out", space.path("")]).status == 0)
    #expect(runCLI(["split", log, "--shards", "3", "--out", space.path("")]).status == 0)
    try space.write("catalog.json", "{}")
    let refused = runCLI(["split", log, "--shards", "4", "--out", space.path("")])
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("catalog.json' exists; pass --force"))
    #expect(!FileManager.default.fileExists(atPath: space.path("shard-00-of-04.jsonl")))
    #expect(runCLI(["split", log, "--shards", "4", "--out", space.path(""), "--force"]).status == 0)
    #expect(try space.read("catalog.json") == Data(contentsOf: URL(fileURLWithPath: repoPath("Events/catalog.json"))))
  }

  @Test(
    "a line without a string subject stops split with exit 65 and leaves no shard file",
    arguments: [
      (#"{"id":"e2","type":"purchase"}"#, "field 'subject'"), (#"{"id":"e2","subject":7}"#, "field 'subject'"),
      ("{oops", "invalid JSON"),
    ])
  func badLine(line: String, message: String) throws {
    let good = EventLines.line(.purchase(id: "e1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "t1"))
    let space = try Workspace(log: good + "\n" + line + "\n" + good + "\n")
    try FileManager.default.createDirectory(atPath: space.path("out"), withIntermediateDirectories: false)
    let result = runCLI(["split", space.log, "--shards", "4", "--out", space.path("out")])
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("log.jsonl:2"), "\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: space.path("out")).isEmpty)
  }

  @Test(
    "bad split options are usage errors",
    arguments: [
      (["--shards", "0", "--out", "DIR"], "'--shards': '0'"), (["--shards", "4097", "--out", "DIR"], "'--shards': '4097'"),
      (["--shards", "x", "--out", "DIR"], "'--shards': 'x'"), (["--out", "DIR"], "'--shards <n>'"),
      (["--shards", "2"], "'--out <dir>'"),
    ])
  func usage(options: [String], message: String) throws {
    let space = try Workspace()
    let result = runCLI(["split", repoPath("Events/demo.jsonl")] + options.map { $0 == "DIR" ? space.path("") : $0 })
    #expect(result.status == 64)
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  @Test("split makes a missing output directory, and removes it again when the split fails")
  func missingDirectory() throws {
    let space = try Workspace()
    let made = space.path("made")
    let result = runCLI(["split", repoPath("Events/demo.jsonl"), "--shards", "2", "--out", made])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: made + "/shard-00-of-02.jsonl"))
    #expect(FileManager.default.fileExists(atPath: made + "/catalog.json"))

    try "{\"id\":\"e1\"}\n".write(toFile: space.path("bad.jsonl"), atomically: true, encoding: .utf8)
    let failed = space.path("failed")
    let bad = runCLI([
      "split", space.path("bad.jsonl"), "--catalog", repoPath("Events/catalog.json"), "--shards", "2", "--out", failed,
    ])
    #expect(bad.status == 65, "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: failed))
  }

  @Test("split refuses an output path that is a file")
  func outputIsFile() throws {
    let space = try Workspace()
    try "x".write(toFile: space.path("file"), atomically: true, encoding: .utf8)
    let result = runCLI(["split", repoPath("Events/demo.jsonl"), "--shards", "2", "--out", space.path("file")])
    #expect(result.status == 74)
    #expect(result.stderr.contains("not a directory"))
  }
}

/// An empty temporary directory for split's output.
private struct OutputDirectory {
  let directory = try! temporaryDirectory()

  init() throws {}

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  func write(_ name: String, _ text: String) throws {
    try text.write(toFile: path(name), atomically: true, encoding: .utf8)
  }

  func read(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }
}
