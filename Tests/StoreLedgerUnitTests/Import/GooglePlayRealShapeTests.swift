import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Documents shaped like the real ones of issue 35: line items without `offerPhase`, a revoked
/// subscription's copy fetched EXPIRED with its expiryTime moved back, and a cancellation told
/// by both the resource and the notification.
@Suite("Google Play import: real store shapes (issue 35)")
struct GooglePlayRealShapeTests {
  typealias G = GP

  private func engine(_ lines: [String]) throws -> QueryEngine {
    QueryEngine(ledger: try ledger(lines.joined(separator: "\n"), catalogText: G.catalogText))
  }

  @Test(
    "without offerPhase, a line item nothing marks as an offer's is priced from recurringPrice; an offer's is not, with a warning naming the order and orders.get",
    arguments: [
      (nil, false, true), ("intro-3m", false, false), (nil, true, false),
    ] as [(String?, Bool, Bool)])
  func priceWithoutOfferPhase(offer: String?, isUpgrade: Bool, isPriced: Bool) throws {
    let result = try #require(
      G.importEvents([
        G.subscription(
          G.tokenB, order: G.orderB, expiry: "2026-02-01T10:00:00Z",
          linked: isUpgrade ? G.tokenC : nil, phase: nil, offer: offer)
      ]))
    let event = try #require(G.events(result)["googleplay:\(G.orderB):purchase"])
    #expect(event["price"] == (isPriced ? .integer(4990) : nil))
    #expect(event["currency"] == (isPriced ? .string("EUR") : nil))
    #expect(event["offer"] == nil)
    let warned = result.warnings.filter { $0.description.contains("without a price") }
    #expect(warned.count == (isPriced ? 0 : 1))
    #expect(warned.allSatisfy { $0.description.contains("orders.get for '\(G.orderB)'") })
  }

  @Test("a renewal without offerPhase and without an offer is priced too")
  func renewalPriced() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z", phase: nil),
      G.notification(2, at: "2026-02-01T10:00:03Z"),
      G.subscription(order: G.orderA + "..0", expiry: "2026-03-01T10:00:03Z", phase: nil),
    ])
    let renewal = try #require(G.events(result)["googleplay:\(G.orderA)..0:renewal"])
    #expect(renewal["price"] == .integer(4990))
  }

  /// Imports `runs` one after another as `--append` does: each with what the log and the kept
  /// documents hold from the runs before. Returns the log's lines.
  private func appendRuns(_ runs: [[String]]) throws -> [String] {
    var log: [String] = []
    var store: [UInt8] = []
    for run in runs {
      let result = try GooglePlayImporter.importEvents(
        run.joined(separator: "\n"), file: "run.jsonl", catalog: G.catalog,
        options: GooglePlayImportOptions(),
        knowledge: LedgerKnowledge.read(log: Array(log.joined(separator: "\n").utf8)),
        documentStore: store)
      log += result.eventLines
      store += Array(result.documentLines.map { $0 + "\n" }.joined().utf8)
    }
    return log
  }

  /// A subscription revoked on 15 January (Google moved expiryTime back to the revocation):
  /// the active copy, SUBSCRIPTION_REVOKED 0.4 s later, the copy fetched EXPIRED after it.
  static let revoked: [String] = [
    G.subscription(
      expiry: "2026-02-01T10:00:00Z", phase: nil, fetched: "2026-01-01T10:00:01Z"),
    G.push(G.notification(12, at: "2026-01-15T10:00:00.400Z")),
    G.subscription(
      state: "EXPIRED", expiry: "2026-01-15T10:00:00Z",
      cancel: #"{"developerInitiatedCancellation":{}}"#, phase: nil, autoRenew: false,
      fetched: "2026-01-15T10:00:02Z"),
  ]

  @Test(
    "a copy fetched EXPIRED before its period's end ends access at its expiryTime, known from its fetchTime, without a voided list",
    arguments: [
      ("2026-01-15T09:59:59.999Z", nil, true), ("2026-01-15T10:00:00Z", nil, false),
      ("2026-01-20T00:00:00Z", nil, false),
      ("2026-01-15T10:00:00Z", "2026-01-15T10:00:01.999Z", true),
      ("2026-01-15T10:00:00Z", "2026-01-15T10:00:02Z", false),
    ] as [(String, String?, Bool)])
  func revokedCopyEndsAccess(at instant: String, asOf: String?, isEntitled: Bool) throws {
    let result = try #require(G.importEvents(Self.revoked))
    var engine = try engine(result.eventLines)
    let answer = engine.checkedAnswer(G.account, at: instant, asOf: asOf)
    #expect(answer.entitlements.isEmpty == !isEntitled)
    let revocations = result.eventLines.filter { $0.contains(#""type":"revocation""#) }
    #expect(revocations.count == 1)
  }

  @Test(
    "the voided purchase of a copy-revoked order is the same fact: in one import or a later one, before or after the copy, one revocation and the same answers",
    arguments: [0, 1, 2])
  func voidedListAddsNothing(arrangement: Int) throws {
    let voided = G.voidedList(G.tokenA, order: G.orderA, at: "2026-01-15T10:00:00Z", reason: 1)
    let runs: [[String]] = [
      [Self.revoked + [voided]], [Self.revoked, [voided]],
      [[Self.revoked[0], voided], Array(Self.revoked.dropFirst())],
    ][arrangement]
    let log = try appendRuns(runs)
    // A later run may write the line again with an earlier `recorded` (a redelivery).
    let revocations = log.filter { $0.contains(#""type":"revocation""#) }
    #expect(
      Set(revocations.compactMap { (try? JSONValue.parse($0))?["id"]?.stringValue }).count == 1)
    var engine = try engine(log)
    #expect(engine.checkedAnswer(G.account, at: "2026-01-15T09:59:59.999Z").entitlements.count == 1)
    #expect(engine.checkedAnswer(G.account, at: "2026-01-15T10:00:00Z").entitlements.isEmpty)
  }

  /// A user cancellation at 08:00:00.123 told by the copy's cancelTime and by
  /// SUBSCRIPTION_CANCELED 0.4 s later, the copy fetched after the notification.
  static let canceled: [String] = [
    G.subscription(expiry: "2026-02-01T10:00:00Z", fetched: "2026-01-01T10:00:01Z"),
    G.push(G.notification(3, at: "2026-01-20T08:00:00.523Z")),
    G.subscription(
      state: "CANCELED", expiry: "2026-02-01T10:00:00Z",
      cancel: G.userCancel(at: "2026-01-20T08:00:00.123Z"), autoRenew: false,
      fetched: "2026-01-20T08:00:01.600Z"),
  ]

  @Test(
    "one cancellation told by the copy and by SUBSCRIPTION_CANCELED is one auto_renew_changed at the copy's cancelTime, whichever document came first",
    arguments: [0, 1, 2, 3])
  func oneCancellation(arrangement: Int) throws {
    let (active, push, copy) = (Self.canceled[0], Self.canceled[1], Self.canceled[2])
    let runs: [[String]] = [
      [Self.canceled], [[active, push], [copy]], [[active, copy], [push]],
      [[copy], [push], [active]],
    ][arrangement]
    let log = try appendRuns(runs)
    let changes = log.filter { $0.contains(#""type":"auto_renew_changed""#) }
    // A later run may write the line again with an earlier `recorded` (a redelivery).
    #expect(Set(changes.compactMap { (try? JSONValue.parse($0))?["id"]?.stringValue }).count == 1)
    #expect(changes.allSatisfy { $0.contains(#""at":"2026-01-20T08:00:00.123Z""#) })
    var engine = try engine(log)
    #expect(
      engine.checkedAnswer(G.account, at: "2026-01-20T08:00:00.122Z").plans.byName.first?.value.willRenew == true
    )
    #expect(
      engine.checkedAnswer(G.account, at: "2026-01-20T08:00:00.123Z").plans.byName.first?.value.willRenew
        == false)
  }

  @Test(
    "a cancellation, a restart and a second cancellation: each SUBSCRIPTION_CANCELED is covered only by the cancelTime before it with no restart between"
  )
  func cancelRestartCancel() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.notification(3, at: "2026-01-10T08:00:00.400Z"),
      G.notification(7, at: "2026-01-12T08:00:00Z"),
      G.notification(3, at: "2026-01-20T08:00:00.400Z"),
      G.subscription(
        state: "CANCELED", expiry: "2026-02-01T10:00:00Z",
        cancel: G.userCancel(at: "2026-01-20T08:00:00Z"), autoRenew: false),
    ])
    let times = (result?.eventLines ?? []).compactMap { try? JSONValue.parse($0) }
      .filter { $0["type"] == .string("auto_renew_changed") }.compactMap { $0["at"]?.stringValue }
    #expect(times == ["2026-01-10T08:00:00.400Z", "2026-01-12T08:00:00Z", "2026-01-20T08:00:00Z"])
  }
}
