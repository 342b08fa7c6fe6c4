/// The one way the HTML report writes numbers: counts and money with thousands separators, money
/// in currency units to the cent, shares as percentages with one decimal (JSON and CSV stay exact).
enum HTMLNumber {
  /// `1234567` → `1,234,567`.
  static func count(_ value: Int64) -> String {
    (value < 0 ? "-" : "") + grouped(value.magnitude)
  }

  /// Thousandths of a currency unit (× `factor`) in units to the cent, rounded half away from zero:
  /// `4990` → `4.99`, `1234567` → `1,234.57`; `factor` 12 gives ARR from MRR without overflow.
  static func money(thousandths: Int64, times factor: UInt64 = 1) -> String {
    precondition((1...18).contains(factor), "factor \(factor): a small multiple such as 12")
    // |thousandths| × 18 < 2^128 and its tenth < 2^64, so the cents never overflow.
    let product = thousandths.magnitude.multipliedFullWidth(by: factor)
    var (cents, remainder) = UInt64(10).dividingFullWidth(product)
    if remainder >= 5 { cents += 1 }
    let fraction = cents % 100
    return (thousandths < 0 && cents > 0 ? "-" : "") + grouped(cents / 100) + (fraction < 10 ? ".0" : ".") + String(fraction)
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
  private static func grouped(_ value: UInt64) -> String {
    let digits = Array(String(value))
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
      text.append(digit)
    }
    return text
  }
}
