import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// The layouts an export may have, and the unsigned JWS reader.
@Suite("App Store import: input layouts and JWS")
struct AppStoreImportInputTests {
  static let transaction = AppleTransaction(
    transactionId: "8101", originalTransactionId: "8101", productId: "pro.lifetime",
    purchaseDate: "2026-03-01T00:00:00Z", signedDate: "2026-03-01T00:00:00Z",
    type: "Non-Consumable",
    appAccountToken: "u-8101", price: 29990)
  static let line =
    #"{"at":"2026-03-01T00:00:00Z","country":"US","currency":"USD","id":"appstore:8101:purchase","meta":{"environment":"Production","source":"appstore"},"ownership":"purchased","price":29990,"product":"pro.lifetime","store":"appstore","subject":"u-8101","transaction":"8101","type":"purchase"}"#

  /// The transaction as Apple pretty-prints it (one field per line).
  static var pretty: String {
    JSONWriter.pretty((try? JSONValue.parse(transaction.json)) ?? .null)
  }

  static let layoutCases: [(name: String, input: String)] = {
    let json = transaction.json
    let jws = ImportFixtures.jws(json)
    var cases: [(name: String, input: String)] = []
    cases.append(("JSON Lines", json))
    cases.append(("pretty-printed document", pretty))
    cases.append(("pretty-printed array", "[\n" + pretty + "\n]"))
    cases.append(("raw JWS line", jws))
    cases.append(("quoted JWS line", "\"" + jws + "\""))
    cases.append(("array of JWS on one line", "[\"" + jws + "\"]"))
    cases.append(("CRLF line ends and blank lines", "\r\n" + json + "\r\n\r\n"))
    cases.append(("byte order mark", "\u{FEFF}" + json))
    cases.append(("mixed lines", jws + "\n" + json))
    return cases
  }()

  @Test("every layout of the same transaction gives the same line", arguments: layoutCases.map(\.name))
  func layouts(name: String) throws {
    let input = try #require(Self.layoutCases.first { $0.name == name }).input
    let result = try #require(ImportFixtures.importEvents(input))
    #expect(result.eventLines == [Self.line], "\(name)")
  }

  @Test("an empty input imports nothing and is not an error")
  func emptyInput() throws {
    let result = try #require(ImportFixtures.importEvents(" \n\n"))
    #expect(result.eventLines.isEmpty)
    #expect(result.skipped.isEmpty)
  }

  @Test("errors in a pretty-printed array name the line where the element starts")
  func arrayElementLines() {
    var unknown = Self.transaction
    unknown.productId = "pro.weekly"
    let input =
      "[\n" + Self.pretty + ",\n" + JSONWriter.pretty((try? JSONValue.parse(unknown.json)) ?? .null)
      + "\n]"
    let elementLine = 2 + Self.pretty.split(separator: "\n").count
    #expect(
      ImportFixtures.importErrors(input) == [
        "input.jsonl:\(elementLine): error: field 'productId': unknown product 'pro.weekly' (not in the catalog); add it, or start a catalog with emitCatalog (--emit-catalog)"
      ])
  }

  @Test("a syntax error in a multi-line document is reported once, with line and column")
  func multiLineSyntaxError() {
    let input = "{\n  \"transactionId\": \"1\",\n  \"productId\" \"x\"\n}"
    #expect(
      ImportFixtures.importErrors(input) == ["input.jsonl:3:15: error: invalid JSON: expected ':'"])
  }

  @Test("each bad line of JSON Lines is reported with its column")
  func jsonLinesSyntaxErrors() {
    let input = Self.transaction.json + "\n  {\"a\" 1}\n[1,]\nnot json at all\n"
    #expect(
      ImportFixtures.importErrors(input) == [
        "input.jsonl:2:8: error: invalid JSON: expected ':'",
        "input.jsonl:3:4: error: invalid JSON: expected a value",
        "input.jsonl:4: error: expected a JSON document or a JWS (header.payload.signature) on this line",
      ])
  }

  /// `count` lines of prose, none a payload (a README given by mistake).
  static func prose(_ count: Int) -> [String] { (1...count).map { "Line \($0) of a README, not a payload." } }

  @Test(
    "an input whose first 8 lines are no payload is one error for the file; fewer, or a payload first, keep one error per line",
    arguments: [(8, nil), (12, nil), (7, 7), (8, 0)] as [(Int, Int?)])
  func notPayloads(proseLines: Int, payloadAt: Int?) {
    let prose = (1...proseLines).map { "Line \($0) of a README, not a payload." }
    /// The prose with `payload` as line `payloadAt` + 1 (none without one).
    func input(_ payload: String) -> [String] {
      var lines = prose
      if let payloadAt { lines.insert(payload, at: payloadAt) }
      return lines
    }
    let apple = ImportFixtures.importErrors(input(Self.transaction.json).joined(separator: "\n"))
    let google = GP.importErrors(input(GP.subscription(expiry: "2026-02-01T10:00:00Z")))
    if payloadAt == nil {
      #expect(
        apple == [
          "input.jsonl: error: not a file of store payloads: none of its first 8 lines is a JSON document or a JWS (line 1: expected a JSON document or a JWS (header.payload.signature) on this line)"
        ])
      #expect(
        google == [
          "input.jsonl: error: not a file of store payloads: none of its first 8 lines is a JSON document or a Pub/Sub message's base64 data (line 1: expected a JSON document on this line)"
        ])
    } else {
      #expect(apple.count == prose.count && apple.allSatisfy { $0.contains("expected a JSON document or a JWS") })
      #expect(google.count == prose.count && google.allSatisfy { $0.contains("expected a JSON document on this line") })
    }
  }

  @Test("base64url round-trips every length and rejects what is not base64url")
  func base64URL() {
    for length in 0...12 {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 251) }
      let encoded = JWS.base64URLEncode(bytes)
      #expect(!encoded.contains("="))
      #expect(JWS.base64URLDecode(Array(encoded.utf8)) == bytes)
      #expect(
        JWS.base64URLDecode(
          Array((encoded + String(repeating: "=", count: (4 - encoded.count % 4) % 4)).utf8))
          == bytes)
    }
    #expect(JWS.base64URLDecode(Array("_-8".utf8)) == [0xFF, 0xEF])
    for bad in ["a", "ab!c", "ab=c", "abcde", "a===", "ab==="] {
      #expect(JWS.base64URLDecode(Array(bad.utf8)) == nil, "\(bad)")
    }
  }

  @Test(
    "a JWS that does not decode says why",
    arguments: [
      ("eyJhIjoxfQ.eyJhIjoxfQ", JWS.DecodingError.notThreeParts),
      ("eyJhIjoxfQ.eyJhIjoxfQ.", .notThreeParts),
      ("eyJhIjoxfQ.e30.sig.x", .notThreeParts),
      ("eyJhIjoxfQ.e!30.sig", .badBase64(part: "payload")),
      ("bm9wZQ.e30.sig", .badJSON(part: "header", detail: "expected 'null'")),
      ("eyJhIjoxfQ.WzFd.sig", .badJSON(part: "payload", detail: "found an array")),
    ])
  func badJWS(text: String, error: JWS.DecodingError) {
    #expect(JWS.decodePayload(text) == .failure(error))
  }

  @Test("only three dot-separated base64url runs have the shape of a JWS")
  func jwsShape() {
    #expect(JWS.hasShape("eyJh.e30.c2ln"))
    #expect(JWS.hasShape("eyJh.e30.c2ln=="))
    #expect(!JWS.hasShape("eyJh.e30"))
    #expect(!JWS.hasShape("eyJh..c2ln"))
    #expect(!JWS.hasShape("eyJh.e30.c2ln."))
    #expect(!JWS.hasShape("ewoicHVyY2hhc2UtaW5mbyIgPSAi"))
    #expect(!JWS.hasShape("a.b c.d"))
  }
}
