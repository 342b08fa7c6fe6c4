import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore
@testable import StoreLedgerReport

/// Proceeds, store fees and segments (`report --by`) on a log worked out by hand from
/// Docs/reports.md (monthly buckets, January to March 2026; USD only).
@Suite("Proceeds and segments: stated proceeds net of partial refunds, splits that add up and merge back")
struct ProceedsAndSegmentsTests {
  static let lines = [
    // ann (US, App Store): 10000 with proceeds 7000 in January; a renewal with proceeds 8500 refunded
    // 4000 in February (proceeds less 8500 × 4000 ÷ 10000 = 3400), the refund reversed in March.
    EventLines.line(.purchase(id: "a1", subject: "ann", at: ts("2026-01-10T00:00:00Z"), product: "pro.monthly", transaction: "a1", expires: ts("2026-02-10T00:00:00Z"), price: 10000, currency: "USD", store: "appstore", country: "US", proceeds: 7000)),
    EventLines.line(.renewal(id: "a2", subject: "ann", at: ts("2026-02-10T00:00:00Z"), product: "pro.monthly", transaction: "a2", originalTransaction: "a1", expires: ts("2026-03-10T00:00:00Z"), price: 10000, currency: "USD", store: "appstore", country: "US", proceeds: 8500)),
    EventLines.line(.revocation(id: "a3", subject: "ann", at: ts("2026-02-20T00:00:00Z"), transaction: "a2", reason: .refund, refunded: 4000)),
    EventLines.line(.refundReversed(id: "a4", subject: "ann", at: ts("2026-03-05T00:00:00Z"), transaction: "a2")),
    // bob (DE, Google Play): 5000 with proceeds 4250; lapses on 15 February.
    EventLines.line(.purchase(id: "b1", subject: "bob", at: ts("2026-01-15T00:00:00Z"), product: "voice.monthly", transaction: "b1", expires: ts("2026-02-15T00:00:00Z"), price: 5000, currency: "USD", store: "googleplay", country: "DE", proceeds: 4250)),
    // cat: a lifetime unlock for 3000 stating nothing (proceeds unknown, segment unknown).
    EventLines.line(.purchase(id: "c1", subject: "cat", at: ts("2026-02-01T00:00:00Z"), product: "pro.lifetime", transaction: "c1", price: 3000, currency: "USD")),
    // dan (US, App Store): 999 with proceeds 333, refunded 500 (proceeds less 333 × 500 ÷ 999 = 166.67, so 167).
    EventLines.line(.purchase(id: "d1", subject: "dan", at: ts("2026-01-20T00:00:00Z"), product: "pro.monthly", transaction: "d1", expires: ts("2026-02-20T00:00:00Z"), price: 999, currency: "USD", store: "appstore", country: "US", proceeds: 333)),
    EventLines.line(.revocation(id: "d2", subject: "dan", at: ts("2026-01-25T00:00:00Z"), transaction: "d1", reason: .refund, refunded: 500)),
  ]

  static let buckets = { try! ReportBuckets(from: ts("2026-01-01T00:00:00Z"), to: ts("2026-04-01T00:00:00Z"), every: .month) }()

  /// The facts of `lines`, as the report command reads them again from the file.
  static func facts(_ lines: [String]) -> ChargeFacts {
    var facts = ChargeFacts()
    for (index, line) in lines.enumerated() { facts.note(line: UInt32(index + 1), bytes: Array(line.utf8)) }
    return facts
  }

  static func report(_ lines: [String] = lines, by key: ReportSegmentKey? = nil) throws -> Report {
    try ReportBuilder.report(
      ledger: try ledger(lines.joined(separator: "\n")), buckets: buckets, asOf: nil, facts: facts(lines), by: key)
  }

  static func usd(_ amount: Int64) -> MetricValue { amount == 0 ? .keyed([]) : .keyed([(key: "USD", value: amount)]) }

  @Test(
    "proceeds and store fees follow the stated proceeds, less each refund's share and back with its reversal",
    arguments: [
      // (bucket, revenue, proceeds, store fees, unknown revenue, unknown charges)
      (0, 15499, 11416, 4083, 0, 0), (1, 9000, 5100, 900, 3000, 1), (2, 4000, 3400, 600, 0, 0),
    ] as [(Int, Int64, Int64, Int64, Int64, Int64)])
  func proceeds(bucket: Int, revenue: Int64, proceeds: Int64, fees: Int64, unknownRevenue: Int64, unknown: Int64) throws {
    let b = try Self.report().buckets[bucket]
    #expect(b["revenue"] == Self.usd(revenue))
    #expect(b["proceeds"] == Self.usd(proceeds))
    #expect(b["store_fees"] == Self.usd(fees))
    #expect(b["proceeds_unknown_revenue"] == Self.usd(unknownRevenue))
    #expect(b["proceeds_unknown"] == .count(unknown))
    #expect(proceeds + fees + unknownRevenue == revenue)
  }

  @Test("a refund's share of the proceeds is rounded half away from zero", arguments: [
    (333, -500, 999, -167), (333, 500, 999, 167), (8500, -4000, 10000, -3400), (1, -1, 2, -1), (0, -5, 10, 0), (0, 0, 0, 0),
  ] as [(Int64, Int64, Int64, Int64)])
  func share(proceeds: Int64, amount: Int64, price: Int64, expected: Int64) {
    #expect(ReportBuilder.share(of: proceeds, amount: amount, price: price) == expected)
  }

  @Test(
    "a split by country counts each charge in its storefront's segment and the rest in unknown",
    arguments: [
      // (segment, bucket, revenue, proceeds, charges, MRR at the bucket's end, subscribers)
      ("US", 0, 10499, 7166, 2, 10000, 1), ("US", 1, 6000, 5100, 1, 0, 0), ("US", 2, 4000, 3400, 0, 0, 0),
      ("DE", 0, 5000, 4250, 1, 5000, 1), ("DE", 1, 0, 0, 0, 0, 0),
      ("unknown", 0, 0, 0, 0, 0, 0), ("unknown", 1, 3000, 0, 1, 0, 0),
    ] as [(String, Int, Int64, Int64, Int64, Int64, Int64)])
  func byCountry(
    segment: String, bucket: Int, revenue: Int64, proceeds: Int64, charges: Int64, mrr: Int64, subscribers: Int64
  ) throws {
    let segments = try #require(try Self.report(by: .country).segments)
    #expect(segments.parts.map(\.value) == ["DE", "US", "unknown"])
    let b = try #require(segments.parts.first { $0.value == segment }).buckets[bucket]
    #expect(b["revenue"] == Self.usd(revenue))
    #expect(b["proceeds"] == Self.usd(proceeds))
    #expect(b["charges"] == .count(charges))
    #expect(b["mrr"] == Self.usd(mrr))
    #expect(b["subscribers"] == .count(subscribers))
  }

  @Test("the lifetime unlock stating no country holds pro in the unknown segment, not in US")
  func entitlementBySegment() throws {
    let parts = try #require(try Self.report(by: .country).segments).parts
    let unknown = try #require(parts.first { $0.value == "unknown" })
    let us = try #require(parts.first { $0.value == "US" })
    #expect(unknown.buckets[1]["active"]?["pro"] == 1)
    #expect(us.buckets[1]["active"]?["pro"] == 0)
    #expect(us.buckets[0]["active"]?["pro"] == 1)
  }

  @Test(
    "money and event counts of the segments add up to the whole report",
    arguments: ReportSegmentKey.allCases.filter { $0 != .entitlement })
  func segmentsAddUp(key: ReportSegmentKey) throws {
    let report = try Self.report(by: key)
    let parts = try #require(report.segments).parts
    let additive = ["revenue", "proceeds", "store_fees", "proceeds_unknown_revenue", "refunded", "reversed", "mrr"]
    for (index, bucket) in report.buckets.enumerated() {
      for name in additive {
        #expect(parts.map { $0.buckets[index][name]?["USD"] ?? 0 }.reduce(0, +) == bucket[name]?["USD"], "\(key) \(name)")
      }
      for name in ["charges", "refunds", "refund_reversals", "proceeds_unknown"] {
        guard case .count(let whole)? = bucket[name] else { Issue.record("\(name) is no count"); continue }
        let sum = parts.map { part -> Int64 in
          if case .count(let n)? = part.buckets[index][name] { return n } else { return 0 }
        }.reduce(0, +)
        #expect(sum == whole, "\(key) \(name)")
      }
    }
  }

  @Test("shards' partial reports split by store merge back into the whole log's split report")
  func mergeKeepsSegments() throws {
    let whole = try Self.report(by: .store)
    let shards = [Array(Self.lines[0..<4]) + Self.lines[5...5], Array(Self.lines[4...4]) + Self.lines[6...]]
    var partials: [Report] = []
    for (index, lines) in shards.enumerated() {
      // Each shard keeps the whole log's line numbers, as `--shard` does.
      var numbered = Array(repeating: "", count: Self.lines.count)
      for line in lines { numbered[Self.lines.firstIndex(of: line)!] = line }
      let report = try ReportBuilder.report(
        ledger: try ledger(numbered.joined(separator: "\n")), buckets: Self.buckets, asOf: nil, facts: Self.facts(numbered),
        by: .store)
      let bytes = Array(JSONWriter.pretty(report.partialJSONValue).utf8)
      partials.append(try Report.parsePartial(bytes, file: "shard\(index)"))
    }
    let merged = try Report.merging(partials, files: ["shard0", "shard1"])
    #expect(merged.segments == whole.segments)
    #expect(merged.buckets == whole.buckets)
  }

  @Test("facts are read again from the log file, whatever the read size", arguments: [1, 7, 64, 1 << 20])
  func readFromFile(chunkBytes: Int) throws {
    let text = Self.lines.joined(separator: "\n") + "\n"
    let path = try temporaryDirectory().appendingPathComponent("log.jsonl").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let ledger = try ledger(Self.lines.joined(separator: "\n"))
    let read = try ChargeFacts.read(path: path, for: ledger, chunkBytes: chunkBytes)
    #expect(ChargeFacts.lines(of: ledger) == [1, 2, 5, 7])
    for line in UInt32(1)...UInt32(Self.lines.count) {
      #expect(read.facts(line: line) == Self.facts(Self.lines).facts(line: line), "line \(line)")
    }
    #expect(read.facts(line: 7) == ChargeFacts.Facts(store: "appstore", country: "US", proceeds: 333))
  }

  @Test("a split CSV has a segment column: the whole report's rows as all, then each segment's")
  func csvSegments() throws {
    let csv = try Self.report(by: .store).csv
    let rows = csv.split(separator: "\n")
    #expect(rows[0].hasPrefix("segment,start,end,"))
    #expect(rows.dropFirst().map { $0.prefix { $0 != "," } } == ["all", "all", "all", "appstore", "appstore", "appstore",
      "googleplay", "googleplay", "googleplay", "unknown", "unknown", "unknown"])
  }

  @Test("a split HTML page is well-formed and has a row per segment, the whole report first")
  func htmlSegments() throws {
    let html = try Self.report(by: .country).html(log: "log")
    #expect(xmlError(html) == nil)
    let section = try #require(html.range(of: "<h2>Split by country</h2>")).upperBound
    let rows = html[section...].components(separatedBy: "<tr><th>").dropFirst(2).map { $0.prefix { $0 != "<" } }
    #expect(rows.prefix(4) == ["all", "DE", "US", "unknown"])
  }
}
