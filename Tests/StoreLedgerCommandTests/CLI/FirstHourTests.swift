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

private let demoLog = repoPath("Events/demo.jsonl")

@Suite("A new user's first hour: typos get a warning and a suggestion")
struct FirstHourTests {
  /// (name, known words, expected suggestions among words, among a ledger's subjects).
  static let nearCases: [(String, [String], [String], [String])] = [
    ("U1", ["u1", "u2", "U-1"], ["u1", "U-1", "u2"], ["u1"]),
    (" u1", ["u1", "u2"], ["u1", "u2"], ["u1"]),
    ("u7", ["u1", "u2"], ["u1", "u2"], []),
    ("wek", ["day", "week", "month"], ["week"], []),
    ("expries", ["expires", "grace_expires", "price"], ["expires"], ["expires"]),
    ("pro_monthly", ["pro.monthly", "pro.annual", "pro.lifetime"], ["pro.monthly"], ["pro.monthly"]),
    ("query", ["queries", "snapshot", "catalog"], ["queries"], ["queries"]),
    ("subjet", ["subject", "at", "as-of"], ["subject"], ["subject"]),
    ("customer-4201", ["customer-4210", "customer-4202", "customer-9999"], ["customer-4202", "customer-4210"], ["customer-4202", "customer-4210"]),
    ("completely-else", ["pro.monthly"], [], []),
  ]

  @Test("near matches: case, whitespace and plural first, then typos, fewer among subjects", arguments: nearCases)
  func near(name: String, known: [String], words: [String], subjects: [String]) {
    #expect(NearMatch.suggestions(for: name, among: known) == words)
    var table = SymbolTable()
    for candidate in known { _ = table.intern(candidate) }
    #expect(NearMatch.suggestions(for: name, in: table) == subjects)
  }

  @Test("query for a subject without events keeps the empty answer and warns with the nearest subject")
  func unknownSubject() {
    let result = runCLI(["query", demoLog, "--subject", "U1", "--at", "2026-03-05"])
    #expect(result.status == 0)
    #expect(
      result.stdout
        == #"{"as_of":null,"at":"2026-03-05T00:00:00Z","balances":{},"entitlements":{},"plans":{},"subject":"U1"}"# + "\n")
    #expect(
      result.stderr
        == "\(demoLog): warning: subject 'U1' has no events in the log, so the answer is empty; did you mean 'u1'?\n")
    let spaced = runCLI(["query", demoLog, "--subject", " u1", "--at", "2026-03-05"])
    #expect(spaced.stderr.hasSuffix("subject ' u1' has no events in the log, so the answer is empty; did you mean 'u1'?\n"))
    let unrelated = runCLI(["query", demoLog, "--subject", "nobody-at-all", "--at", "2026-03-05"])
    #expect(unrelated.stderr == "\(demoLog): warning: subject 'nobody-at-all' has no events in the log, so the answer is empty\n")
    let known = runCLI(["query", demoLog, "--subject", "u1", "--at", "2026-03-05"])
    #expect(known.stderr.isEmpty)
  }

  @Test("audit sums up queries for subjects without events in one bounded warning, after every answer")
  func unknownSubjectsInAudit() {
    let subjects = ["U1", "u1", "U1", "a", "b", "c", "d", "e", "f", "f"]
    let queries = subjects.map { #"{"subject":"\#($0)","at":"2026-03-05T00:00:00Z"}"# }.joined(separator: "\n")
    let result = runCLI(["audit", demoLog, "--queries", "-"], stdin: queries)
    #expect(result.status == 0)
    #expect(result.stdout.split(separator: "\n").count == subjects.count)
    #expect(
      result.stderr
        == "\(demoLog): warning: 9 queries name subjects with no events in the log, so their answers are empty: "
        + "'U1' (did you mean 'u1'?), 'a', 'b', 'c', 'd', and 3 more queries\n")
    let clean = runCLI(["audit", demoLog, "--queries", "-"], stdin: #"{"subject":"u1","at":"2026-03-05T00:00:00Z"}"#)
    #expect(clean.stderr.isEmpty)
  }

  @Test("--version prints the version, and 'help COMMAND' prints that command's help")
  func versionAndHelp() {
    let version = runCLI(["--version"])
    #expect(version.status == 0)
    #expect(version.stdout == "storeledger 1.1.0\n")
    let help = runCLI(["help", "query"])
    #expect(help.status == 0)
    #expect(help.stdout == runCLI(["query", "--help"]).stdout)
    #expect(help.stdout.contains("Example: storeledger query Events/demo.jsonl --subject u1 --at 2026-03-05"))
    let typo = runCLI(["help", "qurey"])
    #expect(typo.status == 64)
    #expect(typo.stderr.hasPrefix("Error: Unknown subcommand 'qurey'. Did you mean 'query'?\n"))
  }

  @Test("a mistyped option names the option it resembles", arguments: [
    (["audit", "LOG", "--query", "-"], "Error: Unknown option '--query'. Did you mean '--queries'?"),
    (["query", "LOG", "--subjet", "u1"], "Error: Unknown option '--subjet'. Did you mean '--subject'?"),
  ])
  func optionTypo(arguments: [String], expected: String) {
    let result = runCLI(arguments.map { $0 == "LOG" ? demoLog : $0 })
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix(expected + "\n"))
  }

  @Test("with the log and the default catalog both missing, the error names the log")
  func missingLogFirst() throws {
    let directory = try temporaryDirectory()
    let log = directory.appendingPathComponent("nolog.jsonl").path
    for command in [["query", log, "--subject", "u1"], ["check", log], ["replay", log], ["snapshot", log, "--out", log + ".snap"]] {
      let result = runCLI(command)
      #expect(result.status == 66)
      #expect(result.stdout.isEmpty)
      #expect(result.stderr == "error: no such file: \(log)\n", "\(command[0])")
    }
  }

  @Test("a missing default catalog says where it was looked for and how to name another")
  func missingDefaultCatalog() throws {
    let directory = try temporaryDirectory()
    let log = directory.appendingPathComponent("log.jsonl").path
    try "".write(toFile: log, atomically: true, encoding: .utf8)
    let catalog = directory.appendingPathComponent("catalog.json").path
    for command in [["check", log], ["append", log, "-"]] {
      let result = runCLI(command)
      #expect(result.status == 66)
      #expect(
        result.stderr
          == "error: no catalog: looked for \(catalog) (the default, catalog.json beside the log \(log)); "
          + "pass --catalog FILE to name the catalog\n")
    }
    let named = runCLI(["check", log, "--catalog", repoPath("Events/catalog.json")])
    #expect(named.status == 0)
  }

  @Test("append --recorded-as-at leaves recorded absent, --recorded-at T stamps T, and the default stamps now", arguments: [
    (["--recorded-as-at"], "", "0 stamped", true),
    (["--recorded-at", "2026-03-02"], #","recorded":"2026-03-02T00:00:00Z""#, "1 stamped", true),
    ([], #","recorded":"20"#, "1 stamped", false),
  ])
  func backfill(options: [String], stamp: String, summary: String, knownOn6March: Bool) throws {
    let space = try Workspace()
    let event = EventLines.line(.purchase(id: "b1", subject: "u9", at: ts("2026-03-01T09:00:00Z"), product: "pro.lifetime", transaction: "b1"))
    let result = runCLI(["append", space.log, "-"] + options, stdin: event + "\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "appended 1 event to \(space.log) (0 already present, \(summary) with recorded)\n")
    let stored = String(decoding: try space.read(), as: UTF8.self)
    #expect(stored.hasPrefix(String(event.dropLast()) + stamp))
    if stamp.isEmpty { #expect(stored == event + "\n") }
    let answer = runCLI(["query", space.log, "--subject", "u9", "--at", "2026-03-05", "--as-of", "2026-03-06"])
    #expect(answer.stdout.contains("pro.lifetime") == knownOn6March)
  }

  @Test("append of a redelivery recorded earlier writes it, says so, and the as-of answer follows; the same again writes nothing")
  func redeliveryLearnedEarlier() throws {
    let event = NewEvent.purchase(id: "b1", subject: "u9", at: ts("2026-03-01T09:00:00Z"), product: "pro.lifetime", transaction: "b1")
    let space = try Workspace(log: EventLines.line(event.recordedAt("2026-03-10T00:00:00Z")) + "\n")
    let knownOn6March = { runCLI(["query", space.log, "--subject", "u9", "--at", "2026-03-05", "--as-of", "2026-03-06"]).stdout.contains("pro.lifetime") }
    #expect(!knownOn6March())
    let earlier = EventLines.line(event.recordedAt("2026-03-02T00:00:00Z")) + "\n"
    let first = runCLI(["append", space.log, "-"], stdin: earlier)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout == "appended 0 events to \(space.log) (0 already present, 0 stamped with recorded, 1 learned earlier than the log had them)\n")
    #expect(knownOn6March())
    let before = try space.read()
    let again = runCLI(["append", space.log, "-"], stdin: earlier)
    #expect(again.stdout == "appended 0 events to \(space.log) (1 already present, 0 stamped with recorded)\n")
    #expect(try space.read() == before)
  }

  @Test("append refuses --recorded-at together with --recorded-as-at")
  func backfillOptionsExclusive() throws {
    let space = try Workspace()
    let result = runCLI(["append", space.log, "-", "--recorded-at", "2026-03-02", "--recorded-as-at"], stdin: "")
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("Error: Give at most one of '--recorded-at <time>' and '--recorded-as-at'.\n"))
  }

  /// (a log line, the message `check` prints for line 1 after `LOG:1[:col]: error: `).
  static let hintCases: [(String, String)] = [
    (
      #"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T00:00:00Z","product":"pro.monthly","transaction":"t1","expries":"2026-04-01T00:00:00Z"}"#,
      "1: error: unknown field 'expries' (fields are checked strictly; did you mean 'expires'?)"
    ),
    (
      #"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T00:00:00Z","product":"pro_monthly","transaction":"t1"}"#,
      "1: error: field 'product': unknown product 'pro_monthly' (not in the catalog; did you mean 'pro.monthly'?)"
    ),
    (
      #"{"id":"e1","type":"refund","subject":"u1","at":"2026-03-01T00:00:00Z","transaction":"t1"}"#,
      #"1: error: field 'type': unknown event type "refund"; a refund is a 'revocation' with "reason": "refund""#
    ),
    (
      #"{"id":"e1","type":"purchse","subject":"u1","at":"2026-03-01T00:00:00Z","product":"pro.lifetime","transaction":"t1"}"#,
      #"1: error: field 'type': unknown event type "purchse" (did you mean 'purchase'?); expected one of "#
        + EventKind.allNames.joined(separator: ", ")
    ),
    (
      #"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T00:00:00Z","product":"pro.lifetime","transaction":"t1","price":4.99,"currency":"USD"}"#,
      "1: error: field 'price': expected an integer, found 4.99; prices are integer thousandths of the currency unit (4.99 is 4990)"
    ),
    (
      #"[{"id":"e1","type":"purchase"}]"#,
      "1:1: error: invalid JSON: expected '{' at the start of an event; found '[': the log is JSON Lines, one event object per line, not a JSON array"
    ),
    (
      "\u{FEFF}" + #"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T00:00:00Z","product":"pro.lifetime","transaction":"t1"}"#,
      "1:1: error: invalid JSON: expected '{' at the start of an event; found a UTF-8 byte order mark (BOM): save the file as UTF-8 without a BOM"
    ),
    (
      "{\n  \"id\": \"e1\",\n  \"type\": \"purchase\"\n}",
      "1:2: error: invalid JSON: expected a field name in double quotes; the log is JSON Lines: each event is one whole JSON object on one line (not pretty-printed over several)"
    ),
    (
      #"{"notificationType":"DID_RENEW","subtype":"","data":{}}"#,
      "1: error: unknown field 'notificationType': this looks like an App Store payload, not a ledger event; use 'storeledger import appstore' to turn it into events"
    ),
  ]

  @Test("errors suggest the fix: did you mean, refund, thousandths, JSON Lines, BOM, App Store payloads", arguments: hintCases.map(EscapedCase.init))
  func hints(_ hint: EscapedCase<(String, String)>) throws {
    let (line, message) = hint.value
    let space = try Workspace(log: line + "\n")
    let result = runCLI(["check", space.log])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("\(space.log):\(message)\n"), "\(result.stderr)")
  }

  @Test("append says which file a conflicting line is in, and warns about a revocation of an unknown transaction")
  func appendPlaces() throws {
    let at = ts("2026-03-01T00:00:00Z")
    let space = try Workspace(log: EventLines.line(.purchase(id: "e1", subject: "u1", at: at, product: "pro.lifetime", transaction: "t1")) + "\n")
    let batch = EventLines.log([
      .purchase(id: "e2", subject: "u1", at: at, product: "pro.lifetime", transaction: "t2"),
      .purchase(id: "e2", subject: "u1", at: at, product: "pro.lifetime", transaction: "t3"),
      .purchase(id: "e1", subject: "u2", at: at, product: "pro.lifetime", transaction: "t4"),
      .purchase(id: "e5", subject: "u2", at: at, product: "pro.lifetime", transaction: "t1"),
    ])
    let before = try space.read()
    let result = runCLI(["append", space.log, "-"], stdin: batch + "\n")
    #expect(result.status == 65)
    #expect(
      result.stderr == """
        <stdin>:2: error: field 'id': id conflict: 'e2' was first used on line 1 of <stdin> for a different event (it differs in transaction)
        <stdin>:3: error: field 'id': id conflict: 'e1' was first used on line 1 of \(space.log) for a different event (it differs in subject, transaction)
        <stdin>:4: error: field 'transaction': transaction 't1' was already charged by the event on line 1 of \(space.log)

        """)
    #expect(try space.read() == before)
    let revocation = EventLines.line(.revocation(id: "r1", subject: "u1", at: ts("2026-03-02T00:00:00Z"), transaction: "t9", reason: .refund))
    let warned = runCLI(["append", space.log, "-", "--recorded-as-at"], stdin: revocation + "\n")
    #expect(warned.status == 0)
    #expect(
      warned.stderr
        == "<stdin>:1: warning: field 'transaction': 't9' has no purchase or renewal for this subject at this point; the event changes nothing\n")
    #expect(warned.stdout == "appended 1 event to \(space.log) (0 already present, 0 stamped with recorded)\n")
  }

  /// (typed text, --tz offset in minutes, expected instant or nil for a refusal).
  static let timeCases: [(String, Int64?, String?)] = [
    ("2026-03-05T12:00:00Z", nil, "2026-03-05T12:00:00Z"),
    ("2026-03-05 12:00:00Z", nil, "2026-03-05T12:00:00Z"),
    ("2026-03-05 14:00:00+02:00", nil, "2026-03-05T12:00:00Z"),
    ("2026-03-05", nil, "2026-03-05T00:00:00Z"),
    ("2026-03-05", 120, "2026-03-04T22:00:00Z"),
    ("2026-03-05T12:00", nil, nil),
    ("2026-03-05 12:00", 120, "2026-03-05T10:00:00Z"),
    ("2026-03-05T12:00:30.5", -300, "2026-03-05T17:00:30.500Z"),
    ("now", nil, "2026-03-09T17:45:00Z"),
    ("today", nil, "2026-03-09T00:00:00Z"),
    ("Yesterday", nil, "2026-03-08T00:00:00Z"),
    ("today", -600, "2026-03-09T10:00:00Z"),
    ("today", 480, "2026-03-09T16:00:00Z"),
    ("someday", nil, nil),
    ("2026-02-30", nil, nil),
  ]

  @Test("typed times: RFC 3339 with T or a space, dates in the --tz zone, now/today/yesterday, no offset only with --tz", arguments: timeCases)
  func typedTimes(text: String, offset: Int64?, expected: String?) {
    let time = TimeInput(now: ts("2026-03-09T17:45:00Z"), utcOffsetMinutes: offset)
    switch time.parse(text) {
    case .success(let instant): #expect(instant == expected.map(ts), "\(text)")
    case .failure: #expect(expected == nil, "\(text)")
    }
  }

  @Test("--at says precisely what is wrong with a time: a missing UTC offset, an unknown form, a bad --tz", arguments: [
    (["--at", "2026-03-05T12:00"], "Error: Invalid value for '--at': '2026-03-05T12:00': missing UTC offset: add Z or +02:00, or pass --tz +02:00."),
    (["--as-of", "soon"], "Error: Invalid value for '--as-of': 'soon' (expected an RFC 3339 time such as 2026-03-05T12:00:00Z or 2026-03-05 12:00:00+02:00, a date such as 2026-03-05, now, today or yesterday)."),
    (["--at", "2026-03-05", "--tz", "Europe/Pariss"], "Error: Invalid value for '--tz': 'Europe/Pariss' (expected Z, UTC, an offset such as +02:00 or a zone such as Europe/Paris)."),
  ])
  func timeErrors(options: [String], expected: String) {
    let result = runCLI(["query", demoLog, "--subject", "u1"] + options)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix(expected + "\n"))
  }

  @Test("query --at takes a local time with --tz, and today and now")
  func typedAt() throws {
    let local = runCLI(["query", demoLog, "--subject", "u1", "--at", "2026-03-05 12:00", "--tz", "+02:00"])
    #expect(local.status == 0)
    #expect(local.stdout.contains(#""at":"2026-03-05T10:00:00Z""#))
    for word in ["now", "today", "yesterday"] {
      let result = runCLI(["query", demoLog, "--subject", "u1", "--at", word, "--as-of", word])
      #expect(result.status == 0, "\(word): \(result.stderr)")
    }
  }

  @Test("audit lines take the forms --at takes, and name a missing UTC offset")
  func auditTimes() throws {
    let queries = [
      #"{"subject":"u1","at":"2026-03-05"}"#, #"{"subject":"u1","at":"2026-03-05 12:00:00Z","as_of":"2026-03-06"}"#,
      #"{"subject":"u1","at":"2026-03-05 14:00","as_of":null}"#,
    ]
    let local = runCLI(["audit", demoLog, "--queries", "-", "--tz", "+02:00"], stdin: queries.joined(separator: "\n"))
    #expect(local.status == 0, "\(local.stderr)")
    let ats = try local.stdout.split(separator: "\n").map { try JSONValue.parse(String($0))["at"] }
    #expect(ats == [JSONValue.string("2026-03-04T22:00:00Z"), .string("2026-03-05T12:00:00Z"), .string("2026-03-05T12:00:00Z")])
    let utc = runCLI(["audit", demoLog, "--queries", "-"], stdin: queries.joined(separator: "\n"))
    #expect(utc.status == 65)
    #expect(utc.stdout.isEmpty)
    #expect(utc.stderr == #"<stdin>:3: error: field 'at': missing UTC offset in "2026-03-05 14:00": add Z or +02:00, or pass --tz +02:00"# + "\n")
  }

  @Test("query --format text says what was held and why an entitlement is absent, as known then and now")
  func textFormat() {
    let result = runCLI(["query", demoLog, "--subject", "u1", "--at", "2026-03-05", "--as-of", "2026-03-06", "--format", "text"])
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        u1 at 5 Mar 2026, as known at 6 Mar 2026:
          pro: yes, by pro.monthly (active, purchased, until 1 Apr 2026 10:00 UTC)
          plan pro: pro.monthly, active until 1 Apr 2026 10:00 UTC, renews (transaction u1-t2)
        as known now:
          pro: no: the plan pro (pro.monthly, transaction u1-t2) is revoked; events e4 (line 4: renewal, effective 1 Mar 2026 10:00 UTC), e6 (line 6: revocation, refund, effective 4 Mar 2026 16:00 UTC, learned 9 Mar 2026 08:00 UTC)
          plan pro: pro.monthly, revoked; its period would have run until 1 Apr 2026 10:00 UTC (transaction u1-t2)

        """)
  }

  /// (at, as_of or nil, the line about `pro` in the text answer).
  static let absentCases: [(String, String?, String)] = [
    ("2026-02-20", nil, "pro: no: it ended at 20 Feb 2026 (pro.lifetime); it starts at 1 Mar 2026 (pro.lifetime); events r1 (line 2: revocation, refund, effective 20 Feb 2026)"),
    ("2026-01-05", nil, "pro: no: it starts at 1 Feb 2026 (pro.lifetime)"),
    ("2026-04-05", nil, "pro: no: it ended at 1 Apr 2026 (pro.lifetime, active); events r2 (line 4: revocation, other, effective 1 Apr 2026)"),
    ("2026-03-05", "2026-03-02", "pro: no: held then as known now (pro.lifetime from 1 Mar 2026), but not yet known at 2 Mar 2026"),
  ]

  @Test("an absent entitlement says whether it starts later, ended, or was not yet known", arguments: absentCases)
  func absentReasons(at: String, asOf: String?, line: String) throws {
    // Two grants of the same entitlement, the second learned late (recorded 3 Mar).
    let space = try Workspace(
      log: EventLines.log([
        .purchase(id: "g1", subject: "u1", at: ts("2026-02-01T00:00:00Z"), product: "pro.lifetime", transaction: "t1"),
        .revocation(id: "r1", subject: "u1", at: ts("2026-02-20T00:00:00Z"), transaction: "t1", reason: .refund),
        .purchase(id: "g2", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "t2").recordedAt("2026-03-03T00:00:00Z"),
        .revocation(id: "r2", subject: "u1", at: ts("2026-04-01T00:00:00Z"), transaction: "t2", reason: .other),
      ]) + "\n")
    let result = runCLI(["query", space.log, "--subject", "u1", "--at", at, "--format", "text"] + (asOf.map { ["--as-of", $0] } ?? []))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.contains(line), "\(result.stdout)")
  }

  @Test("query --during DAY lists when the subject held each entitlement that day, clipped to the day")
  func during() {
    let result = runCLI(["query", demoLog, "--subject", "u1", "--during", "2026-03-04"])
    #expect(result.status == 0)
    #expect(
      result.stdout
        == #"{"entitlements":{"pro":[{"from":"2026-03-04T00:00:00Z","ownership":"purchased","period":"normal","product":"pro.monthly","state":"active","to":"2026-03-04T16:00:00Z"}]},"from":"2026-03-04T00:00:00Z","subject":"u1","to":"2026-03-05T00:00:00Z"}"# + "\n")
    let later = runCLI(["query", demoLog, "--subject", "u1", "--during", "2026-03-06", "--format", "text"])
    #expect(later.stdout == "u1 from 6 Mar 2026 to 7 Mar 2026, as known now:\n  no entitlement at any time in it\n")
    let local = runCLI(["query", demoLog, "--subject", "u1", "--during", "2026-03-04", "--tz", "+02:00", "--format", "text"])
    #expect(local.stdout.hasPrefix("u1 from 3 Mar 2026 22:00 UTC to 4 Mar 2026 22:00 UTC, as known now:\n  pro: from 3 Mar 2026 22:00 UTC to 4 Mar 2026 16:00 UTC"))
    let both = runCLI(["query", demoLog, "--subject", "u1", "--during", "2026-03-04", "--at", "2026-03-04"])
    #expect(both.status == 64)
    #expect(both.stderr.hasPrefix("Error: '--during <day>' answers at full knowledge over a day: drop '--at' and '--as-of'.\n"))
    let format = runCLI(["query", demoLog, "--subject", "u1", "--format", "yaml"])
    #expect(format.stderr.hasPrefix("Error: Invalid value for '--format': 'yaml' (expected json, text or reply).\n"))
  }

  @Test("diff aligns intervals by time: one inserted interval is one line, and new and gone subjects are grouped")
  func diffAligned() throws {
    func pass(_ id: String, _ subject: String, _ at: String) -> String {
      EventLines.line(.purchase(id: "\(id)", subject: "\(subject)", at: ts("\(at)T00:00:00Z"), product: "pass.week", transaction: "\(id)"))
    }
    let common = [pass("w1", "u1", "2026-01-01"), pass("w2", "u1", "2026-01-15"), pass("w3", "u1", "2026-02-01")]
    let space = try Workspace()
    try space.write("a.jsonl", (common + [pass("g1", "gone", "2026-01-01")]).joined(separator: "\n") + "\n")
    try space.write("b.jsonl", ([pass("w0", "u1", "2025-12-20")] + common + [pass("n1", "new", "2026-01-03")]).joined(separator: "\n") + "\n")
    for name in ["a", "b"] {
      let result = runCLI(["snapshot", space.path("\(name).jsonl"), "--out", space.path("\(name).snap"), "--catalog", repoPath("Events/catalog.json")])
      #expect(result.status == 0, "\(result.stderr)")
    }
    let result = runCLI(["diff", space.path("a.snap"), space.path("b.snap")])
    #expect(result.status == 1)
    let subjects = result.stdout.split(separator: "\n").drop { !$0.hasPrefix("changed") }.joined(separator: "\n")
    #expect(
      subjects == """
        changed (1):
          subject "u1":
            entitlements.pro from 20 Dec 2025: added pass.week (active, purchased, until 27 Dec 2025)
            events: 3 → 4 records
        only in \(space.path("b.snap")) (1):
          subject "new": pro: from 3 Jan 2026, pass.week (active, purchased, until 10 Jan 2026)
        only in \(space.path("a.snap")) (1):
          subject "gone": held pro: from 1 Jan 2026, pass.week (active, purchased, until 8 Jan 2026)
        3 subjects differ
        """)
  }

  @Test("snapshot --check with a missing golden file says how to record it")
  func missingGolden() throws {
    let space = try Workspace(log: "")
    let golden = space.path("golden.json")
    let result = runCLI(["snapshot", space.log, "--check", golden])
    #expect(result.status == 66)
    #expect(
      result.stderr
        == "error: no such file: \(golden); to record it, run 'storeledger snapshot \(space.log) --out \(golden)' (review the file, then commit it)\n")
  }

  @Test("a log or a catalog can come from stdin ('-'), one input at a time")
  func stdinInputs() throws {
    let log = try String(contentsOfFile: demoLog, encoding: .utf8)
    let catalogPath = repoPath("Events/catalog.json")
    let expected = runCLI(["query", demoLog, "--subject", "u1", "--at", "2026-03-05"]).stdout
    #expect(runCLI(["query", "-", "--catalog", catalogPath, "--subject", "u1", "--at", "2026-03-05"], stdin: log).stdout == expected)
    let catalogText = try String(contentsOfFile: catalogPath, encoding: .utf8)
    #expect(runCLI(["query", demoLog, "--catalog", "-", "--subject", "u1", "--at", "2026-03-05"], stdin: catalogText).stdout == expected)
    let check = runCLI(["check", "-", "--catalog", catalogPath], stdin: log)
    #expect(check.stdout == "ok: <stdin>: 7 lines, 7 events, 0 duplicates skipped, 3 subjects, 0 warnings\n")
    let noCatalog = runCLI(["query", "-", "--subject", "u1"], stdin: log)
    #expect(noCatalog.status == 64)
    #expect(noCatalog.stderr.hasPrefix("Error: A log read from stdin ('-') needs '--catalog <file>' (a file, not '-').\n"))
    let snapshot = runCLI(["snapshot", "-", "--catalog", catalogPath, "--out", "x.json"], stdin: log)
    #expect(snapshot.status == 64)
    #expect(snapshot.stderr.hasPrefix("Error: 'snapshot' needs the log as a file: a snapshot records the digest of the file's bytes.\n"))
    let twice = runCLI(["audit", "-", "--catalog", catalogPath, "--queries", "-"], stdin: log)
    #expect(twice.status == 64)
    #expect(twice.stderr.hasPrefix("Error: Only one input can be read from stdin ('-').\n"))
  }
}
