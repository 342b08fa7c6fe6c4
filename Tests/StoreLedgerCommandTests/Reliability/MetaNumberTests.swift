import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore

// A redelivery is skipped only when it is the same event: numbers in `meta` compare as exact
// decimal values, not as the `Double` nearest to them.

@Suite("Numbers in meta")
struct MetaNumberTests {
  static let first =
    #"{"id":"e1","type":"purchase","subject":"ann","at":"2026-03-01T00:00:00Z","product":"pro.lifetime","transaction":"t1","meta":{"n":NUMBER}}"#

  /// Two ways to write `meta.n` that are different numbers, though one `Double` each.
  static let different: [(String, String)] = [
    ("12345678901234567890", "12345678901234567891"),
    ("1e400", "2e999"),
    ("-1e400", "1e400"),
    ("0.1000000000000000000000001", "0.1"),
    ("9007199254740993", "9007199254740992.0"),
    ("1e-400", "0"),
    ("1e99999999999999999999", "2e99999999999999999999"),
  ]

  /// Two ways to write one number.
  static let same: [(String, String)] = [
    ("1", "1.0"),
    ("10e-1", "1"),
    ("4.99", "499e-2"),
    ("12345678901234567890", "1.2345678901234567890e19"),
    ("1e400", "10e399"),
    ("0", "-0.0"),
    ("100", "1E+2"),
  ]

  private func log(_ a: String, _ b: String) -> String {
    Self.first.replacingOccurrences(of: "NUMBER", with: a) + "\n" + Self.first.replacingOccurrences(of: "NUMBER", with: b)
  }

  @Test("a redelivery whose meta number differs beyond a Double's precision or range is an id conflict", arguments: different)
  func differentNumbersConflict(a: String, b: String) throws {
    let found = try errors(log(a, b)).map(\.description)
    #expect(found == ["log.jsonl:2: error: field 'id': id conflict: 'e1' was first used on line 1 for a different event (it differs in meta)"])
  }

  @Test("a redelivery writing the same meta number another way is skipped as a redelivery", arguments: same)
  func sameNumbersAreOneEvent(a: String, b: String) throws {
    let loaded = try ledger(log(a, b))
    #expect(loaded.events.count == 1)
  }

  @Test("exact decimals read a JSON number's value, not its spelling", arguments: [
    ("1.50e1", false, "15", 0), ("-0.00", false, "", 0), ("120", false, "12", 1), ("-3.25e-2", true, "325", -4),
  ])
  func exactDecimals(text: String, negative: Bool, digits: String, exponent: Int64) throws {
    var text = text
    let exact = try #require(text.withUTF8 { ExactDecimal(jsonNumber: $0) })
    #expect(exact.isNegative == negative && exact.digits == Array(digits.utf8) && exact.exponent == exponent)
  }
}
