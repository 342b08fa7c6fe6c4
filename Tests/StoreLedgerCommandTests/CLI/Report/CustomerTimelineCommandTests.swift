import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("The timeline picture stays readable at any size of history")
struct TimelineLayoutTests: EventsScenarioLedgers {
  /// A generated log with heavy usage: its heaviest subject has thousands of events.
  static let heavy: (ledger: Ledger, heaviest: String, typical: String) = {
    let directory = try! temporaryDirectory()
    let log = directory.appendingPathComponent("heavy.jsonl").path
    let result = runCLI(["generate", "--subjects", "200", "--seed", "7", "--usage", "heavy", "--out", log])
    precondition(result.status == 0, result.stderr)
    let ledger = try! LedgerLoader.load(logPath: log, catalog: LedgerLoader.loadCatalog(path: directory.appendingPathComponent("catalog.json").path)).ledger
    let counts = (0..<ledger.subjectCount).map { s in (ledger.symbols.subjects.string(Symbol(rawValue: UInt32(s))), ledger.events(of: Symbol(rawValue: UInt32(s))).count) }
      .sorted { $0.1 > $1.1 }
    return (ledger, counts[0].0, counts[counts.count / 2].0)
  }()

  @Test("no two labels overlap, and every store event is labelled", arguments: ["heaviest", "typical", "demo"])
  func labelsNeverOverlap(which: String) throws {
    let timeline: CustomerTimeline
    if which == "demo" {
      timeline = try CustomerTimeline.build(ledger: try Self.scenario("demo"), subject: "u1", asOf: nil)
    } else {
      let subject = which == "heaviest" ? Self.heavy.heaviest : Self.heavy.typical
      timeline = try CustomerTimeline.build(ledger: Self.heavy.ledger, subject: subject, asOf: nil)
    }
    let html = timeline.html()
    let svg = String(html[html.range(of: "<svg")!.lowerBound..<html.range(of: "</svg>")!.upperBound])
    let boxes = svgTextBoxes(svg)
    var overlaps: [String] = []
    for i in boxes.indices {
      for j in boxes.indices where j > i {
        let a = boxes[i]
        let b = boxes[j]
        if a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom {
          overlaps.append("'\(a.text)' and '\(b.text)'")
        }
      }
    }
    #expect(overlaps.isEmpty, "\(overlaps.prefix(5))")
    // Labels are words; routine renewals are folded into their run's `renewal ×N`; ids are in tooltips.
    for marker in timeline.markers where marker.type != "usage" {
      let labelled = boxes.contains { $0.text == marker.words || $0.text.hasPrefix(marker.words + " learned") }
      let folded = marker.type == "renewal" && boxes.contains { $0.text.hasPrefix("renewal ×") }
      #expect(labelled || folded, "\(marker.id) \(marker.type) has no label")
      #expect(svg.contains("<title>\(marker.words): \(marker.id) "), "\(marker.id) is in no tooltip")
      #expect(!boxes.contains { $0.text.contains(marker.id) }, "\(marker.id) is in a label")
    }
    // No label is cut at an edge of the picture.
    let outside = boxes.filter { $0.left < 0 || $0.right > 1100 }
    #expect(outside.isEmpty, "\(outside.map(\.text).prefix(5))")
    #expect(xmlError(html) == nil)
    if which == "heaviest" {
      #expect(timeline.markers.count > 1000)
      // Thousands of uses become a few dozen bars, not thousands of marks.
      #expect(occurrences(of: "<rect class=\"usage-", in: svg) < 400)
    }
  }
}

@Suite("Timeline text a ticket can carry")
struct TimelineTextTests {
  @Test("a heavy user's uses are counted per day, not listed one by one; a light user's are listed", arguments: [true, false])
  func usesFolded(heavy: Bool) throws {
    let subject = heavy ? TimelineLayoutTests.heavy.heaviest : TimelineLayoutTests.heavy.typical
    let timeline = try CustomerTimeline.build(ledger: TimelineLayoutTests.heavy.ledger, subject: subject, asOf: nil)
    let uses = timeline.markers.filter { $0.type == "usage" }
    let listed = timeline.text.split(separator: "\n").filter { $0.contains(" usage ") }
    if uses.count > Limits.timelineTextUsesMax {
      #expect(heavy || uses.count > 0)
      #expect(listed.isEmpty)
      #expect(timeline.text.contains("(\(uses.count) uses not listed: counted per day under USAGE"))
      #expect(timeline.text.contains("USAGE (per local day"))
    } else {
      #expect(!heavy, "the heaviest subject has only \(uses.count) uses")
      #expect(listed.count == uses.count)
      #expect(!timeline.text.contains("uses not listed"))
    }
    for marker in timeline.markers where marker.type != "usage" { #expect(timeline.text.contains(" \(marker.id) ")) }
  }
}

@Suite("Timeline labels in words")
struct TimelineWordsCommandTests {
  @Test("twelve on-time renewals in a row draw one label, renewal ×12, and a marker each")
  func renewalsFolded() throws {
    var lines = [EventLines.line(.purchase(id: "p", subject: "s", at: ts("2025-01-01T00:00:00Z"), product: "pro.monthly", transaction: "t0", expires: ts("2025-02-01T00:00:00Z")))]
    for month in 1...12 {
      let from = String(format: "%04d-%02d-01", 2025 + month / 12, month % 12 + 1)
      let to = String(format: "%04d-%02d-01", 2025 + (month + 1) / 12, (month + 1) % 12 + 1)
      lines.append(
        EventLines.line(
          .renewal(
            id: "r\(month)", subject: "s", at: ts("\(from)T00:00:00Z"), product: "pro.monthly", transaction: "t\(month)",
            originalTransaction: "t0", expires: ts("\(to)T00:00:00Z"))))
    }
    let space = try Workspace(log: lines.joined(separator: "\n") + "\n")
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(["timeline", space.log, "--subject", "s", "--format", "html"])
    #expect(result.status == 0, "\(result.stderr)")
    let svg = String(result.stdout[result.stdout.range(of: "<svg")!.lowerBound..<result.stdout.range(of: "</svg>")!.upperBound])
    let texts = svgTextBoxes(svg).map(\.text)
    #expect(texts.filter { $0.hasPrefix("renewal") } == ["renewal ×12"], "\(texts)")
    #expect(occurrences(of: "<g class=\"marker\"", in: svg) == 13)
  }
}

@Suite("Timeline delays: drawn to scale only when they matter")
struct TimelineDelayCommandTests {
  /// One subject's log: a renewal learned 3 hours late, a refund learned 3 weeks late and an
  /// auto-renew change delivered 20 seconds after it took effect.
  static let lines = [
    EventLines.line(.purchase(id: "p1", subject: "s", at: ts("2025-01-01T00:00:00Z"), product: "pro.monthly", transaction: "t0", expires: ts("2025-02-01T00:00:00Z"))),
    EventLines.line(.autoRenewChanged(id: "a1", subject: "s", at: ts("2025-01-15T00:00:00Z"), originalTransaction: "t0", autoRenew: false).recordedAt("2025-01-15T00:00:20Z")),
    EventLines.line(.renewal(id: "r1", subject: "s", at: ts("2025-02-01T00:00:00Z"), product: "pro.monthly", transaction: "t1", originalTransaction: "t0", expires: ts("2025-03-01T00:00:00Z")).recordedAt("2025-02-01T03:00:00Z")),
    EventLines.line(.revocation(id: "v1", subject: "s", at: ts("2025-02-10T00:00:00Z"), transaction: "t1", reason: .refund).recordedAt("2025-03-03T00:00:00Z")),
  ]

  /// The markup of the element of `class` whose `data-id` is `id`, up to its closing `</g>`.
  static func group(_ svg: String, _ elementClass: String, _ id: String) -> String? {
    guard let start = svg.range(of: "<g class=\"\(elementClass)\" data-id=\"\(id)\"") else { return nil }
    return String(svg[start.lowerBound..<svg[start.upperBound...].range(of: "</g>")!.upperBound])
  }

  /// A number attribute's value in `markup`.
  static func number(_ markup: String, _ attribute: String) -> Double? {
    guard let start = markup.range(of: " \(attribute)=\"") else { return nil }
    return Double(markup[start.upperBound...].prefix { $0 != "\"" })
  }

  @Test("hours late is a label under its marker and weeks late a line to scale, on one timeline; 20 seconds is on time")
  func hoursAndWeeks() throws {
    let space = try Workspace(log: Self.lines.joined(separator: "\n") + "\n")
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(["timeline", space.log, "--subject", "s", "--format", "html"])
    #expect(result.status == 0, "\(result.stderr)")
    let html = result.stdout
    let svg = String(html[html.range(of: "<svg")!.lowerBound..<html.range(of: "</svg>")!.upperBound])
    let hours = try #require(Self.group(svg, "learned", "r1"))
    #expect(hours.contains("data-drawn=\"words\""))
    #expect(!hours.contains("<path"), "a delay of hours on a two-month axis is no line: \(hours)")
    #expect(hours.contains(">renewal learned 3 hours late</text>"))
    // The label starts at its marker.
    let renewal = try #require(Self.group(svg, "marker", "r1"))
    #expect(Self.number(hours, "x") == Self.number(renewal, "cx").map { $0 + 3 })
    let weeks = try #require(Self.group(svg, "learned", "v1"))
    #expect(weeks.contains("data-drawn=\"toScale\""))
    #expect(occurrences(of: "<path", in: weeks) == 2, "a dashed line and a diamond: \(weeks)")
    #expect(weeks.contains(">refund learned 21 days late</text>"))
    // Twenty seconds is delivery, not lateness: a filled marker and nothing in the learned-late rows.
    #expect(Self.group(svg, "learned", "a1") == nil)
    #expect(try #require(Self.group(svg, "marker", "a1")).contains("data-late=\"false\""))
    #expect(try #require(Self.group(svg, "marker", "r1")).contains("data-late=\"true\""))
    // The text keeps every delay exactly, the 20 seconds included.
    let text = runCLI(["timeline", space.log, "--subject", "s"]).stdout
    #expect(text.contains("2025-01-15T00:00:20Z (+20s)") && text.contains("2025-02-01T03:00:00Z (+3h)"))
    #expect(text.contains("2025-03-03T00:00:00Z (+21d)"))
  }

  @Test("a day of grace on an axis of two years is still a visible segment, and the legend names it in words")
  func graceVisible() throws {
    let log = [
      EventLines.line(.purchase(id: "p", subject: "s", at: ts("2024-01-01T00:00:00Z"), product: "pro.annual", transaction: "t0", expires: ts("2025-01-01T00:00:00Z"))),
      EventLines.line(.renewal(id: "r", subject: "s", at: ts("2025-01-01T00:00:00Z"), product: "pro.annual", transaction: "t1", originalTransaction: "t0", expires: ts("2026-01-01T00:00:00Z"))),
      EventLines.line(.graceEntered(id: "g", subject: "s", at: ts("2026-01-01T00:00:00Z"), originalTransaction: "t0", graceExpires: ts("2026-01-02T00:00:00Z"))),
      EventLines.line(.expiration(id: "x", subject: "s", at: ts("2026-02-01T00:00:00Z"), originalTransaction: "t0", reason: .billing)),
    ]
    let space = try Workspace(log: log.joined(separator: "\n") + "\n")
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let html = runCLI(["timeline", space.log, "--subject", "s", "--format", "html"]).stdout
    var widths: [Double] = []
    var rest = html[...]
    while let start = rest.range(of: "<rect class=\"segment\" data-state=\"grace\"") {
      let element = rest[start.lowerBound...].prefix { $0 != ">" }
      widths.append(Self.number(String(element), "width") ?? 0)
      rest = rest[start.upperBound...]
    }
    // One lane for the entitlement, one for the subscription; a day is about 1 px here.
    #expect(widths.count == 2 && widths.allSatisfy { $0 >= 3 }, "\(widths)")
    #expect(html.contains(">grace period</text>") && html.contains(">billing retry</text>"))
  }

  @Test("a lane named by a long purchase token is clipped inside the picture, whole in its tooltip")
  func longLaneName() throws {
    let token = String(repeating: "abcdefghij", count: 12) + "-end"
    let log = EventLines.line(
      .purchase(
        id: "g1", subject: "s", at: ts("2025-01-01T00:00:00Z"), product: "pro.monthly", transaction: "GPA.1",
        originalTransaction: "\(token)", expires: ts("2025-02-01T00:00:00Z")))
    let space = try Workspace(log: log + "\n")
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let html = runCLI(["timeline", space.log, "--subject", "s", "--format", "html"]).stdout
    let svg = String(html[html.range(of: "<svg")!.lowerBound..<html.range(of: "</svg>")!.upperBound])
    let boxes = svgTextBoxes(svg)
    #expect(boxes.allSatisfy { $0.left >= 0 && $0.right <= 1100 }, "\(boxes.filter { $0.left < 0 }.map(\.text))")
    #expect(boxes.contains { $0.text.hasPrefix("subscription a") && $0.text.hasSuffix("abcdefghij-end") && $0.text.contains("…") })
    #expect(svg.contains("<title>subscription \(token)</title>"))
  }
}
