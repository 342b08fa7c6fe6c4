import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// `LedgerKnowledge` learns from each line through the one typed reader (`NewEvent(json:)`): what
/// it learns follows the line's values, not how the line spells them.
@Suite("LedgerKnowledge: what a log already knows")
struct LedgerKnowledgeTests {
  /// The knowledge of `lines`, one log line each.
  static func knowledge(_ lines: [String]) -> LedgerKnowledge {
    LedgerKnowledge.read(log: Array(lines.joined(separator: "\n").utf8))
  }

  /// An App Store purchase line, compact with sorted keys, as the importer writes it.
  static let purchase =
    #"{"at":"2026-01-01T00:00:00Z","id":"appstore:1:purchase","meta":{"source":"appstore"},"product":"p","recorded":"2026-01-02T00:00:00Z","subject":"s","transaction":"1","type":"purchase"}"#

  @Test("every event an import wrote is known as the typed event it wrote, without recorded")
  func learnsWhatTheImporterWrote() throws {
    let play = try GooglePlayImporter.importEvents(
      GooglePlayImportLifecycleTests.story.joined(separator: "\n"), file: "x", catalog: GP.catalog,
      options: GooglePlayImportOptions(importedAt: Timestamp.parseRFC3339("2026-07-01T00:00:00Z")))
    let lines = play.eventLines + AppStoreImportLifecycleTests.renewalsAndGraceLines
    #expect(lines.count > 10)
    let knowledge = Self.knowledge(lines)
    #expect(knowledge.events.count == lines.count)
    for line in lines {
      let event = try NewEvent(json: JSONValue.parse(line))
      #expect(knowledge.events[event.id] == event.withoutRecorded, "\(line)")
      #expect(knowledge.knownAt[event.id] == event.recorded ?? event.at, "\(line)")
    }
  }

  @Test("escaped strings are learned as the values they spell")
  func escapedStrings() throws {
    let line =
      #"{"at":"2026-01-01T00:00:00Z","id":"appstore:1:purchase","meta":{"source":"app\u0073tore","x":"a\"b"},"original_transaction":"o\/1","product":"p","subject":"s\u00e9","transaction":"1","type":"purchase"}"#
    let knowledge = Self.knowledge([line])
    let event = try #require(knowledge.events["appstore:1:purchase"])
    #expect(event.subject == "sé")
    #expect(event.meta["x"] == #"a"b"#)
    #expect(knowledge.appStoreUnitSubjects["o/1"] == "sé")
    #expect(knowledge.charges["1"]?.originalTransaction == "o/1")
  }

  @Test("another key order is the same event: a later copy known earlier moves when it was known")
  func otherKeyOrder() throws {
    let reordered =
      #"{"type":"purchase","transaction":"1","subject":"s","recorded":"2026-01-01T12:00:00Z","product":"p","meta":{"source":"appstore"},"id":"appstore:1:purchase","at":"2026-01-01T00:00:00Z"}"#
    let knowledge = Self.knowledge([Self.purchase, reordered])
    #expect(knowledge.events.count == 1)
    #expect(knowledge.knownAt["appstore:1:purchase"] == ts("2026-01-01T12:00:00Z"))
    // Other values under a known id: the first line is what the log knows, from when it knew it.
    let other = Self.purchase.replacingOccurrences(of: #""product":"p""#, with: #""product":"q""#)
      .replacingOccurrences(of: "2026-01-02T00:00:00Z", with: "2026-01-01T06:00:00Z")
    let first = Self.knowledge([Self.purchase, other])
    #expect(first.events["appstore:1:purchase"]?.product == "p")
    #expect(first.knownAt["appstore:1:purchase"] == ts("2026-01-02T00:00:00Z"))
  }

  @Test("times with a UTC offset are learned as the instants they name")
  func utcOffsets() throws {
    let line = Self.purchase.replacingOccurrences(of: #""at":"2026-01-01T00:00:00Z""#, with: #""at":"2026-01-01T02:00:00+02:00""#)
      .replacingOccurrences(of: "2026-01-02T00:00:00Z", with: "2026-01-01T19:30:00-04:30")
    let knowledge = Self.knowledge([line])
    #expect(knowledge.charges["1"]?.at == ts("2026-01-01T00:00:00Z"))
    #expect(knowledge.knownAt["appstore:1:purchase"] == ts("2026-01-02T00:00:00Z"))
    // The same instants spelled in UTC are the same event.
    #expect(knowledge.events["appstore:1:purchase"] == Self.knowledge([Self.purchase]).events["appstore:1:purchase"])
  }

  @Test("numbers in meta are kept as numbers, and a token that is not a string is no token")
  func numbersInMeta() throws {
    let line =
      #"{"at":"2026-01-01T00:00:00Z","expires":"2026-02-01T00:00:00Z","id":"googleplay:GPA.1:purchase","meta":{"priceMicros":4990000,"purchaseToken":"tok","source":"googleplay","test":true},"original_transaction":"tok","product":"p","subject":"acct","transaction":"GPA.1","type":"purchase"}"#
    let numericToken = line.replacingOccurrences(of: #""purchaseToken":"tok""#, with: #""purchaseToken":7"#)
      .replacingOccurrences(of: "GPA.1", with: "GPA.2")
    let knowledge = Self.knowledge([line, numericToken])
    let event = try #require(knowledge.events["googleplay:GPA.1:purchase"])
    #expect(event.metaValues["priceMicros"] == .integer(4_990_000))
    #expect(event.metaValues["test"] == .bool(true))
    #expect(knowledge.googlePlayTokens["tok"]?.subject == "acct")
    #expect(knowledge.charges["GPA.1"]?.subscriptionKey == "tok")
    #expect(knowledge.charges["GPA.2"]?.subscriptionKey == nil)
    #expect(knowledge.googlePlaySubjects.count == 1)
  }

  @Test("lines that are not imported events teach nothing; unreadable lines are passed over")
  func notImported() throws {
    let other = #"{"at":"2026-01-01T00:00:00Z","id":"mine","product":"lifetime","subject":"u","transaction":"t9","type":"purchase"}"#
    let manual = other.replacingOccurrences(of: #""id":"mine""#, with: #""id":"mine2","meta":{"source":"support"}"#)
      .replacingOccurrences(of: "t9", with: "t10")
    let unknownField = Self.purchase.replacingOccurrences(of: #""product":"p""#, with: #""product":"p","colour":"red""#)
    let notJSON = #"{"meta":{"source":"appstore"},"id":"x""#
    #expect(Self.knowledge([other, manual, unknownField, notJSON]).isEmpty)
    let knowledge = Self.knowledge([other, notJSON, Self.purchase])
    #expect(knowledge.events.count == 1 && knowledge.charges.count == 1)
  }

  @Test("a transfer written by hand, without meta.source, moves its unit and is no imported event")
  func transferByHand() throws {
    let transfer =
      #"{"at":"2026-01-10T00:00:00Z","id":"move-1","original_transaction":"1","subject":"s","to":"t","type":"transfer"}"#
    let knowledge = Self.knowledge([Self.purchase, transfer])
    #expect(knowledge.transfers["1"] == [KnownTransfer(id: "move-1", at: ts("2026-01-10T00:00:00Z"), from: "s", to: "t")])
    #expect(knowledge.events["move-1"] == nil)
    #expect(knowledge.appStoreUnitSubjects["1"] == "s")
  }

  @Test("charges, tokens, subjects and revocations are learned; lines of other sources are not")
  func learned() throws {
    let play = try GooglePlayImporter.importEvents(
      GooglePlayImportLifecycleTests.story.joined(separator: "\n"), file: "x", catalog: GP.catalog,
      options: GooglePlayImportOptions())
    let other = #"{"at":"2026-01-01T00:00:00Z","id":"mine","product":"lifetime","subject":"u","transaction":"t9","type":"purchase"}"#
    let knowledge = Self.knowledge(play.eventLines + [other])
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
