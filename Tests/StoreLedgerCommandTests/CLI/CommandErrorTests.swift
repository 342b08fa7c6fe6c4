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

private let goodLine = EventLines.line(
  .purchase(id: "e1", subject: "u1", at: ts("2026-03-01T12:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-04-01T12:00:00Z")))

@Suite("Commands: answers, errors and exit codes (Docs/commands.md)")
struct CommandErrorTests {
  @Test("query prints the answer as one JSON object")
  func query() throws {
    let space = try Workspace(log: goodLine + "\n")
    let result = runCLI(["query", space.log, "--subject", "u1", "--at", "2026-03-05"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let answer = try JSONValue.parse(result.stdout.trimmingCharacters(in: .newlines))
    #expect(answer["at"] == .string("2026-03-05T00:00:00Z"))
    #expect(answer["entitlements"]?["pro"]?["product"] == .string("pro.monthly"))
  }

  @Test("check, replay, audit and repair succeed on a good log")
  func successes() throws {
    let space = try Workspace(log: goodLine + "\n")
    #expect(runCLI(["check", space.log]).stdout.hasPrefix("ok: "))
    let replay = runCLI(["replay", space.log])
    #expect(replay.status == 0)
    #expect(replay.stdout.contains("events read: 1"))
    #expect(replay.stdout.contains("pro: 1"))
    let audit = runCLI(["audit", space.log, "--queries", "-"], stdin: #"{"subject":"u1","at":"2026-03-05T00:00:00Z"}"# + "\n" + #"{"subject":"u2","at":"2026-03-05T00:00:00Z","as_of":null}"#)
    #expect(audit.status == 0)
    #expect(audit.stdout.split(separator: "\n").count == 2)
    #expect(runCLI(["repair", space.log]).stdout.contains("nothing to repair"))
  }

  /// (arguments after the log, stdin, expected status, phrase on stderr); `LOG` stands for the log path.
  static let failures: [([String], String, Int32, String)] = [
    (["query", "LOG"], "", 64, "Missing expected option '--subject <id>'"),
    (["query", "LOG", "--subject", "u1", "--at", "someday"], "", 64, "Invalid value for '--at'"),
    (["query", "LOG", "--subject", "u1", "--as-of", "2026-13-01"], "", 64, "Invalid value for '--as-of'"),
    (["query", "LOG", "--subjet", "u1"], "", 64, "Did you mean '--subject'?"),
    (["query"], "", 64, "Missing expected argument '<log>'"),
    (["check", "LOG", "extra"], "", 64, "Unexpected argument 'extra'"),
    (["chek", "LOG"], "", 64, "Did you mean 'check'?"),
    (["query", "MISSING", "--subject", "u1"], "", 66, "no such file"),
    (["check", "LOG", "--catalog", "MISSING"], "", 66, "no such file"),
    (["audit", "LOG", "--queries", "-"], #"{"subject":"u1","at":"2026-03-05T00:00:00Z"}"# + "\n" + #"{"subject":"u1","at":"soon"}"#, 65, "<stdin>:2: error: field 'at'"),
    (["audit", "LOG", "--queries", "-"], #"{"subject":"u1","when":"2026-03-05T00:00:00Z"}"#, 65, "unknown field 'when'"),
    (["audit", "LOG", "--queries", "MISSING"], "", 66, "no such file"),
    (["append", "LOG", "-"], EventLines.line(.purchase(id: "e2", subject: "u1", at: ts("2026-03-02T12:00:00Z"), product: "nope", transaction: "t2")), 65, "<stdin>:1: error: field 'product': unknown product 'nope'"),
    (["append", "LOG", "-"], EventLines.line(.purchase(id: "e1", subject: "u9", at: ts("2026-03-02T12:00:00Z"), product: "pro.lifetime", transaction: "t2")), 65, "<stdin>:1: error: field 'id': id conflict: 'e1' was first used on line 1"),
    (["append", "LOG", "-"], EventLines.line(.consumption(id: "e2", subject: "u1", at: ts("2026-03-02T12:00:00Z"), currency: "coins", quantity: 1)), 65, "<stdin>:1: error: field 'quantity': overdraw"),
    (["append", "LOG", "-"], "{\"id\":\"ok\",\"type\":\"purchase_pending\",\"subject\":\"u1\",\"at\":\"2026-03-02T12:00:00Z\",\"product\":\"pro.annual\"}\n{oops", 65, "<stdin>:2:2: error: invalid JSON"),
  ]

  @Test("bad input exits with the contract's code, says where, prints nothing on stdout and leaves the log unchanged", arguments: failures.map(EscapedCase.init))
  func failure(_ failure: EscapedCase<([String], String, Int32, String)>) throws {
    let (arguments, stdin, status, phrase) = failure.value
    let space = try Workspace(log: goodLine + "\n")
    let before = try space.read()
    let resolved = arguments.map { $0 == "LOG" ? space.log : $0 == "MISSING" ? space.path("missing.jsonl") : $0 }
    let result = runCLI(resolved, stdin: stdin)
    #expect(result.status == status)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains(phrase), "stderr was: \(result.stderr)")
    #expect(try space.read() == before)
  }

  @Test("a write that cannot happen exits 74 naming the path, with nothing on stdout")
  func writeError() throws {
    let space = try Workspace(log: goodLine + "\n")
    let target = space.path("no-such-directory/snapshot.json")
    let result = runCLI(["snapshot", space.log, "--out", target])
    #expect(result.status == 74)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr == "error: cannot write \(target): no such directory: \(space.path("no-such-directory")) (create it first)\n")
  }

  @Test("check reports every bad line with file, line and field, and exits 65")
  func checkReportsAll() throws {
    let space = try Workspace(log: [
      goodLine,
      #"{"id":"e2","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.monthly","transaction":"t2","expries":"2026-04-01T12:00:00Z"}"#,
      EventLines.line(.purchasePending(id: "e1", subject: "u1", at: ts("2026-03-01T12:00:00Z"), product: "pro.monthly")),
      #"{"id":"e4","type":"consumption","subject":"u1","at":"2026-03-01T12:00:00Z","currency":"coins","quantity":"x"}"#,
    ].joined(separator: "\n") + "\n")
    let result = runCLI(["check", space.log])
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("log.jsonl:2: error: unknown field 'expries'"))
    #expect(result.stderr.contains("log.jsonl:3: error: field 'id': id conflict: 'e1' was first used on line 1"))
    #expect(result.stderr.contains("log.jsonl:4: error: field 'quantity': expected an integer"))
    #expect(result.stderr.contains("3 errors"))
  }

  @Test("a bad catalog is exit 65 naming the product and field")
  func badCatalog() throws {
    let space = try Workspace(log: goodLine + "\n")
    try space.write("catalog.json", #"{"products":{"pro.monthly":{"type":"auto_renewable","entitlements":["pro"]},"p2":{"type":"subscription"},"p3":{"type":"non_renewing","entitlements":["pro"],"duration":"1 month"}}}"#)
    let result = runCLI(["check", space.log])
    #expect(result.status == 65)
    #expect(result.stderr.contains("product 'pro.monthly': field 'group' is required"))
    #expect(result.stderr.contains("unknown product type 'subscription'"))
    #expect(result.stderr.contains("product 'p3': field 'duration': expected an ISO 8601 duration"))
  }

  @Test("a torn last line is ignored with a warning, blocks append, and repair moves it aside")
  func tornLine() throws {
    let torn = #"{"id":"e2","type":"purch"#
    let space = try Workspace(log: goodLine + "\n" + torn)
    let check = runCLI(["check", space.log])
    #expect(check.status == 0)
    #expect(check.stderr.contains("log.jsonl:2: warning: torn last line"))
    let query = runCLI(["query", space.log, "--subject", "u1", "--at", "2026-03-05"])
    #expect(query.status == 0)
    let pending = EventLines.line(.purchasePending(id: "e3", subject: "u1", at: ts("2026-03-02T12:00:00Z"), product: "pro.annual"))
    let blocked = runCLI(["append", space.log, "-"], stdin: pending)
    #expect(blocked.status == 65)
    #expect(blocked.stderr.contains("run 'storeledger repair'"))
    try space.write("log.jsonl.torn", "earlier torn bytes\n")
    let repair = runCLI(["repair", space.log])
    #expect(repair.status == 0)
    #expect(String(decoding: try space.read(), as: UTF8.self) == goodLine + "\n")
    #expect(String(decoding: try space.read("log.jsonl.torn"), as: UTF8.self) == "earlier torn bytes\n" + torn + "\n")
    #expect(runCLI(["append", space.log, "-"], stdin: pending).status == 0)
  }

  @Test("append stamps recorded, skips events already present, and re-appending is a no-op")
  func appendIdempotent() throws {
    let space = try Workspace(log: goodLine + "\n")
    // e3 is raw text: the suffix checked below pins that append keeps a recorded line's bytes.
    let autoRenewOff = EventLines.line(
      .autoRenewChanged(id: "e2", subject: "u1", at: ts("2026-03-10T00:00:00Z"), originalTransaction: "t1", autoRenew: false))
    let batch = autoRenewOff + "\n" + #"""
      {"id":"e3","type":"purchase","subject":"u2","at":"2026-03-10T00:00:00Z","recorded":"2026-03-11T00:00:00Z","product":"coins.100","transaction":"c1"}
      """# + "\n" + goodLine + "\n"
    let first = runCLI(["append", space.log, "-"], stdin: batch)
    #expect(first.status == 0)
    #expect(first.stdout.contains("appended 2 events"))
    #expect(first.stdout.contains("1 already present, 1 stamped"))
    let afterFirst = try space.read()
    let lines = String(decoding: afterFirst, as: UTF8.self).split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[1].contains(#""recorded":""#))
    #expect(lines[2].hasSuffix(#""recorded":"2026-03-11T00:00:00Z","product":"coins.100","transaction":"c1"}"#))
    let second = runCLI(["append", space.log, "-"], stdin: batch)
    #expect(second.status == 0)
    #expect(second.stdout.contains("appended 0 events"))
    #expect(try space.read() == afterFirst)
    #expect(runCLI(["check", space.log]).status == 0)
  }

  @Test("--help works on every command and lists its options")
  func help() {
    for command in StoreLedgerCLI.commands {
      let result = runCLI([command.spec.name, "--help"])
      #expect(result.status == 0)
      #expect(result.stdout.contains("USAGE: storeledger \(command.spec.name)"))
    }
    #expect(runCLI(["--help"]).stdout.contains("SUBCOMMANDS"))
    #expect(runCLI([]).status == 64)
  }
}
