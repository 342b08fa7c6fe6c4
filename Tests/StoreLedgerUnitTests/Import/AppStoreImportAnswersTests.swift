import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Imports Apple-format lifecycles, folds them, and checks the answers Apple's status API would give.
@Suite("App Store import: answers after folding")
struct AppStoreImportAnswersTests {
  typealias L = AppStoreImportLifecycleTests

  private func engine(_ notifications: [AppleNotification]) throws -> QueryEngine {
    let input = notifications.map(\.decoded).joined(separator: "\n")
    let result = try #require(ImportFixtures.importEvents(input, subjects: L.allSubjects))
    return QueryEngine(ledger: try ledger(result.eventLines.joined(separator: "\n"), catalogText: ImportFixtures.catalogText))
  }

  @Test("buy, renewals, grace, recovery: access through grace, then active on the recovered renewal")
  func graceRecovery() throws {
    var engine = try engine(L.renewalsAndGrace)
    let inGrace = engine.checkedAnswer(L.u1, at: "2026-04-03T00:00:00Z")
    #expect(inGrace.plans.byName.first?.value.state == .grace)
    #expect(inGrace.entitlements.keys.sorted() == ["pro"])
    let recovered = engine.checkedAnswer(L.u1, at: "2026-04-06T00:00:00Z")
    #expect(recovered.plans.byName.first?.value.state == .active)
    #expect(recovered.plans.byName.first?.value.transaction == "1004")
    #expect(engine.checkedAnswer(L.u1, at: "2026-01-15T00:00:00Z").plans.byName.first?.value.period == .trial)
  }

  @Test("upgrade shows at once; a downgrade only as renews_to until renewal; expiry ends access")
  func upgradeDowngrade() throws {
    var engine = try engine(L.upgradeDowngrade)
    let afterUpgrade = engine.checkedAnswer(L.u3, at: "2026-03-10T12:00:00Z")
    #expect(afterUpgrade.plans.byName.first?.value.product == "premium.monthly")
    #expect(afterUpgrade.entitlements.keys.sorted() == ["plus", "premium"])
    let afterDowngrade = engine.checkedAnswer(L.u3, at: "2026-03-16T00:00:00Z")
    #expect(afterDowngrade.plans.byName.first?.value.product == "premium.monthly")
    #expect(afterDowngrade.plans.byName.first?.value.renewsTo == "plus.monthly")
    let cancelled = engine.checkedAnswer(L.u3, at: "2026-03-21T00:00:00Z")
    #expect(cancelled.plans.byName.first?.value.renewsTo == nil)
    let expired = engine.checkedAnswer(L.u3, at: "2026-04-11T00:00:00Z")
    #expect(expired.plans.byName.first?.value.state == .expired)
    #expect(expired.entitlements.isEmpty)
  }

  @Test("a refund of an older period leaves the current one active")
  func refundOlderPeriod() throws {
    var engine = try engine(L.refundOfOlderPeriod)
    let answer = engine.checkedAnswer(L.u4, at: "2026-03-20T00:00:00Z")
    #expect(answer.plans.byName.first?.value.state == .active)
    #expect(answer.plans.byName.first?.value.transaction == "4003")
    #expect(answer.entitlements.count == 1)
  }

  @Test("shuffled, duplicated notifications give the same answers after check")
  func shuffledAnswers() throws {
    let reference = try #require(
      ImportFixtures.importEvents(L.allNotifications.map(\.decoded).joined(separator: "\n"), subjects: L.allSubjects))
    var random = SeededGenerator(seed: 5)
    let documents = (L.allNotifications + L.allNotifications).map { Bool.random(using: &random) ? $0.decoded : $0.signedBody }
      .shuffled(using: &random)
    let shuffled = try #require(ImportFixtures.importEvents(documents.joined(separator: "\n"), subjects: L.allSubjects))
    let a = try ledger(reference.eventLines.joined(separator: "\n"), catalogText: ImportFixtures.catalogText)
    let b = try ledger(shuffled.eventLines.joined(separator: "\n"), catalogText: ImportFixtures.catalogText)
    var engineA = QueryEngine(ledger: a)
    var engineB = QueryEngine(ledger: b)
    let subjects = (0..<a.subjectCount).map { a.symbols.subjects.string(Symbol(rawValue: UInt32($0))) }
    for subject in subjects {
      for day in stride(from: 0, to: 150, by: 3) {
        let at = ts("2026-01-01T00:00:00Z").adding(milliseconds: Int64(day) * 86_400_000)
        #expect(engineA.answer(subject: subject, at: at, asOf: nil) == engineB.answer(subject: subject, at: at, asOf: nil))
      }
    }
  }
}
