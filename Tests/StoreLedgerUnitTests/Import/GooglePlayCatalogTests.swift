import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerStorage

/// `import googleplay --emit-catalog`: each plan's `period` from a `monetization.subscriptions`
/// document, else from its full-price charges' lengths, else none; and the monetization
/// documents themselves, recognized, checked and kept like the other documents.
@Suite("Google Play import: starting catalog with plan periods")
struct GooglePlayCatalogTests: GooglePlayPlanDocuments {
  typealias G = GP

  /// The draft's products, parsed, and its notes.
  static func draft(_ lines: [String], store: [UInt8] = [], sourceLocation: SourceLocation = #_sourceLocation) throws
    -> (products: JSONValue, notes: [String])
  {
    let (text, notes) = try GooglePlayImporter.emitCatalog(
      lines.joined(separator: "\n"), file: "input.jsonl", documentStore: store)
    return (try #require(try JSONValue.parse(text)["products"], sourceLocation: sourceLocation), notes)
  }

  /// The period the draft gives `product`, and the note about it.
  static func period(_ lines: [String], of product: String, store: [UInt8] = []) throws -> (String?, String) {
    let (products, notes) = try draft(lines, store: store)
    let note = notes.first { $0.hasPrefix("period of '\(product)'") } ?? "(no note)"
    return (products[product]?["period"]?.stringValue, note)
  }

  /// A one-month full-price charge of `pro:monthly` (31 days: 1 Jan to 1 Feb).
  static let monthCharge = G.subscription(expiry: "2026-02-01T10:00:00Z")

  struct Stated: CustomTestStringConvertible, Sendable {
    var duration: String
    var type: String
    var expected: String?
    var testDescription: String { "\(type) \(duration) → \(expected ?? "no period")" }
  }

  @Test(
    "a monetization.subscriptions document states the plan's period exactly, whatever its charges' lengths",
    arguments: [
      Stated(duration: "P1W", type: "autoRenewingBasePlanType", expected: "P1W"),
      Stated(duration: "P7D", type: "autoRenewingBasePlanType", expected: "P1W"),
      Stated(duration: "P1M", type: "autoRenewingBasePlanType", expected: "P1M"),
      Stated(duration: "P2M", type: "autoRenewingBasePlanType", expected: "P2M"),
      Stated(duration: "P3M", type: "prepaidBasePlanType", expected: "P3M"),
      Stated(duration: "P6M", type: "installmentsBasePlanType", expected: "P6M"),
      Stated(duration: "P1Y", type: "autoRenewingBasePlanType", expected: "P1Y"),
      Stated(duration: "P12M", type: "autoRenewingBasePlanType", expected: "P1Y"),
      // Google also sells every 4 weeks or 4 months: not a catalog period, and not guessed.
      Stated(duration: "P4W", type: "autoRenewingBasePlanType", expected: nil),
      Stated(duration: "P4M", type: "autoRenewingBasePlanType", expected: nil),
    ])
  func stated(_ row: Stated) throws {
    let document = Self.plans([BasePlan(id: "monthly", type: row.type, period: row.duration)])
    let (period, note) = try Self.period([Self.monthCharge, document], of: "pro:monthly")
    #expect(period == row.expected)
    let field = "basePlans[0].\(row.type).billingPeriodDuration"
    if let expected = row.expected {
      #expect(note == "period of 'pro:monthly': \(expected), stated by monetization.subscriptions on line 2 (field '\(field)')")
    } else {
      #expect(
        note
          == "period of 'pro:monthly': left out: monetization.subscriptions on line 2 (field '\(field)') states \(row.duration), which is not one of the catalog's periods (P1W, P1M, P2M, P3M, P6M, P1Y)"
      )
    }
  }

  @Test("a list response gives every subscription's plans, each as SUBSCRIPTION:BASE_PLAN in its group")
  func listResponse() throws {
    let list =
      #"{"subscriptions":[\#(Self.plans([BasePlan(id: "monthly", period: "P1M"), BasePlan(id: "annual", period: "P1Y")])),\#(Self.plans([BasePlan(id: "weekly", period: "P1W")], subscription: "plus"))],"nextPageToken":""}"#
    let (products, notes) = try Self.draft([list])
    #expect(products["pro:monthly"]?["period"]?.stringValue == "P1M")
    #expect(products["pro:annual"]?["period"]?.stringValue == "P1Y")
    #expect(products["pro:annual"]?["group"]?.stringValue == "pro")
    #expect(products["plus:weekly"]?["period"]?.stringValue == "P1W")
    #expect(products["plus:weekly"]?["group"]?.stringValue == "plus")
    #expect(products["plus:weekly"]?["type"]?.stringValue == "auto_renewable")
    #expect(notes.contains("period of 'plus:weekly': P1W, stated by monetization.subscriptions on line 1 (field 'subscriptions[1].basePlans[0].autoRenewingBasePlanType.billingPeriodDuration')"))
  }

  struct Inferred: CustomTestStringConvertible, Sendable {
    var name: String
    var lines: [String]
    var expected: String?
    var note: String
    var testDescription: String { name }
  }

  @Test(
    "without a monetization document the period is the nominal period nearest to the full-price charges' lengths, else none",
    arguments: [
      Inferred(
        name: "a first order and its renewal, a month each: P1M from two charges",
        lines: [
          G.subscription(expiry: "2026-02-01T10:00:00Z"),
          G.subscription(order: G.orderA + "..0", expiry: "2026-03-01T10:00:00Z"),
        ], expected: "P1M", note: "P1M, inferred from the length of 2 full-price charges (the nearest nominal period); no monetization.subscriptions document states it"),
      Inferred(
        name: "one order of 365 days: P1Y",
        lines: [G.subscription(expiry: "2027-01-01T10:00:00Z")],
        expected: "P1Y", note: "P1Y, inferred from the length of 1 full-price charge (the nearest nominal period); no monetization.subscriptions document states it"),
      Inferred(
        name: "49 days, past the 45.66-day midpoint of one and two months: P2M",
        lines: [G.subscription(expiry: "2026-02-19T10:00:00Z")],
        expected: "P2M", note: "P2M, inferred from the length of 1 full-price charge (the nearest nominal period); no monetization.subscriptions document states it"),
      Inferred(
        name: "45 days is nearer to one month: P1M",
        lines: [G.subscription(expiry: "2026-02-15T10:00:00Z")],
        expected: "P1M", note: "P1M, inferred from the length of 1 full-price charge (the nearest nominal period); no monetization.subscriptions document states it"),
      Inferred(
        name: "a free trial's week is not the plan's period: none",
        lines: [G.subscription(expiry: "2026-01-08T10:00:00Z", phase: "freeTrial", offer: "trial")],
        expected: nil, note: "left out: no monetization.subscriptions document states it, and no full-price charge of it has a known length"),
      Inferred(
        name: "a renewal whose previous order is unknown has no known length: none",
        lines: [G.subscription(order: G.orderA + "..3", expiry: "2026-05-01T10:00:00Z")],
        expected: nil, note: "left out: no monetization.subscriptions document states it, and no full-price charge of it has a known length"),
      Inferred(
        name: "a license tester's 5-minute renewals tell no period: none, and the note says why",
        lines: [
          G.subscription(start: "2026-01-01T10:00:00Z", expiry: "2026-01-01T10:05:00Z", test: true),
          G.subscription(order: G.orderA + "..0", start: "2026-01-01T10:00:00Z", expiry: "2026-01-01T10:10:00Z", test: true),
        ], expected: nil, note: "left out: no monetization.subscriptions document states it, and no full-price charge of it has a known length; its test purchases renew on Google's accelerated clock, which tells no period"),
    ])
  func inferred(_ row: Inferred) throws {
    let (period, note) = try Self.period(row.lines, of: "pro:monthly")
    #expect(period == row.expected)
    #expect(note == "period of 'pro:monthly': " + row.note)
  }

  @Test("the most frequent length wins, ties to the shorter period")
  func mostFrequent() throws {
    let months = [
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.subscription(order: G.orderA + "..0", expiry: "2026-03-01T10:00:00Z"),
      G.subscription(order: G.orderA + "..1", expiry: "2026-06-01T10:00:00Z"),
    ]
    #expect(try Self.period(months, of: "pro:monthly").0 == "P1M")
    // Without the first order the renewal after it has no known start; the next one's 92 days.
    #expect(try Self.period(Array(months.dropFirst()), of: "pro:monthly").0 == "P3M")
    let tie = [G.subscription(expiry: "2026-02-01T10:00:00Z"), G.subscription(order: G.orderA + "..0", expiry: "2026-05-01T10:00:00Z")]
    #expect(try Self.period(tie, of: "pro:monthly").0 == "P1M")
  }

  @Test("a plan with neither a stated period nor a charge has no period; a one-time product's type is a placeholder")
  func neither() throws {
    let document = Self.plans([BasePlan(id: "monthly", type: nil), BasePlan(id: "annual", period: nil)])
    let (products, notes) = try Self.draft([document, G.product()])
    #expect(products["pro:monthly"]?["period"] == nil)
    #expect(products["pro:annual"]?["period"] == nil)
    #expect(products["pro:monthly"]?["type"]?.stringValue == "auto_renewable")
    #expect(notes.contains("period of 'pro:annual': left out: no monetization.subscriptions document states it, and no full-price charge of it has a known length"))
    #expect(products["coins"]?["type"]?.stringValue == "TODO:consumable-or-non_consumable")
    #expect(products.objectMembers?.map { $0.0 }.sorted() == ["coins", "pro:annual", "pro:monthly"])
  }

  @Test("a malformed monetization document is refused, by --emit-catalog and by the import, naming file, line and field", arguments: malformed)
  func refused(_ row: Malformed) {
    do {
      _ = try GooglePlayImporter.emitCatalog(row.document, file: "input.jsonl")
      Issue.record("--emit-catalog accepted \(row.document)")
    } catch {
      #expect(error.diagnostics.filter { $0.severity == .error }.map(\.description) == [row.error])
    }
    #expect(G.importErrors([row.document]) == [row.error])
  }

  @Test("an import keeps a monetization document once, counts it as skipped, and it adds no event")
  func importKeeps() throws {
    let document = Self.plans([BasePlan(id: "monthly", period: "P1M")])
    let result = try #require(G.importEvents([document, document, G.subscription(expiry: "2026-02-01T10:00:00Z")]))
    let alone = try #require(G.importEvents([G.subscription(expiry: "2026-02-01T10:00:00Z")]))
    #expect(result.eventLines == alone.eventLines)
    #expect(result.skipped["monetization.subscriptions"] == 1)
    let keptLines = result.documentLines.filter { $0.hasPrefix(#"{"token":"monetization.subscriptions plans""#) }
    #expect(keptLines.count == 1)
    // Kept once: importing it again with the store adds no line.
    let store = Array(result.documentLines.map { $0 + "\n" }.joined().utf8)
    let again = try GooglePlayImporter.importEvents(
      document, file: "input.jsonl", catalog: G.catalog, options: GooglePlayImportOptions(), documentStore: store)
    #expect(again.documentLines.isEmpty)
    let (period, note) = try Self.period([G.subscription(expiry: "2026-02-01T10:00:00Z")], of: "pro:monthly", store: store)
    #expect(period == "P1M")
    #expect(note.contains("stated by a kept monetization.subscriptions document"))
  }
}
