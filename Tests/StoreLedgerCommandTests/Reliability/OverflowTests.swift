import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerCLI

/// A catalog whose products sit at the documented maxima.
private let extremeCatalog = """
  {"products": {
    "pass": {"type": "non_renewing", "entitlements": ["pro"], "duration": "P9000Y"},
    "trial": {"type": "non_consumable", "entitlements": ["pro"], "expires_after": "P9999Y11M30D"},
    "life": {"type": "non_consumable", "entitlements": ["pro"]},
    "gems": {"type": "consumable", "currency": "gems", "units": 1000000000000000},
    "coin": {"type": "consumable", "currency": "coin", "units": 1}
  }}
  """

private func purchase(_ n: Int, product: String, at: String = "2026-01-01T10:00:00Z", extra: String = "", subject: String? = nil) -> String {
  #"{"id":"e\#(n)","type":"purchase","subject":"\#(subject ?? "u\(n)")","at":"\#(at)","product":"\#(product)","transaction":"t\#(n)"\#(extra)}"#
}

/// A workspace with `extremeCatalog` as its catalog.
private func extremeSpace(log lines: [String]) throws -> Workspace {
  let space = try Workspace(log: lines.joined(separator: "\n") + "\n")
  try space.write("catalog.json", extremeCatalog)
  return space
}

/// The first bucket of a report's JSON.
private func firstBucket(_ report: JSONValue) -> JSONValue? {
  guard case .array(let buckets)? = report["buckets"] else { return nil }
  return buckets.first
}

@Suite("Arithmetic never traps or saturates: limits in the validator, clear errors for sums (issue 18, item 4)")
struct OverflowTests {
  /// (duration, accepted): every duration must be shorter than 10,000 years.
  static let durations: [(String, Bool)] = [
    ("P999999999Y", false), ("P10000Y", false), ("P120000M", false), ("P3652425D", false), ("PT87658200H", false),
    ("P9999Y12M", false), ("P99999999W", false), ("P9999Y11M30D", true), ("P3652424D", true), ("P9999Y", true), ("P1M", true),
  ]

  @Test("a duration is accepted only when shorter than 10,000 years", arguments: durations)
  func durationLimit(text: String, accepted: Bool) throws {
    let parsed = ISODuration(text)
    #expect((parsed != nil) == accepted, "\(text)")
    if let parsed {
      // From the earliest time the log holds, it ends at a time the log holds.
      #expect(parsed.added(to: ts("0000-01-01T00:00:00Z")).isReadable)
    }
  }

  @Test("adding the longest duration to the last instant computes the exact end (no trap)")
  func addedToLatest() {
    let longest = ISODuration("P9999Y11M30D")!
    let end = longest.added(to: Timestamp.latest)
    #expect(end.millisecondsSinceEpoch > Timestamp.latest.millisecondsSinceEpoch)
    #expect(end.rfc3339 == "19999-12-30T23:59:59.999Z")  // 19999-11-31 clamps to the 30th, then 30 days
    #expect(longest.added(to: .distantFuture) == .distantFuture)
  }

  @Test("a catalog duration of P999999999Y is a bad catalog (65), not a crash", arguments: ["duration", "expires_after"])
  func catalogDuration(field: String) throws {
    let space = try Workspace(log: purchase(1, product: "x") + "\n")
    let type = field == "duration" ? "non_renewing" : "non_consumable"
    try space.write("catalog.json", #"{"products": {"x": {"type": "\#(type)", "entitlements": ["pro"], "\#(field)": "P999999999Y"}}}"#)
    let result = runCLI(["check", space.log])
    #expect(result.status == 65)
    #expect(result.stderr.contains("field '\(field)': expected an ISO 8601 duration"))
    #expect(result.stderr.contains("shorter than 10000 years"))
  }

  @Test("--max-staleness P999999999Y on query and can is a usage error (64) naming the value", arguments: ["query", "can"])
  func maxStaleness(command: String) throws {
    let space = try Workspace(log: purchase(1, product: "pro.lifetime") + "\n")
    let feature = command == "can" ? ["--feature", "x"] : []
    let result = runCLI(
      [command, space.log, "--subject", "u1", "--at", "2026-02-01T00:00:00Z", "--cached-at", "2026-01-01T00:00:00Z",
       "--max-staleness", "P999999999Y"] + feature)
    #expect(result.status == 64)
    #expect(result.stderr.contains("'--max-staleness': 'P999999999Y'"))
    #expect(result.stdout.isEmpty)
  }

  @Test("max_staleness P999999999Y in an audit query is an error naming the field")
  func auditStaleness() throws {
    let space = try Workspace(log: purchase(1, product: "pro.lifetime") + "\n")
    let result = runCLI(
      ["audit", space.log, "--queries", "-"],
      stdin: #"{"subject":"u1","at":"2026-02-01T00:00:00Z","cached_at":"2026-01-01T00:00:00Z","max_staleness":"P999999999Y"}"#)
    #expect(result.status == 65)
    #expect(result.stderr.contains("field 'max_staleness'"))
  }

  /// (at, accepted): `pass` lasts P9000Y, so it must start by 0999-12-31T23:59:59.999Z.
  static let grantStarts: [(String, Bool)] = [
    ("0999-12-31T23:59:59.999Z", true), ("1000-01-01T00:00:00Z", false), ("2026-01-01T10:00:00Z", false),
  ]

  @Test("a grant whose computed end passes 9999 is refused at the event; the last start that fits is accepted", arguments: grantStarts)
  func grantEnd(at: String, accepted: Bool) throws {
    let space = try extremeSpace(log: [purchase(1, product: "pass", at: at)])
    let result = runCLI(["query", space.log, "--subject", "u1", "--at", at])
    if accepted {
      #expect(result.status == 0)
      let answer = try JSONValue.parse(result.stdout.trimmingCharacters(in: .newlines))
      #expect(answer["entitlements"]?["pro"]?["expires"] == .string("9999-12-31T23:59:59.999Z"))
    } else {
      #expect(result.status == 65)
      #expect(result.stderr.contains("log.jsonl:1: error: field 'at':"))
      #expect(result.stderr.contains("the latest time a log can hold"))
      #expect(result.stdout.isEmpty)
    }
  }

  @Test("an explicit 'expires' is not checked against the catalog duration")
  func explicitExpires() throws {
    let space = try extremeSpace(log: [purchase(1, product: "pass", extra: #","expires":"2026-02-01T00:00:00Z""#)])
    #expect(runCLI(["check", space.log]).status == 0)
  }

  /// (product, quantity, accepted): one event credits at most 10^15 units.
  static let credits: [(String, Int64, Bool)] = [
    ("gems", 1, true), ("gems", 2, false), ("gems", 1_000_000_000_000_000, false), ("coin", 1_000_000_000_000_000, true),
  ]

  @Test("a consumable purchase crediting more than 10^15 units is refused (quantity × units)", arguments: credits)
  func creditLimit(product: String, quantity: Int64, accepted: Bool) throws {
    let space = try extremeSpace(log: [purchase(1, product: product, extra: #","quantity":\#(quantity)"#)])
    let result = runCLI(["check", space.log])
    #expect(result.status == (accepted ? 0 : 65))
    if !accepted { #expect(result.stderr.contains("field 'quantity': expected at most 1 of 'gems'")) }
  }

  @Test("a balance moved past 10^18 in all is an error at the event that passes it, not a saturated number")
  func balanceMovement() throws {
    let full = (1...1000).map { purchase($0, product: "gems", subject: "u") }
    let fits = try extremeSpace(log: full)
    let answer = runCLI(["query", fits.log, "--subject", "u", "--at", "2026-02-01"])
    #expect(answer.status == 0)
    let json = try JSONValue.parse(answer.stdout.trimmingCharacters(in: .newlines))
    #expect(json["balances"]?["gems"] == .integer(1_000_000_000_000_000_000))

    let spend = EventLines.line(.consumption(id: "s", subject: "u", at: ts("2026-01-02T00:00:00Z"), currency: "gems", quantity: 1))
    let over = try extremeSpace(log: full + [spend])
    let result = runCLI(["check", over.log])
    #expect(result.status == 65)
    #expect(result.stderr.contains("log.jsonl:1001: error: balance limit:"))
    #expect(result.stderr.contains("after 1000000000000000000 already moved"))
  }

  /// Lines of `count` purchases of `life` at the documented maximum price, one subject each.
  private static func maxPriced(_ count: Int) -> [String] {
    (1...count).map { purchase($0, product: "life", extra: #","price":1000000000000000,"currency":"USD""#) }
  }

  @Test("report over 10,000 purchases at the maximum price is an error (65) naming bucket and metric")
  func reportRevenue() throws {
    let space = try extremeSpace(log: Self.maxPriced(10_000))
    let result = runCLI(["report", space.log, "--from", "2026-01-01", "--to", "2026-01-02", "--every", "day"])
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("log.jsonl: error: report: 'revenue.USD' of the bucket starting 2026-01-01T00:00:00Z would pass 4000000000000000000"))
  }

  @Test("report at exactly the report's limit (4,000 purchases at the maximum price) answers the exact sum")
  func reportAtLimit() throws {
    let space = try extremeSpace(log: Self.maxPriced(4000))
    let result = runCLI(["report", space.log, "--from", "2026-01-01", "--to", "2026-01-02", "--every", "day", "--metrics", "revenue"])
    #expect(result.status == 0)
    let report = try JSONValue.parse(result.stdout)
    #expect(firstBucket(report)?["revenue"]?["USD"] == .integer(4_000_000_000_000_000_000))
  }

  /// A partial with one bucket holding `charges` and `revenue.USD`, and a refund rate.
  private static func partial(charges: Int64, revenue: Int64, numerator: Int64 = 0, denominator: Int64 = 0) -> String {
    """
    {"as_of": null, "every": "day", "format": "storeledger-report-partial/1", "buckets": [
      {"start": "2026-01-01T00:00:00Z", "end": "2026-01-02T00:00:00Z", "charges": \(charges),
       "revenue": {"USD": \(revenue)}, "refund_rate": {"numerator": \(numerator), "denominator": \(denominator)}}]}
    """
  }

  /// (first partial, second partial, phrase on stderr).
  static let crafted: [(String, String, String)] = [
    (partial(charges: Int64.max, revenue: 0), partial(charges: 1, revenue: 0), "charges is 9223372036854775807"),
    (partial(charges: 0, revenue: 3_000_000_000_000_000_000), partial(charges: 0, revenue: 3_000_000_000_000_000_000), "'revenue.USD' of the bucket"),
    (partial(charges: 3_000_000_000_000_000_000, revenue: 0), partial(charges: 3_000_000_000_000_000_000, revenue: 0), "'charges' of the bucket"),
    (partial(charges: 0, revenue: Int64.min + 1), partial(charges: 0, revenue: -1), "revenue.USD is -9223372036854775807"),
    (partial(charges: 0, revenue: 0, numerator: Int64.max, denominator: 1), partial(charges: 0, revenue: 0), "rate refund_rate with a numerator"),
    (partial(charges: 0, revenue: 0, numerator: 300_000_000_000_000, denominator: 1), partial(charges: 0, revenue: 0, numerator: 300_000_000_000_000, denominator: 1), "'refund_rate' of the bucket"),
  ]

  @Test("report --merge of crafted partials is an error (65) naming the value, never a trap", arguments: crafted.map(EscapedCase.init))
  func craftedMerge(_ crafted: EscapedCase<(String, String, String)>) throws {
    let (first, second, phrase) = crafted.value
    let space = try Workspace()
    try space.write("a.json", first)
    try space.write("b.json", second)
    let result = runCLI(["report", "--merge", space.path("a.json"), space.path("b.json")])
    #expect(result.status == 65, "\(result.stderr)")
    #expect(result.stderr.contains(phrase), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  @Test("merged partials at the limits sum exactly")
  func mergeAtLimit() throws {
    let space = try Workspace()
    try space.write("a.json", Self.partial(charges: 2_000_000_000_000_000_000, revenue: -2_000_000_000_000_000_000, numerator: 1, denominator: 3))
    try space.write("b.json", Self.partial(charges: 2_000_000_000_000_000_000, revenue: -2_000_000_000_000_000_000, numerator: 1, denominator: 1))
    let result = runCLI(["report", "--merge", space.path("a.json"), space.path("b.json")])
    #expect(result.status == 0, "\(result.stderr)")
    let report = try JSONValue.parse(result.stdout)
    #expect(firstBucket(report)?["charges"] == .integer(4_000_000_000_000_000_000))
    #expect(firstBucket(report)?["revenue"]?["USD"] == .integer(-4_000_000_000_000_000_000))
  }
}
