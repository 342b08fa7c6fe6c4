import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerGenerate

/// The 2,000-subject v1.3 log (typical usage, no transfers) the v1.3 rate tests share, checked once.
struct CheckedContract13Sample: Sendable {
  static let options = GeneratorOptions(subjects: 2000, seed: 20_240_101, contract: .v1_3)
  static let shared = CheckedContract13Sample(options)
  /// The same with transfers.
  static let withTransfers = CheckedContract13Sample(
    GeneratorOptions(subjects: 2000, seed: 20_240_101, usage: .none, contract: .v1_3, transfers: true))

  let bytes: [UInt8]
  let stats: GeneratorStats
  let checker: GeneratedLogChecker

  private init(_ options: GeneratorOptions) {
    (bytes, stats) = generatedLog(options)
    var checker = GeneratedLogChecker(catalog: LogGenerator.catalog(for: options.usage))
    checker.check(log: bytes)
    self.checker = checker
  }
}

extension LogGenerator {
  /// The parsed catalog a log generated with `usage` is written with (tests only).
  static func catalog(for usage: UsageLevel) -> Catalog { usage == .none ? catalog : policyCatalog }
}

@Suite("Log generator: contract v1.3")
struct Contract13GenerationTests {
  @Test("every line of a 2,000-subject v1.3 log is valid under the contract, with or without transfers", arguments: [false, true])
  func everyLineValid(transfers: Bool) {
    let sample = transfers ? CheckedContract13Sample.withTransfers : .shared
    #expect(sample.checker.problems.isEmpty, "\(sample.checker.problems.prefix(10))")
    #expect(sample.stats.lines == sample.checker.lines)
    #expect(sample.stats.transfers == sample.checker.countsByType["transfer", default: 0])
    for kind in EventKind.allCases {
      #expect(sample.stats.count(of: kind) == sample.checker.countsByType[kind.name, default: 0], "\(kind.name)")
    }
  }

  @Test("a v1.3 log writes every kind of the contract except transfer, at plausible rates")
  func rates() {
    let sample = CheckedContract13Sample.shared
    let checker = sample.checker
    for kind in EventKind.allCases where kind != .transfer {
      #expect(checker.countsByType[kind.name, default: 0] > 0, "no \(kind.name) events")
    }
    #expect(checker.countsByType["transfer", default: 0] == 0, "transfers without the switch")
    let count = { (type: String) in Double(checker.countsByType[type, default: 0]) }
    let value = { (key: String) in Double(checker.countsByValue[key, default: 0]) }
    let households = Double(CheckedContract13Sample.options.subjects)
    #expect(count("grant") / households > 0.015 && count("grant") / households < 0.08, "grants \(count("grant"))")
    #expect(count("grant_revoked") > 0 && count("grant_revoked") < count("grant") / 2)
    #expect(count("block") / households > 0.004 && count("block") / households < 0.04, "blocks \(count("block"))")
    #expect(count("unblock") > 0 && count("unblock") <= count("block"))
    for service in ["fraud", "consent", "chargeback"] { #expect(value("service=\(service)") > 0, "no \(service) block") }
    let refunds = value("reason=refund")
    #expect(count("refund_requested") > refunds / 3 && count("refund_requested") < refunds * 2, "requests \(count("refund_requested")) for \(refunds) refunds")
    #expect(count("refund_declined") > 0 && count("refund_declined") < count("refund_requested"))
    #expect(value("refunded<price") > 0, "no prorated refund")
    #expect(value("partial packs") > 0, "no refund of some of a purchase's packs")
    #expect(value("store=appstore") > 0 && value("store=googleplay") > 0)
    #expect(value("country=US") > 0 && value("country=JP") > 0)
    #expect(value("proceeds") > 0 && value("proceeds") <= value("price"))
    #expect(checker.lateKnowledge > 0)
  }

  @Test("a v1.3 log with transfers moves subscriptions and purchases, some of them back")
  func transfers() {
    let sample = CheckedContract13Sample.withTransfers
    #expect(sample.stats.transfers > 10, "\(sample.stats.transfers) transfers")
    #expect(sample.checker.transfersBack > 0)
    #expect(sample.checker.countsByValue["transfer=original_transaction", default: 0] > 0)
    #expect(sample.checker.countsByValue["transfer=transaction", default: 0] > 0)
  }

  // Pins the v1.3 output across platforms, as LogGeneratorTests pins the default one (which the
  // v1.3 mode leaves byte for byte as it was). A deliberate change re-records it.
  @Test("a pinned seed gives the pinned v1.3 bytes on every platform")
  func pinnedDigest() {
    let (bytes, _) = generatedLog(GeneratorOptions(subjects: 300, seed: 42, usage: .none, contract: .v1_3))
    #expect(bytes.count == 750_497 && fnv1a(bytes) == 0xaad2_ae2d_0d68_ca54, "digest \(String(fnv1a(bytes), radix: 16)), \(bytes.count) bytes")
  }

  @Test("the same v1.3 options give byte-identical logs")
  func deterministic() {
    let options = GeneratorOptions(subjects: 300, seed: 9, contract: .v1_3, transfers: true)
    #expect(generatedLog(options).bytes == generatedLog(options).bytes)
  }
}
