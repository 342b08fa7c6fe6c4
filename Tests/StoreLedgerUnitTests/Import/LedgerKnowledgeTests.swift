import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// `LedgerKnowledge` reads imported lines with a byte scan; it must read what the JSON parser reads.
@Suite("LedgerKnowledge: what a log already knows")
struct LedgerKnowledgeTests {
  /// Lines both importers write, with `recorded` in the importer's place and where `append`
  /// stamps it (last), and lines the scan leaves to the parser.
  static var lines: [String] {
    let play = (try? GooglePlayImporter.importEvents(
      GooglePlayImportLifecycleTests.story.joined(separator: "\n"), file: "x", catalog: GP.catalog,
      options: GooglePlayImportOptions(
        importedAt: Timestamp.parseRFC3339("2026-07-01T00:00:00Z"))))?.eventLines ?? []
    let apple = AppStoreImportLifecycleTests.renewalsAndGraceLines
    let unstamped = (try? GooglePlayImporter.importEvents(
      GooglePlayImportLifecycleTests.story.joined(separator: "\n"), file: "x", catalog: GP.catalog,
      options: GooglePlayImportOptions()))?.eventLines ?? []
    let stamped = unstamped.prefix(3).map {
      String($0.dropLast()) + #","recorded":"2026-08-01T00:00:00Z"}"#
    }
    let escaped = #"{"at":"2026-01-01T00:00:00Z","id":"appstore:1:purchase","meta":{"source":"appstore","x":"a\"b"},"product":"p","recorded":"2026-01-02T00:00:00Z","subject":"s\u00e9","transaction":"1","type":"purchase"}"#
    return play + apple + stamped + [escaped]
  }

  @Test("the byte scan reads every imported line as the JSON parser does, without recorded")
  func scanMatchesParser() throws {
    let lines = Self.lines
    #expect(lines.count > 15)
    for line in lines {
      let bytes = ArraySlice(Array(line.utf8))
      let parsed = try #require(ImportedLineFields.parsed(Array(bytes)))
      #expect(ImportedLineFields.read(bytes) == parsed, "\(line)")
      #expect(!parsed.content.contains(#""recorded""#))
    }
  }

  @Test("charges, tokens, subjects and revocations are learned; lines of other sources are not")
  func learned() throws {
    let play = try GooglePlayImporter.importEvents(
      GooglePlayImportLifecycleTests.story.joined(separator: "\n"), file: "x", catalog: GP.catalog,
      options: GooglePlayImportOptions())
    let other = #"{"at":"2026-01-01T00:00:00Z","id":"mine","product":"lifetime","subject":"u","transaction":"t9","type":"purchase"}"#
    let knowledge = LedgerKnowledge.read(
      log: Array((play.eventLines + [other]).joined(separator: "\n").utf8))
    #expect(knowledge.events.count == play.eventLines.count)
    #expect(knowledge.charges["t9"] == nil)
    let renewal = try #require(knowledge.charges[GP.orderA + "..0"])
    #expect(renewal.kind == .renewal)
    #expect(renewal.expires == Timestamp.parseRFC3339("2026-03-01T10:00:03Z"))
    #expect(knowledge.googlePlayTokens[GP.tokenB]?.originalTransaction == GP.tokenA)
    #expect(knowledge.googlePlaySubjects[GP.tokenC] == GP.account)
    #expect(knowledge.revocations["GPA.3301-0001-0002-00003"]?.subject == GP.account)
  }
}
