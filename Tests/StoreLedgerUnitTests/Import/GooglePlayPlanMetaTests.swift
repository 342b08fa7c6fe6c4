import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// What reports can group by (issue 35, item 5): the cancel survey on the cancellation, an
/// installment plan's commitment on its charges.
@Suite("Google Play import: cancel survey and installment plans in meta")
struct GooglePlayPlanMetaTests {
  typealias G = GP

  @Test("a user's cancellation carries the survey reason the user picked; one without a survey carries none")
  func cancelSurvey() throws {
    let surveyed = G.subscription(
      state: "CANCELED", expiry: "2026-02-01T10:00:00Z", cancel: G.userCancel(at: "2026-01-15T08:00:00Z"),
      autoRenew: false)
    let result = try #require(G.importEvents([surveyed]))
    let cancel = try #require(
      result.eventLines.compactMap { try? JSONValue.parse($0) }.first { $0["type"] == .string("auto_renew_changed") })
    #expect(cancel["at"] == .string("2026-01-15T08:00:00Z"))
    #expect(cancel["meta"]?["cancelSurveyReason"] == .string("CANCEL_SURVEY_REASON_OTHERS"))
    let silent = G.subscription(
      state: "CANCELED", expiry: "2026-02-01T10:00:00Z",
      cancel: #"{"userInitiatedCancellation":{"cancelTime":"2026-01-15T08:00:00Z"}}"#, autoRenew: false)
    let plain = try #require(G.importEvents([silent]))
    let line = try #require(plain.eventLines.first { $0.contains("auto_renew_changed") })
    #expect(!line.contains("cancelSurveyReason"))
  }

  @Test("an installment plan's charge carries the payments it commits to, first and on renewal; the remaining count is not kept")
  func installments() throws {
    let plain = G.subscription(expiry: "2026-02-01T10:00:00Z")
    let installment = plain.replacingAll(
      #""autoRenewEnabled":true,"#,
      with: #""autoRenewEnabled":true,"installmentDetails":{"initialCommittedPaymentsCount":6,"subsequentCommittedPaymentsCount":3,"remainingCommittedPaymentsCount":5},"#)
    #expect(installment != plain)
    let result = try #require(G.importEvents([installment]))
    let charge = try #require(G.events(result)["googleplay:\(G.orderA):purchase"])
    #expect(charge["meta"]?["installmentPayments"] == .integer(6))
    #expect(charge["meta"]?["installmentRenewalPayments"] == .integer(3))
    #expect(!JSONWriter.compact(charge).contains("remaining"))
    let none = try #require(G.importEvents([plain]))
    #expect(G.events(none)["googleplay:\(G.orderA):purchase"]?["meta"]?["installmentPayments"] == nil)
  }
}
