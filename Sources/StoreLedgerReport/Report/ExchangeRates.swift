import StoreLedgerCore

/// Dated exchange rates into one currency, read from a rates file (`report --rates`, Docs/reports.md):
/// JSON lines `{"date": "2026-01-01", "from": "EUR", "to": "USD", "rate": "1.08"}`, rates as decimal
/// strings. Never fetched: a bucket converts at the newest rate dated before its end, and a
/// currency without one is left out of that bucket's total rather than guessed.
///
/// Invariant: every rate has the one target currency `target`, a `from` other than it, and the rates
/// of each `from` are sorted by date, one per date.
package struct ExchangeRates: Sendable, Equatable {
  /// One line of the file.
  package struct Rate: Sendable, Equatable {
    /// The day the rate is for (its midnight UTC); it applies to buckets ending after it.
    package var date: Timestamp
    /// The rate in billionths: one unit of `from` is `nanos / 10⁹` units of the target.
    package var nanos: Int64
    /// The 1-based line of the file it came from.
    package var line: Int
  }

  /// The one currency every rate converts into.
  package let target: String
  /// The rates of each currency, by date.
  private let rates: [String: [Rate]]

  /// The currencies with at least one rate, in byte order.
  package var currencies: [String] { rates.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

  /// Reads a rates file; an error names `file`, its line and the field, exit 65.
  /// - Complexity: O(lines · log(lines)).
  package static func parse(_ bytes: [UInt8], file: String) throws(Diagnostic) -> ExchangeRates {
    var target: String? = nil
    var rates: [String: [Rate]] = [:]
    var lineNumber = 0
    for lineBytes in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      lineNumber += 1
      let text = String(decoding: lineBytes, as: UTF8.self)
      guard !text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) else { continue }
      func fail(_ problem: Problem) -> Diagnostic { Diagnostic(file: file, line: lineNumber, problem) }
      guard lineNumber <= Limits.exchangeRateLinesMax else {
        throw fail(.invalidValue(field: "date", expected: "at most \(Limits.exchangeRateLinesMax) lines of rates", found: "more lines"))
      }
      let line: RateLine
      do {
        line = try RateLine.parse(text, line: lineNumber)
      } catch {
        throw fail(error.problem)
      }
      if let target, line.to != target {
        throw fail(.invalidValue(field: "to", expected: "\"\(target)\", the 'to' of line 1 (a rates file converts into one currency)", found: line.to))
      }
      target = line.to
      if let earlier = rates[line.from]?.first(where: { $0.date == line.rate.date }) {
        throw fail(.invalidValue(field: "date", expected: "one \(line.from) rate per date (line \(earlier.line) has one for it)", found: line.dateText))
      }
      rates[line.from, default: []].append(line.rate)
    }
    guard let target else {
      throw Diagnostic(file: file, .invalidValue(field: "rate", expected: "at least one line of rates", found: "an empty file"))
    }
    return ExchangeRates(target: target, rates: rates.mapValues { $0.sorted { $0.date < $1.date } })
  }

  /// The rate `currency` converts at for a bucket ending at `end`: the newest dated before `end`
  /// (1.0 for the target itself); nil when there is none, which no other rate stands in for.
  /// - Complexity: O(log(rates of the currency)).
  package func rate(from currency: String, before end: Timestamp) -> Rate? {
    if currency == target { return Rate(date: .distantPast, nanos: ExchangeRates.nanosPerUnit, line: 0) }
    guard let list = rates[currency] else { return nil }
    var low = 0
    var high = list.count
    while low < high {
      let middle = (low + high) / 2
      if list[middle].date < end { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? nil : list[low - 1]
  }

  /// `thousandths` of a currency in thousandths of the target at `rate`, rounded half away from
  /// zero; nil when the result would pass `Limits.reportValueMax`.
  package static func convert(_ thousandths: Int64, at rate: Rate) -> Int64? {
    let product = thousandths.magnitude.multipliedFullWidth(by: UInt64(rate.nanos))
    let divisor = UInt64(nanosPerUnit)
    guard product.high < divisor else { return nil }
    var (quotient, remainder) = divisor.dividingFullWidth(product)
    if remainder >= divisor - remainder { quotient += 1 }
    guard quotient <= Limits.reportValueMax.magnitude else { return nil }
    return thousandths < 0 ? -Int64(quotient) : Int64(quotient)
  }

  /// Billionths in one unit: rates have at most 9 decimals.
  package static let nanosPerUnit: Int64 = 1_000_000_000
}

/// One parsed line of a rates file.
private struct RateLine {
  var from: String
  var to: String
  var dateText: String
  var rate: ExchangeRates.Rate

  static let fields = ["date", "from", "to", "rate"]

  /// The line's four fields, checked; a `LineProblem` naming the field otherwise.
  static func parse(_ text: String, line: Int) throws(LineProblem) -> RateLine {
    let value: JSONValue
    do {
      value = try JSONValue.parse(text)
    } catch {
      throw LineProblem(.invalidJSON("\(error.detail) at column \(error.column)"))
    }
    guard let members = value.objectMembers else {
      throw LineProblem(.invalidJSON("expected an object such as {\"date\": \"2026-01-01\", \"from\": \"EUR\", \"to\": \"USD\", \"rate\": \"1.08\"}, found \(value.kindName)"))
    }
    if let unknown = members.first(where: { !fields.contains($0.0) }) {
      throw LineProblem(.unknownField(unknown.0, nearest: NearMatch.closest(unknown.0, among: fields)))
    }
    func string(_ field: String, _ expected: String) throws(LineProblem) -> String {
      guard let member = value[field] else { throw LineProblem(.invalidValue(field: field, expected: expected, found: "no such field")) }
      guard let text = member.stringValue else {
        throw LineProblem(.invalidValue(field: field, expected: expected, found: JSONWriter.compact(member)))
      }
      return text
    }
    let dateExpected = "a date such as \"2026-01-01\""
    let dateText = try string("date", dateExpected)
    guard let date = Timestamp.parseDay(dateText) else {
      throw LineProblem(.invalidValue(field: "date", expected: dateExpected, found: dateText))
    }
    let currency = "a currency code of three capital letters such as \"EUR\""
    let from = try string("from", currency)
    let to = try string("to", currency)
    for (field, code) in [("from", from), ("to", to)] where !isCurrency(code) {
      throw LineProblem(.invalidValue(field: field, expected: currency, found: code))
    }
    if from == to { throw LineProblem(.invalidValue(field: "from", expected: "a currency other than 'to'", found: from)) }
    let rateExpected = "a decimal string above 0 with at most 9 decimals such as \"1.08\" (never a JSON number)"
    let rateText = try string("rate", rateExpected)
    guard let nanos = nanos(rateText) else {
      throw LineProblem(.invalidValue(field: "rate", expected: rateExpected, found: rateText))
    }
    return RateLine(from: from, to: to, dateText: dateText, rate: .init(date: date, nanos: nanos, line: line))
  }

  static func isCurrency(_ code: String) -> Bool {
    code.utf8.count == 3 && code.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
  }

  /// `"1.08"` → 1,080,000,000; nil unless digits with an optional point and 1 to 9 decimals,
  /// above 0 and below 1,000,000.
  static func nanos(_ text: String) -> Int64? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = parts.first, (1...6).contains(whole.count) else { return nil }
    let fraction = parts.count == 2 ? parts[1] : ""
    guard parts.count == 1 || (1...9).contains(fraction.count),
      (whole + fraction).utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
      let units = Int64(whole), let decimals = Int64(fraction.isEmpty ? "0" : fraction)
    else { return nil }
    var scale: Int64 = 1
    for _ in fraction.count..<9 { scale *= 10 }
    let value = units * ExchangeRates.nanosPerUnit + decimals * scale
    return value > 0 ? value : nil
  }
}

/// Why a line of a rates file was refused.
private struct LineProblem: Error {
  var problem: Problem
  init(_ problem: Problem) { self.problem = problem }
}
