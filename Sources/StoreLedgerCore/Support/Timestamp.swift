/// An instant in UTC with millisecond precision, counted from the Unix epoch.
///
/// Every time in the ledger (effective `at`, knowledge `recorded`, expiries) is a
/// `Timestamp`, so instants cannot be confused with durations or counts.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Milliseconds since 1970-01-01T00:00:00Z.
  public var millisecondsSinceEpoch: Int64

  /// Creates an instant from milliseconds since the Unix epoch.
  @inlinable
  public init(millisecondsSinceEpoch: Int64) {
    self.millisecondsSinceEpoch = millisecondsSinceEpoch
  }

  /// The earliest representable instant (used as "before everything"). Not public: the API says
  /// "no bound" with nil (`asOf`, `expires`), and no log line can hold this instant.
  package static let distantPast = Timestamp(millisecondsSinceEpoch: Int64.min / 2)
  /// The latest representable instant (used as "never ends" / "known now"); package-only, as
  /// `distantPast`.
  package static let distantFuture = Timestamp(millisecondsSinceEpoch: Int64.max / 2)

  @inlinable
  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
  }

  /// The RFC 3339 form in UTC: `.mmm` only when the milliseconds are not zero.
  public var description: String { rfc3339 }

  /// The RFC 3339 form in UTC: `2026-03-01T12:00:00Z` or `2026-03-01T12:00:00.250Z`.
  public var rfc3339: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    appendRFC3339(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the RFC 3339 UTC form to a byte buffer without allocating a `String`.
  package func appendRFC3339(to bytes: inout [UInt8]) {
    let ms = millisecondsSinceEpoch
    let days = floorDivide(ms, 86_400_000)
    let msOfDay = ms - days * 86_400_000
    let civil = CivilDate(daysSinceEpoch: days)
    let year = civil.year
    guard year >= 0 && year <= 9999 else {
      // Out of RFC 3339's range; still print something unambiguous.
      bytes.append(contentsOf: Array(String(year).utf8))
      var rest: [UInt8] = []
      appendRFC3339Tail(civil: civil, msOfDay: msOfDay, to: &rest)
      bytes.append(contentsOf: rest)
      return
    }
    // One append of a 24-byte stack buffer: formatting sits on the audit's hot path.
    var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
    let count = withUnsafeMutableBytes(of: &buffer) { raw -> Int in
      let p = raw.bindMemory(to: UInt8.self)
      @inline(__always) func two(_ at: Int, _ value: Int64) {
        p[at] = UInt8(48 + value / 10)
        p[at + 1] = UInt8(48 + value % 10)
      }
      two(0, year / 100)
      two(2, year % 100)
      p[4] = 45
      two(5, civil.month)
      p[7] = 45
      two(8, civil.day)
      p[10] = 84
      two(11, msOfDay / 3_600_000)
      p[13] = 58
      two(14, msOfDay / 60_000 % 60)
      p[16] = 58
      two(17, msOfDay / 1000 % 60)
      let millis = msOfDay % 1000
      guard millis != 0 else {
        p[19] = 90
        return 20
      }
      p[19] = 46
      p[20] = UInt8(48 + millis / 100)
      p[21] = UInt8(48 + millis / 10 % 10)
      p[22] = UInt8(48 + millis % 10)
      p[23] = 90
      return 24
    }
    withUnsafeBytes(of: &buffer) { bytes.append(contentsOf: $0.prefix(count)) }
  }

  /// `-MM-DDTHH:MM:SS[.mmm]Z` for years outside 0…9999.
  private func appendRFC3339Tail(civil: CivilDate, msOfDay: Int64, to bytes: inout [UInt8]) {
    func two(_ value: Int64) {
      bytes.append(UInt8(48 + value / 10))
      bytes.append(UInt8(48 + value % 10))
    }
    bytes.append(45)
    two(civil.month)
    bytes.append(45)
    two(civil.day)
    bytes.append(84)
    two(msOfDay / 3_600_000)
    bytes.append(58)
    two(msOfDay / 60_000 % 60)
    bytes.append(58)
    two(msOfDay / 1000 % 60)
    let millis = msOfDay % 1000
    if millis != 0 {
      bytes.append(46)
      bytes.append(UInt8(48 + millis / 100))
      bytes.append(UInt8(48 + millis / 10 % 10))
      bytes.append(UInt8(48 + millis % 10))
    }
    bytes.append(90)
  }

  /// Adds a whole number of milliseconds.
  @inlinable
  package func adding(milliseconds: Int64) -> Timestamp {
    Timestamp(millisecondsSinceEpoch: millisecondsSinceEpoch + milliseconds)
  }
}

@inlinable
package func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
  let q = a / b
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

/// A proleptic Gregorian calendar date in UTC.
package struct CivilDate: Equatable {
  package var year: Int64
  package var month: Int64
  package var day: Int64

  init(year: Int64, month: Int64, day: Int64) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// Converts days since 1970-01-01 (Howard Hinnant's civil_from_days).
  package init(daysSinceEpoch: Int64) {
    let z = daysSinceEpoch + 719_468
    let era = floorDivide(z, 146_097)
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthPrime = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
    month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
  package var daysSinceEpoch: Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = floorDivide(y, 400)
    let yearOfEra = y - era * 400
    let monthIndex = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  static func isLeapYear(_ year: Int64) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  static func daysInMonth(year: Int64, month: Int64) -> Int64 {
    switch month {
    case 2: return isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}
