/// The one way an amount is written for people: in the currency's own minor units (ISO 4217),
/// so a yen price reads `1,200`, a dollar price `4.99` and a dinar price `4.995`. JSON and CSV
/// keep exact thousandths; only text read by people goes through here.
package enum MoneyText {
  /// ISO 4217 currencies whose minor unit is 0 decimals (ISO 4217 list one, "Minor unit" 0).
  private static let wholeUnitCurrencies: Set<String> = [
    "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF",
    "XOF", "XPF",
  ]
  /// ISO 4217 currencies whose minor unit is 3 decimals.
  private static let thousandthCurrencies: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]

  /// Decimals of `currency`'s minor unit: 0, 3, or 2 for every other code (unknown ones too).
  package static func digits(_ currency: String) -> Int {
    if wholeUnitCurrencies.contains(currency) { return 0 }
    return thousandthCurrencies.contains(currency) ? 3 : 2
  }

  /// Thousandths × `factor` in `currency`'s minor units, rounded half away from zero, digits
  /// grouped by threes when `grouped`: `4990` USD → `4.99`, `1200000` JPY → `1,200`.
  /// `factor` (1 to 18) gives ARR from MRR without overflow.
  package static func rounded(thousandths: Int64, times factor: UInt64 = 1, currency: String, grouped: Bool = true) -> String {
    rounded(thousandths: thousandths, times: factor, digits: digits(currency), grouped: grouped)
  }

  /// Thousandths × `factor` with `digits` decimals (0 to 3), rounded half away from zero.
  package static func rounded(thousandths: Int64, times factor: UInt64 = 1, digits: Int, grouped: Bool = true) -> String {
    precondition((1...18).contains(factor), "factor \(factor): a small multiple such as 12")
    precondition((0...3).contains(digits), "digits \(digits): a minor unit has 0 to 3")
    // |thousandths| × 18 < 2^128, and its thousandth < 2^64: the whole units never overflow.
    let product = thousandths.magnitude.multipliedFullWidth(by: factor)
    let (units, fraction) = UInt64(1000).dividingFullWidth(product)
    var whole = units
    let unit = [UInt64(1000), 100, 10, 1][digits]
    var minor = fraction / unit
    if (fraction % unit) * 2 >= unit { minor += 1 }
    if minor == 1000 / unit {
      whole += 1
      minor = 0
    }
    let sign = thousandths < 0 && (whole > 0 || minor > 0) ? "-" : ""
    let text = sign + (grouped ? groupedDigits(whole) : String(whole))
    return digits == 0 ? text : text + "." + zeroPadded(minor, to: digits)
  }

  /// Thousandths exactly, with at least `currency`'s minor-unit decimals and more only where the
  /// amount has them: `4990` USD → `4.99`, `4995` USD → `4.995`, `1200000` JPY → `1200`.
  package static func exact(thousandths: Int64, currency: String) -> String {
    let magnitude = thousandths.magnitude
    var fraction = magnitude % 1000
    var shown = 3
    while shown > digits(currency), fraction % 10 == 0 {
      fraction /= 10
      shown -= 1
    }
    let sign = thousandths < 0 ? "-" : ""
    guard shown > 0 else { return sign + String(magnitude / 1000) }
    return sign + String(magnitude / 1000) + "." + zeroPadded(fraction, to: shown)
  }

  /// `value` with leading zeros to `width` digits: `5`, 2 → `05`.
  private static func zeroPadded(_ value: UInt64, to width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }

  /// Digits in groups of three: `1234567` → `1,234,567`.
  package static func groupedDigits(_ value: UInt64) -> String {
    let digits = Array(String(value))
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
      text.append(digit)
    }
    return text
  }
}
