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

/// What a hostile value carries: set the window title, ring, clear the screen, print a fake
/// line, DEL, a C1 control (NEL), a line separator and a right-to-left override.
private let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\r\nFAKE\u{7F}\u{85}\u{2028}\u{202E}"

/// The escaped form of `hostile`.
private let hostileEscaped = #"\u001b]0;pwned\u0007\u001b[2J\u000d\u000aFAKE\u007f\u0085\u2028\u202e"#

/// A catalog whose every name carries `hostile`: product, group, entitlement, currency.
private let hostileCatalog: String = {
  let x = JSONWriter.compact(.string(hostile)).dropFirst().dropLast()
  return """
    {"products": {
      "sub\(x)": {"type": "auto_renewable", "group": "g\(x)", "level": 1, "entitlements": ["e\(x)"]},
      "coin\(x)": {"type": "consumable", "currency": "c\(x)", "units": 10}
    }}
    """
}()

/// A log whose every printed string carries `hostile`: subject, ids, transactions, currency,
/// an unknown reference (a warning) and a refund learned late (an absent reason with evidence).
private let hostileLog: String = {
  let x = JSONWriter.compact(.string(hostile)).dropFirst().dropLast()
  return [
    #"{"id":"p1\#(x)","type":"purchase","subject":"u\#(x)","at":"2026-01-01T00:00:00Z","product":"sub\#(x)","transaction":"t1\#(x)","expires":"2026-02-01T00:00:00Z","price":990,"currency":"USD"}"#,
    #"{"id":"c1\#(x)","type":"purchase","subject":"u\#(x)","at":"2026-01-01T00:00:00Z","product":"coin\#(x)","transaction":"t2\#(x)"}"#,
    #"{"id":"s1\#(x)","type":"consumption","subject":"u\#(x)","at":"2026-01-02T00:00:00Z","currency":"c\#(x)","quantity":3}"#,
    #"{"id":"r1\#(x)","type":"revocation","subject":"u\#(x)","at":"2026-01-10T00:00:00Z","transaction":"t1\#(x)","reason":"refund","recorded":"2026-01-12T00:00:00Z"}"#,
    #"{"id":"x1\#(x)","type":"expiration","subject":"u\#(x)","at":"2026-01-11T00:00:00Z","original_transaction":"nope\#(x)"}"#,
  ].joined(separator: "\n") + "\n"
}()

/// Whether text holds anything that acts on a terminal besides line feeds.
private func actsOnTerminal(_ text: String) -> Bool {
  text.unicodeScalars.contains { TerminalText.isControl($0) && $0 != "\n" }
}

@Suite("Text for terminals escapes control characters and clips long values (issue 18, item 5)")
struct TerminalEscapeTests {
  /// (input, escaped).
  static let escapes: [(String, String)] = [
    ("plain text, ünïcødé and 🎟", "plain text, ünïcødé and 🎟"),
    ("\u{1B}[2J", #"\u001b[2J"#), ("\u{07}", #"\u0007"#), ("a\rb", #"a\u000db"#), ("a\nb", #"a\u000ab"#),
    ("\t", #"\u0009"#), ("\u{0}", #"\u0000"#), ("\u{7F}", #"\u007f"#), ("\u{9B}31m", #"\u009b31m"#),
    ("\u{2028}\u{2029}", #"\u2028\u2029"#), ("\u{202E}evil\u{202C}", #"\u202eevil\u202c"#), ("\u{2066}\u{2069}", #"\u2066\u2069"#),
    ("\u{200F}\u{061C}", #"\u200f\u061c"#), (#"C:\path"#, #"C:\path"#),
  ]

  @Test("escaped writes control, C1, separator and bidi characters as \\u plus four hex digits", arguments: escapes.map(EscapedCase.init))
  func escaping(_ pair: EscapedCase<(String, String)>) {
    #expect(TerminalText.escaped(pair.value.0) == pair.value.1)
  }

  @Test("keepingNewlines leaves line feeds, still escapes carriage returns")
  func keepingNewlines() {
    #expect(TerminalText.escaped("a\r\nb\n", keepingNewlines: true) == "a\\u000d\nb\n")
  }

  @Test("clipped keeps at most 200 bytes of whole characters, then … and the full length")
  func clipping() {
    let huge = String(repeating: "é", count: 5_000_000)  // 10 MB
    let clipped = TerminalText.clipped(huge)
    #expect(clipped == String(repeating: "é", count: 100) + "…(10000000 bytes)")
    #expect(TerminalText.clipped(String(repeating: "a", count: 200)) == String(repeating: "a", count: 200))
    let controls = TerminalText.clipped(String(repeating: "\u{1B}", count: 100))
    #expect(controls == String(repeating: #"\u001b"#, count: 33) + "…(100 bytes)")
  }

  @Test("a 60 KB field name gives one short diagnostic line, not 60 KB of stderr")
  func longValueInDiagnostic() throws {
    let name = String(repeating: "k", count: 60_000)
    let space = try Workspace(log: #"{"\#(name)":1}"# + "\n")
    let result = runCLI(["check", space.log])
    #expect(result.status == 65)
    #expect(result.stderr.utf8.count < 1000)
    #expect(result.stderr.contains("unknown field '" + String(repeating: "k", count: 200) + "…(60000 bytes)'"))
  }

  @Test("a 10 MB id in an imported payload gives a diagnostic of about 2 KB, escaped")
  func hugeImportedValue() throws {
    let huge = String(repeating: "A", count: 10_000_000) + hostile
    let payload = JSONValue.object([
      ("transactionId", .string("1")), ("originalTransactionId", .string(huge)), ("productId", .string("pro.monthly")),
      ("purchaseDate", .integer(1_700_000_000_000)), ("expiresDate", .integer(1_702_000_000_000)),
      ("type", .string("Auto-Renewable Subscription")), ("environment", .string("Production")),
      ("inAppOwnershipType", .string("PURCHASED")),
    ])
    let space = try Workspace()
    let result = runCLI(
      ["import", "appstore", "-", "--no-verify", "--catalog", space.path("catalog.json")], stdin: JSONWriter.compact(payload))
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.utf8.count < 2 * 1024 + 200)
    #expect(result.stderr.contains("…(100"))
    #expect(!actsOnTerminal(result.stderr))
  }

  /// Commands that print text for people, with the output stream they print it on.
  static let textCommands: [[String]] = [
    ["query", "LOG", "--subject", "SUBJECT", "--at", "2026-01-20", "--as-of", "2026-01-11", "--format", "text"],
    ["query", "LOG", "--subject", "SUBJECT", "--during", "2026-01-05", "--format", "text"],
    ["query", "LOG", "--subject", "SUBJECT", "--at", "2026-01-05", "--explain", "--format", "text"],
    ["query", "LOG", "--subject", "xSUBJECT", "--at", "2026-01-05", "--format", "text"],
    ["timeline", "LOG", "--subject", "SUBJECT"],
    ["check", "LOG"],
    ["replay", "LOG", "--at", "2026-01-05"],
    ["report", "LOG", "--from", "2026-01-01", "--to", "2026-01-31", "--every", "month", "--format", "csv"],
  ]

  @Test("control bytes in every field text output prints come out escaped, on one line each", arguments: textCommands)
  func textOutput(arguments: [String]) throws {
    let space = try Workspace(log: hostileLog)
    try space.write("catalog.json", hostileCatalog)
    let subject = "u" + hostile
    let result = runCLI(
      arguments.map { $0 == "LOG" ? space.log : $0 == "SUBJECT" ? subject : $0 == "xSUBJECT" ? "x" + subject : $0 })
    #expect(result.status == 0, "\(result.stderr)")
    for (name, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
      #expect(!actsOnTerminal(text), "\(name) of \(arguments[0]) holds control characters")
      #expect(!text.split(separator: "\n").contains { $0.hasPrefix("FAKE") }, "\(name) of \(arguments[0]) printed a fake line")
    }
    #expect((result.stdout + result.stderr).contains(hostileEscaped))
  }

  /// (a line, the escaped phrase its error must hold).
  static let hostileErrors: [(String, String)] = {
    let x = JSONWriter.compact(.string(hostile)).dropFirst().dropLast()
    return [
      (#"{"id":"a","type":"consumption","subject":"u","at":"2026-01-02T00:00:00Z","currency":"c\#(x)","quantity":3}"#,
       "unknown currency 'c" + hostileEscaped + "'"),
      (#"{"id":"b","type":"purchase","subject":"u","at":"2026-01-02T00:00:00Z","product":"p\#(x)","transaction":"t"}"#,
       "unknown product 'p" + hostileEscaped + "'"),
      (#"{"id":"c","type":"purchase","subject":"u","at":"2026-01-02T00:00:00Z","product":"pro.lifetime","transaction":"t","\#(x)":1}"#,
       "unknown field '" + hostileEscaped + "'"),
    ]
  }()

  @Test("errors quoting hostile values are escaped, one line each", arguments: hostileErrors.map(EscapedCase.init))
  func errorOutput(_ pair: EscapedCase<(String, String)>) throws {
    let space = try Workspace(log: pair.value.0 + "\n")
    let result = runCLI(["check", space.log])
    #expect(result.status == 65)
    #expect(!actsOnTerminal(result.stderr))
    #expect(result.stderr.contains(pair.value.1))
    #expect(result.stderr.split(separator: "\n").count == 2)  // the error and the count
  }

  @Test("a report CSV header cell never starts a spreadsheet formula")
  func csvFormula() throws {
    let space = try Workspace(
      log: #"{"id":"a","type":"purchase","subject":"u","at":"2026-01-01T00:00:00Z","product":"c","transaction":"t"}"# + "\n"
        + #"{"id":"b","type":"consumption","subject":"u","at":"2026-01-02T00:00:00Z","currency":"=HYPERLINK(\"http://x\")","quantity":1}"# + "\n")
    try space.write("catalog.json", #"{"products": {"c": {"type": "consumable", "currency": "=HYPERLINK(\"http://x\")", "units": 1}}}"#)
    let result = runCLI(["report", space.log, "--from", "2026-01-01", "--to", "2026-01-31", "--every", "month", "--format", "csv"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains(#""spends.=HYPERLINK(""http://x"") (units)""#))
    for cell in result.stdout.split(separator: "\n").first?.split(separator: ",") ?? [] {
      let start = cell.drop(while: { $0 == "\"" }).first
      #expect(!["=", "+", "-", "@"].contains(start.map(String.init) ?? ""), "\(cell)")
    }
  }

  @Test("the real binary prints query --format text and its warnings escaped")
  func realBinary() throws {
    let space = try Workspace(log: hostileLog)
    try space.write("catalog.json", hostileCatalog)
    let process = Process()
    process.executableURL = try storeledgerBinary()
    process.arguments = ["query", space.log, "--subject", "xu" + hostile, "--at", "2026-01-05", "--format", "text"]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    for bytes in [stdout, stderr] {
      #expect(!bytes.contains { $0 < 0x20 && $0 != 0x0A || $0 == 0x7F }, "raw control bytes")
    }
    #expect(String(decoding: stderr, as: UTF8.self).contains("subject 'xu" + hostileEscaped + "' has no events"))
  }
}
