import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore

/// Money written for people: each currency in its own minor units (ISO 4217), rounded half away
/// from zero, or exact where an amount has more digits than its currency shows.
@Suite("Money in a currency's own minor units")
struct MoneyTextTests {
  @Test(
    "a rounded amount shows the currency's decimals: none for yen and won, three for dinars, two otherwise",
    arguments: [
      (4990, 1, "USD", "4.99"), (4995, 1, "USD", "5.00"), (4994, 1, "USD", "4.99"), (-4995, 1, "USD", "-5.00"),
      (1_200_000, 1, "JPY", "1,200"), (1_200_499, 1, "JPY", "1,200"), (1_200_500, 1, "JPY", "1,201"),
      (-500, 1, "JPY", "-1"), (-499, 1, "JPY", "0"), (9_999_500, 1, "KRW", "10,000"),
      (4_995, 1, "KWD", "4.995"), (-1, 1, "BHD", "-0.001"), (1_000, 12, "JPY", "12"),
      (999_995, 1, "EUR", "1,000.00"), (5, 1, "XYZ", "0.01"), (Int(Int64.max), 18, "JPY", "166,020,696,663,385,965"),
      (Int(Int64.min), 1, "USD", "-9,223,372,036,854,775.81"),
    ] as [(Int, UInt64, String, String)])
  func rounded(thousandths: Int, factor: UInt64, currency: String, expected: String) {
    #expect(MoneyText.rounded(thousandths: Int64(thousandths), times: factor, currency: currency) == expected)
  }

  @Test(
    "an exact amount keeps every thousandth it has, and at least the currency's decimals",
    arguments: [
      (4990, "USD", "4.99"), (4995, "USD", "4.995"), (5000, "USD", "5.00"), (-29_990, "EUR", "-29.99"),
      (1_200_000, "JPY", "1200"), (1_200_500, "JPY", "1200.5"), (1_200_050, "JPY", "1200.05"),
      (4_000, "KWD", "4.000"), (0, "JPY", "0"), (7, "USD", "0.007"),
    ] as [(Int, String, String)])
  func exact(thousandths: Int, currency: String, expected: String) {
    #expect(MoneyText.exact(thousandths: Int64(thousandths), currency: currency) == expected)
  }

  @Test("every currency ISO 4217 gives no or three decimals is listed, and the rest show two")
  func digits() {
    for code in ["JPY", "KRW", "VND", "CLP", "ISK", "PYG", "UGX", "XAF", "XOF"] { #expect(MoneyText.digits(code) == 0, "\(code)") }
    for code in ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"] { #expect(MoneyText.digits(code) == 3, "\(code)") }
    for code in ["USD", "EUR", "GBP", "INR", "BRL", "", "coins"] { #expect(MoneyText.digits(code) == 2, "\(code)") }
  }
}
