import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Reading one log line strictly")
struct EventLineParserTests {
  static let valid =
    #"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.monthly","transaction":"t1","expires":"2026-04-01T12:00:00Z"}"#

  @Test("a valid line gives the event it describes")
  func valid() throws {
    let ledger = try ledger(Self.valid)
    #expect(ledger.events.count == 1)
    let event = ledger.events[0]
    #expect(event.kind == .purchase)
    #expect(event.at == ts("2026-03-01T12:00:00Z"))
    #expect(event.expires == ts("2026-04-01T12:00:00Z"))
    #expect(event.recorded == event.at)
    #expect(ledger.symbols.subjects.string(ledger.subject(ofEventAt: 0)) == "u1")
    #expect(ledger.catalog[event.product].id == "pro.monthly")
  }

  /// (line, the field or phrase the message must name)
  static let invalidLines: [(String, String)] = [
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.monthly","transaction":"t1","expries":"2026-04-01T12:00:00Z"}"#, "unknown field 'expries'"),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.monthly","transaction":"t1"}"#, "field 'expires' is required"),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.weekly","transaction":"t1"}"#, "unknown product 'pro.weekly'"),
    (#"{"id":"e1","type":"refund","subject":"u1","at":"2026-03-01T12:00:00Z","transaction":"t1"}"#, "unknown event type \"refund\""),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01","product":"pro.lifetime","transaction":"t1"}"#, "field 'at': expected an RFC 3339 timestamp"),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00.1234Z","product":"pro.lifetime","transaction":"t1"}"#, "field 'at'"),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":1772366400,"product":"pro.lifetime","transaction":"t1"}"#, "field 'at': expected an RFC 3339 timestamp string, found 1772366400"),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.monthly","transaction":"t1","expires":"2026-03-01T12:00:00Z"}"#, "field 'expires': expected a time later than 'at'"),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","expires":"2026-04-01T12:00:00Z"}"#, "field 'expires' is not allowed"),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","original_transaction":"t0"}"#, "field 'original_transaction' is not allowed"),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","quantity":2}"#, "field 'quantity' is not allowed"),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"coins.100","transaction":"t1","quantity":0}"#, "field 'quantity': expected an integer ≥ 1"),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"coins.100","transaction":"t1","quantity":1.5}"#, "field 'quantity': expected an integer"),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"coins.100","transaction":"t1","quantity":"2"}"#, "field 'quantity': expected an integer"),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","ownership":"family_shared"}"#, "field 'ownership'"),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","ownership":"gifted"}"#, "field 'ownership'"),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","offer":"free"}"#, "field 'offer'"),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","price":990}"#, "field 'currency' is required"),
    (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","price":990,"currency":"usd"}"#, "field 'currency': expected an ISO 4217 code"),
    (#"{"id":"e1","type":"renewal","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t2","original_transaction":"t1","expires":"2026-04-01T12:00:00Z"}"#, "field 'product': expected an auto_renewable product"),
    (#"{"id":"e1","type":"expiration","subject":"u1","at":"2026-03-01T12:00:00Z","original_transaction":"t1","reason":"bored"}"#, "field 'reason'"),
    (#"{"id":"e1","type":"revocation","subject":"u1","at":"2026-03-01T12:00:00Z","transaction":"t1","reason":"billing"}"#, "field 'reason'"),
    (#"{"id":"e1","type":"auto_renew_changed","subject":"u1","at":"2026-03-01T12:00:00Z","original_transaction":"t1","auto_renew":"no"}"#, "field 'auto_renew': expected true or false"),
    (#"{"id":"e1","type":"grace_entered","subject":"u1","at":"2026-03-01T12:00:00Z","original_transaction":"t1","grace_expires":"2026-02-01T12:00:00Z"}"#, "field 'grace_expires'"),
    (#"{"id":"","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#, "field 'id'"),
    (#"{"id":"e1","type":"purchase_pending","subject":"","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#, "field 'subject'"),
    (#"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1"}"#, "field 'transaction' is not allowed for type 'purchase_pending'"),
    (#"{"id":"e1","type":"consumption","subject":"u1","at":"2026-03-01T12:00:00Z","currency":"coins"}"#, "field 'quantity' is required"),
    (#"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","meta":[1]}"#, "field 'meta': expected an object"),
    (#"{"id":"e1","id":"e2","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#, "field 'id' appears twice"),
    (#"{"type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#, "field 'id' is required"),
    (#"{"id":"e1","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#, "field 'type' is required"),
    (#"{"id":null,"type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#, "field 'id': expected a string, found null"),
    (#"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime""#, "invalid JSON"),
    (#"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}x"#, "invalid JSON: unexpected data"),
    (#"["id","e1"]"#, "invalid JSON: expected '{'"),
    (#"{"id":"e\q1","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#, "invalid JSON: invalid escape"),
    (#"{"id":"e1","type":"purchase_pending","subject":"u\ud800","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#, "unpaired surrogate"),
  ]

  @Test("every broken rule is an error naming the line and the field", arguments: invalidLines)
  func invalid(line: String, phrase: String) throws {
    let diagnostics = try errors(line)
    try #require(diagnostics.count == 1)
    #expect(diagnostics[0].line == 1)
    #expect(diagnostics[0].file == "log.jsonl")
    #expect(diagnostics[0].exitCode == 65)
    #expect(diagnostics[0].message.contains(phrase), "message was: \(diagnostics[0].message)")
  }

  @Test("invalid JSON reports the byte column")
  func column() throws {
    let diagnostics = try errors(#"{"id" "e1"}"#)
    #expect(diagnostics.first?.column == 7)
    #expect(diagnostics.first?.description.hasPrefix("log.jsonl:1:7: error: invalid JSON") == true)
  }

  @Test("invalid UTF-8 inside a string is rejected")
  func invalidUTF8() throws {
    var builder = LedgerBuilder(catalog: try catalog(exampleCatalogText), file: "log.jsonl")
    var bytes = Array(#"{"id":"e1","type":"purchase_pending","subject":"u?","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#.utf8)
    let index = bytes.firstIndex(of: UInt8(ascii: "?"))!
    bytes[index] = 0xFF
    let outcome = bytes.withUnsafeBufferPointer { builder.add(line: $0, lineNumber: 1) }
    #expect(outcome == .rejected)
    #expect(builder.errors.first?.message.contains("invalid UTF-8") == true)
  }

  @Test("escapes and non-ASCII subjects decode to the same subject")
  func escapes() throws {
    let ledger = try ledger(
      #"""
      {"id":"e1","type":"purchase","subject":"Zo\u00eb","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1"}
      {"id":"e2","type":"purchase","subject":"Zoë","at":"2026-03-02T12:00:00Z","product":"coins.100","transaction":"t2"}
      {"id":"e\"3","type":"purchase","subject":"\ud83d\ude00","at":"2026-03-02T12:00:00Z","product":"coins.100","transaction":"t3"}
      """#)
    #expect(ledger.subjectCount == 2)
    #expect(ledger.subject(named: "Zoë") != nil)
    #expect(ledger.subject(named: "😀") != nil)
    var ids = ledger.symbols.ids
    ids.rebuildIndex()  // a loaded ledger keeps the strings, not their look-up index
    #expect(ids.lookup("e\"3") != nil)
  }

  @Test("ids of 128 characters pass and 129 fail; subjects of 256 pass and 257 fail")
  func lengthLimits() throws {
    func line(id: String, subject: String) -> String {
      #"{"id":"\#(id)","type":"purchase_pending","subject":"\#(subject)","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#
    }
    _ = try ledger(line(id: String(repeating: "é", count: 128), subject: String(repeating: "s", count: 256)))
    #expect(try errors(line(id: String(repeating: "i", count: 129), subject: "u")).first?.message.contains("field 'id'") == true)
    #expect(try errors(line(id: "i", subject: String(repeating: "s", count: 257))).first?.message.contains("field 'subject'") == true)
  }

  @Test("key order, spacing and optional fields with defaults are accepted")
  func spacing() throws {
    let ledger = try ledger(
      #"  { "subject" : "u1" , "at" : "2026-03-01T14:00:00+02:00", "type":"purchase","id":"e1","product":"pass.week","transaction":"t1", "meta": {"a": [1, 2.5, {"b": null}], "c": "\u00e9"}}  "#)
    #expect(ledger.events[0].at == ts("2026-03-01T12:00:00Z"))
  }

  @Test("a line longer than the limit is rejected with its length")
  func longLine() throws {
    let padding = String(repeating: "x", count: Limits.lineBytesMax)
    let line = #"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","meta":{"p":"\#(padding)"}}"#
    #expect(try errors(line).first?.message.contains("more than the limit") == true)
  }

  @Test("every problem on different lines is reported, not just the first")
  func everyProblem() throws {
    let diagnostics = try errors(
      """
      {"id":"e1","type":"nope","subject":"u1","at":"2026-03-01T12:00:00Z"}
      \(Self.valid)
      {"id":"e3"
      """)
    #expect(diagnostics.map(\.line) == [1, 3])
  }
}
