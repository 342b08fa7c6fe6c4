import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerGenerate

@Suite("Google Play import: the command line")
struct GooglePlayImportCLITests: GooglePlayLifecycleStory {
  typealias G = GP

  @Test("import googleplay --append adds the events once; importing again adds nothing")
  func append() throws {
    let space = try Workspace()
    try G.catalogText.write(toFile: space.path("catalog.json"), atomically: true, encoding: .utf8)
    let input = Self.story.joined(separator: "\n")
    let first = runCLI(["import", "googleplay", "-", "--append", space.log], stdin: input)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("appended 9 events"))
    let second = runCLI(["import", "googleplay", "-", "--append", space.log], stdin: input)
    #expect(second.stdout.contains("appended 0 events"))
    #expect(second.stdout.contains("9 already in the log, not repeated"))
    #expect(runCLI(["check", space.log]).status == 0)
  }

  @Test("import --append continues a token chain that an earlier import wrote to the log")
  func appendContinuesChains() throws {
    let space = try Workspace()
    try G.catalogText.write(toFile: space.path("catalog.json"), atomically: true, encoding: .utf8)
    let first = [
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.subscription(
        G.tokenB, order: G.orderB, start: "2026-01-15T00:00:00Z", expiry: "2026-02-15T00:00:00Z",
        linked: G.tokenA),
    ]
    #expect(
      runCLI(
        ["import", "googleplay", "-", "--append", space.log], stdin: first.joined(separator: "\n")
      ).status == 0)
    let third = G.subscription(
      G.tokenC, order: "GPA.3300-0000-0000-00042", start: "2026-02-01T00:00:00Z",
      expiry: "2027-02-01T00:00:00Z",
      plan: "annual", linked: G.tokenB)
    let second = runCLI(["import", "googleplay", "-", "--append", space.log], stdin: third)
    #expect(second.status == 0, "\(second.stderr)")
    let log = String(decoding: try space.read(), as: UTF8.self)
    let last = try #require(
      log.split(separator: "\n").last { $0.contains("GPA.3300-0000-0000-00042") })
    #expect(last.contains(#""original_transaction":"\#(G.tokenA)""#))
    let query = runCLI(["query", space.log, "--subject", G.account, "--at", "2026-03-01"])
    #expect(query.stdout.contains(#""product":"pro:annual""#))
  }

  @Test(
    "errors exit 65 with FILE:LINE and leave the log unchanged; a missing file exits 66; misused flags 64"
  )
  func exitCodes() throws {
    let space = try Workspace(log: "")
    try G.catalogText.write(toFile: space.path("catalog.json"), atomically: true, encoding: .utf8)
    let bad = runCLI(
      ["import", "googleplay", "-", "--append", space.log],
      stdin: G.product() + "\n" + #"{"message":{"data":"@@@@"}}"#)
    #expect(bad.status == 65)
    #expect(bad.stdout.isEmpty)
    #expect(bad.stderr.contains("<stdin>:2: error: field 'message.data': not valid base64"))
    #expect(try space.read().isEmpty)
    let missing = runCLI([
      "import", "googleplay", space.path("nope.jsonl"), "--catalog", space.path("catalog.json"),
    ])
    #expect(missing.status == 66)
    #expect(
      runCLI([
        "import", "googleplay", "-", "--allow-sandbox", "--catalog", space.path("catalog.json"),
      ]).status == 64)
    #expect(
      runCLI(["import", "appstore", "-", "--allow-test", "--catalog", space.path("catalog.json")])
        .status == 64)
  }
}

@Suite("Google Play import: the sample export in Events/googleplay")
struct GooglePlaySampleExportTests: GooglePlayLifecycleStory {
  @Test("the README's import example imports, checks and answers the story it tells")
  func sampleExport() throws {
    let space = try Workspace()
    let catalogPath = repoPath("Events/googleplay/catalog.json")
    let arguments = [
      "import", "googleplay", repoPath("Events/googleplay/export.jsonl"), "--catalog", catalogPath,
      "--append", space.log,
    ]
    let result = runCLI(arguments)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("imported 11 events"))
    #expect(result.stdout.contains("  skipped 1 payload that carries no purchase, by type: testNotification (1)\n"))
    #expect(result.stderr.isEmpty, "no warnings expected: \(result.stderr)")
    #expect(runCLI(["check", space.log, "--catalog", catalogPath]).status == 0)
    func answer(_ at: String) throws -> JSONValue {
      let run = runCLI([
        "query", space.log, "--catalog", catalogPath, "--subject", "acct-7f3a9c21", "--at", at,
      ])
      return try JSONValue.parse(run.stdout.trimmingCharacters(in: .newlines))
    }
    #expect(try answer("2026-03-06T00:00:00Z")["plans"]?["pro"]?["state"] == .string("grace"))
    #expect(
      try answer("2026-03-15T00:00:00Z")["plans"]?["pro"]?["transaction"]
        == .string("GPA.3391-4471-0082-51663..1"))
    #expect(
      try answer("2026-04-02T00:00:00Z")["entitlements"]?["pro"]?["product"]
        == .string("pathfinder_lifetime"))
    #expect(
      try answer("2026-04-04T00:00:00Z")["entitlements"]?["pro"]?["product"]
        == .string("pro:annual"))
    #expect(try answer("2026-07-01T00:00:00Z")["plans"]?["pro"]?["will_renew"] == .bool(false))
    #expect(try answer("2027-03-21T00:00:00Z")["entitlements"] == .object([]))
    #expect(try answer("2026-03-01T00:00:00Z")["balances"]?["coins"] == .integer(200))
    #expect(runCLI(arguments).stdout.contains("appended 0 events"))
  }

  @Test(
    "resources without notifications: renewals wait by default, and begin where the previous period ended with --renewals-from-resources"
  )
  func renewalsFromResources() throws {
    let space = try Workspace()
    let catalogPath = repoPath("Events/googleplay/catalog.json")
    // The sample export as a backend that only polls resources would have it.
    let resources = try String(contentsOfFile: repoPath("Events/googleplay/export.jsonl"), encoding: .utf8)
      .split(separator: "\n").filter { !$0.contains("\"message\"") && !$0.contains("subscriptionNotification") }
      .joined(separator: "\n")
    try space.write("resources.jsonl", resources + "\n")
    func importResources(into log: String, _ extra: [String]) -> RunResult {
      runCLI(
        ["import", "googleplay", space.path("resources.jsonl"), "--catalog", catalogPath, "--append", log,
         "--recorded-at", "2026-12-01"] + extra)
    }
    func renewals(_ log: String) throws -> [JSONValue] {
      try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        .map { try JSONValue.parse(String($0)) }.filter { $0["type"] == .string("renewal") }
    }
    let waiting = importResources(into: space.path("waits.jsonl"), [])
    #expect(waiting.status == 0, "\(waiting.stderr)")
    #expect(waiting.stderr.contains("no SUBSCRIPTION_RENEWED/RECOVERED notification after the order before it"))
    #expect(try renewals(space.path("waits.jsonl")).isEmpty)
    let guessed = importResources(into: space.path("guessed.jsonl"), ["--renewals-from-resources"])
    #expect(guessed.status == 0, "\(guessed.stderr)")
    #expect(guessed.stderr.contains("its period begins where the previous one ended (--renewals-from-resources)"))
    let started = try renewals(space.path("guessed.jsonl")).map { $0["at"] }
    // The purchase's period ends 2026-02-05T10:00:00Z; the first renewal's at 2026-03-05T10:00:04Z.
    #expect(started == [.string("2026-02-05T10:00:00Z"), .string("2026-03-05T10:00:04Z")])
    #expect(runCLI(["check", space.path("guessed.jsonl"), "--catalog", catalogPath]).status == 0)
    // The library's option writes the same log.
    let store = try LedgerStore(
      logPath: space.path("library.jsonl"), catalog: try LedgerCatalog(contentsOfFile: catalogPath),
      createIfMissing: true, clock: .fixed(ts("2026-12-01T00:00:00Z")))
    _ = try store.importGooglePlay(resources, options: StoreImportOptions(startsGooglePlayRenewalsAtPreviousEnd: true))
    #expect(try space.read("library.jsonl") == space.read("guessed.jsonl"))
    let appStore = runCLI(["import", "appstore", "-", "--renewals-from-resources"], stdin: "")
    #expect(appStore.status == 64)
    #expect(appStore.stderr.contains("'--renewals-from-resources' is for 'import googleplay' only."))
  }

  @Test(
    "two runs with --append and --recorded-at: the second adds only what is new, and --as-of answers as known between them"
  )
  func incrementalAsOf() throws {
    let space = try Workspace()
    try GP.catalogText.write(toFile: space.path("catalog.json"), atomically: true, encoding: .utf8)
    let story = Self.story
    let january = story.prefix(2).joined(separator: "\n")
    let rest = story.joined(separator: "\n")
    let first = runCLI(
      ["import", "googleplay", "-", "--append", space.log, "--recorded-at", "2026-01-02"],
      stdin: january)
    #expect(first.status == 0, "\(first.stderr)")
    let second = runCLI(
      ["import", "googleplay", "-", "--append", space.log, "--recorded-at", "2026-07-01"],
      stdin: rest)
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout.contains("already in the log, not repeated"))
    func plan(_ asOf: String?) throws -> JSONValue? {
      let output = runCLI(
        ["query", space.log, "--subject", GP.account, "--at", "2026-03-20", "--format", "json"]
          + (asOf.map { ["--as-of", $0] } ?? []))
      return try JSONValue.parse(output.stdout)["plans"]?["pro"]
    }
    #expect(try plan("2026-02-01")?["transaction"] == .string(GP.orderA))
    #expect(try plan(nil)?["product"] == .string("pro:annual"))
    #expect(runCLI(["check", space.log]).status == 0)
  }

  @Test("--trust-notifications and --recorded-at are for googleplay; --recorded-at with --recorded-as-at is a usage error")
  func flags() throws {
    let space = try Workspace()
    let trust = runCLI(["import", "appstore", "-", "--trust-notifications", "--catalog", space.path("catalog.json")], stdin: "")
    #expect(trust.status == 64)
    #expect(trust.stderr.contains("'--trust-notifications' is for 'import googleplay' only"))
    let both = runCLI(
      ["import", "googleplay", "-", "--recorded-at", "2026-01-01", "--recorded-as-at", "--catalog", space.path("catalog.json")],
      stdin: "")
    #expect(both.status == 64)
  }

  @Test(
    "a notification imported before its resource waits in LOG.googleplay-documents.jsonl and counts once the resource comes; a line a crash cut short there is passed over"
  )
  func notificationWaitsBesideTheLog() throws {
    let space = try Workspace()
    try GP.catalogText.write(toFile: space.path("catalog.json"), atomically: true, encoding: .utf8)
    let renewed = GP.push(GP.notification(2, at: "2026-02-01T10:00:03Z"), messageID: "2")
    let first = runCLI(
      ["import", "googleplay", "-", "--append", space.log],
      stdin: GP.push(GP.notification(4, at: "2026-01-01T10:00:00Z"), messageID: "1") + "\n" + renewed)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("imported 0 events"))
    #expect(first.stdout.contains("2 documents wait for the documents they need"))
    let documents = space.log + ".googleplay-documents.jsonl"
    // A crash cut the last line short: the reader passes over it, the next append starts anew.
    let handle = try #require(FileHandle(forWritingAtPath: documents))
    handle.seekToEndOfFile()
    handle.write(Data(#"{"token":"\#(GP.tokenA)","document":{"mess"#.utf8))
    handle.closeFile()
    let second = runCLI(
      ["import", "googleplay", "-", "--append", space.log],
      stdin: GP.subscription(expiry: "2026-02-01T10:00:00Z") + "\n"
        + GP.subscription(order: GP.orderA + "..0", expiry: "2026-03-01T10:00:03Z"))
    #expect(second.status == 0, "\(second.stderr)")
    let log = String(decoding: try space.read(), as: UTF8.self)
    // The renewal begins at the kept SUBSCRIPTION_RENEWED, not where the period ended.
    let renewal = try #require(log.split(separator: "\n").first { $0.contains(#""type":"renewal""#) })
    #expect(renewal.contains(#""at":"2026-02-01T10:00:03Z""#))
    #expect(runCLI(["check", space.log]).status == 0)
    let kept = try String(contentsOfFile: documents, encoding: .utf8)
    #expect(kept.split(separator: "\n").filter { $0.hasPrefix(#"{"token":"#) }.count >= 4)
  }
}
