import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Timestamps and durations")
struct TimestampTests {
  @Test(
    "RFC 3339 timestamps parse with offsets and milliseconds",
    arguments: [
      ("2026-03-01T12:00:00Z", "2026-03-01T12:00:00Z"),
      ("2026-03-01T12:00:00.250Z", "2026-03-01T12:00:00.250Z"),
      ("2026-03-01T14:00:00+02:00", "2026-03-01T12:00:00Z"),
      ("2026-03-01T08:00:00+01:00", "2026-03-01T07:00:00Z"),
      ("2026-02-28T23:30:00-01:00", "2026-03-01T00:30:00Z"),
      ("2026-03-01T12:00:00.5Z", "2026-03-01T12:00:00.500Z"),
      ("1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z"),
      ("2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"),
    ])
  func parses(input: String, expected: String) throws {
    let parsed = try #require(Timestamp.parseRFC3339(input))
    #expect(parsed.rfc3339 == expected)
  }

  @Test(
    "malformed or impossible timestamps are rejected",
    arguments: [
      "2026-03-01", "2026-03-01T12:00:00", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z",
      "2026-03-01T24:00:00Z", "2026-03-01T12:00:60Z", "2026-03-01T12:00:00.1234Z",
      "2026-03-01T12:00:00.Z", "2026-03-01 12:00:00Z", "2026-03-01T12:00:00+0200",
      "2026-03-01T12:00:00+24:00", "x026-03-01T12:00:00Z", "2026-03-01T12:00:00Zjunk",
    ])
  func rejects(input: String) {
    #expect(Timestamp.parseRFC3339(input) == nil)
  }

  @Test(
    "a parser that remembers the last date gives the same answer as one that does not",
    arguments: [
      ["2024-01-04T10:07:53Z", "2024-01-04T23:30:13.727Z", "2024-01-04T23:59:59+02:00"],
      ["2024-02-29T00:00:00Z", "2024-02-29T24:00:00Z", "2024-02-29T23:59:60Z", "2024-02-29t01:00:00Z"],
      ["2024-01-04T10:07:53Z", "2024-01-04X10:07:53Z", "2024-01-04T10:07:53", "2024-01-05T00:00:00Z"],
      ["2023-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "2023-02-28T00:00:00Z", "2023-02-28T00:00:00-01:00"],
      ["2026-03-01T12:00:00Z", "2026-03-02T12:00:00Z", "2026-03-01T12:00:00Z"],
    ])
  func dayCacheAgrees(sequence: [String]) {
    var cache = RFC3339DayCache()
    for text in sequence {
      var bytes = Array(text.utf8)
      let cached = bytes.withUnsafeMutableBufferPointer {
        Timestamp.parseRFC3339(UnsafeBufferPointer($0), dayCache: &cache)
      }
      #expect(cached == Timestamp.parseRFC3339(text), "\(text) after \(sequence)")
      bytes.removeAll()
    }
  }

  @Test("years outside 0…9999 still print unambiguously")
  func farYears() {
    let start10000 = CivilDate(year: 10000, month: 1, day: 1).daysSinceEpoch * 86_400_000
    #expect(Timestamp(millisecondsSinceEpoch: start10000 + 1500).rfc3339 == "10000-01-01T00:00:01.500Z")
    #expect(Timestamp(millisecondsSinceEpoch: start10000 - 1).rfc3339 == "9999-12-31T23:59:59.999Z")
  }

  @Test("the epoch is zero and a day is 86,400,000 ms")
  func epoch() {
    #expect(Timestamp.parseRFC3339("1970-01-01T00:00:00Z")?.millisecondsSinceEpoch == 0)
    #expect(Timestamp.parseRFC3339("1970-01-02T00:00:00Z")?.millisecondsSinceEpoch == 86_400_000)
  }

  @Test(
    "durations add in calendar months with end-of-month clamping",
    arguments: [
      ("2026-01-31T10:00:00Z", "P1M", "2026-02-28T10:00:00Z"),
      ("2024-01-31T10:00:00Z", "P1M", "2024-02-29T10:00:00Z"),
      ("2024-02-29T00:00:00Z", "P1Y", "2025-02-28T00:00:00Z"),
      ("2026-03-31T00:00:00Z", "P1M", "2026-04-30T00:00:00Z"),
      ("2026-12-15T00:00:00Z", "P1M", "2027-01-15T00:00:00Z"),
      ("2026-03-04T00:00:00Z", "P14D", "2026-03-18T00:00:00Z"),
      ("2026-03-04T00:00:00Z", "P2W", "2026-03-18T00:00:00Z"),
      ("2026-03-01T00:00:00Z", "PT48H", "2026-03-03T00:00:00Z"),
      ("2026-01-31T00:00:00Z", "P1MT12H", "2026-02-28T12:00:00Z"),
      ("2026-03-01T00:00:00Z", "PT90M", "2026-03-01T01:30:00Z"),
    ])
  func durations(start: String, duration: String, expected: String) throws {
    let from = try #require(Timestamp.parseRFC3339(start))
    let parsed = try #require(ISODuration(duration))
    #expect(parsed.added(to: from).rfc3339 == expected)
  }

  @Test("malformed durations are rejected", arguments: ["", "P", "1M", "PT", "P1", "P1H", "PM1", "P1M1M", "P0D", "P1.5D", "p1d"])
  func badDurations(text: String) {
    #expect(ISODuration(text) == nil)
  }
}

@Suite("Limits")
struct LimitsTests {
  @Test("the digit count used by the parser matches the amount limit")
  func amountDigits() {
    #expect(String(Limits.amountMax).count == Limits.amountDigitsMax)
  }
}
