import StoreLedgerCore

/// The one way the HTML report writes numbers: counts and money with thousands separators, money
/// in its currency's minor units (`MoneyText`), shares as percentages with one decimal (JSON and
/// CSV stay exact).
enum HTMLNumber {
  /// `1234567` → `1,234,567`.
  static func count(_ value: Int64) -> String {
    (value < 0 ? "-" : "") + grouped(value.magnitude)
  }

  /// Thousandths of `currency` (× `factor`) in its minor units, grouped, rounded half away from
  /// zero (`MoneyText`): `4990` USD → `4.99`, `1234567` USD → `1,234.57`, `1200000` JPY → `1,200`.
  static func money(thousandths: Int64, times factor: UInt64 = 1, currency: String) -> String {
    MoneyText.rounded(thousandths: thousandths, times: factor, currency: currency)
  }

  /// The currency of a money metric's key: the key itself, or `USD` of a cohort's `USD/3`.
  static func currency(ofKey key: String) -> String { String(key.prefix { $0 != "/" }) }

  /// Thousandths with two decimals, grouped: `1500` → `1.50` (a count per subscriber).
  static func hundredths(thousandths: Int64) -> String {
    MoneyText.rounded(thousandths: thousandths, digits: 2)
  }

  /// `numerator / denominator` as a percentage with one decimal, rounded half away from zero:
  /// `1, 3` → `33.3%`; nil when the denominator is not above 0 or the share is beyond 2^64 tenths.
  static func percent(_ numerator: Int64, of denominator: Int64) -> String? {
    guard denominator > 0 else { return nil }
    // Tenths of a percent, n × 1,000 / d rounded, in full width so no numerator overflows.
    let divisor = UInt64(denominator)
    let product = numerator.magnitude.multipliedFullWidth(by: 1_000)
    guard product.high < divisor else { return nil }
    var (tenths, remainder) = divisor.dividingFullWidth(product)
    if remainder >= divisor - remainder { tenths += 1 }
    return (numerator < 0 && tenths > 0 ? "-" : "") + grouped(tenths / 10) + "." + String(tenths % 10) + "%"
  }

  /// A change as a signed percentage of where it started: `+4.2%`, `-0.8%`; nil from 0 or below.
  static func change(from before: Int64, to after: Int64) -> String? {
    let (difference, overflow) = after.subtractingReportingOverflow(before)
    guard before > 0, !overflow, let text = percent(difference, of: before) else { return nil }
    return difference < 0 ? text : "+" + text
  }

  /// Digits in groups of three: `1234567` → `1,234,567`.
  private static func grouped(_ value: UInt64) -> String { MoneyText.groupedDigits(value) }
}
