import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Customer timeline: lanes, markers and late knowledge")
struct CustomerTimelineTests: EventsScenarioLedgers {
  @Test("u1's lanes are what query answers inside them; the late refund is marked where it took effect")
  func demo() throws {
    let timeline = try CustomerTimeline.build(ledger: try Self.scenario("demo"), subject: "u1", asOf: nil)
    #expect(timeline.lanes.map { "\($0.kind) \($0.name)" } == ["entitlement pro", "subscription u1-t1"])
    #expect(
      timeline.lanes[0].segments == [
        .init(from: ts("2026-02-01T10:00:00Z"), to: ts("2026-03-04T16:00:00Z"), state: "active", product: "pro.monthly"),
        .init(from: ts("2026-03-12T10:00:00Z"), to: ts("2027-03-12T10:00:00Z"), state: "active", product: "pro.annual"),
      ])
    #expect(timeline.lanes[1].segments.map(\.state) == ["active", "revoked", "active", "expired"])
    #expect(timeline.markers.map(\.id) == ["e1", "e4", "e6", "e7"])
    #expect(timeline.markers.filter(\.isLate).map(\.id) == ["e6"])
    #expect(CustomerTimeline.delay(timeline.markers[2]) == "4d 16h")
  }

  @Test("as of 6 March the late refund is unknown: no revoked span and no marker for it")
  func asOf() throws {
    let timeline = try CustomerTimeline.build(ledger: try Self.scenario("demo"), subject: "u1", asOf: ts("2026-03-06T00:00:00Z"))
    #expect(timeline.markers.map(\.id) == ["e1", "e4"])
    #expect(!timeline.lanes[1].segments.contains { $0.state == "revoked" })
    #expect(timeline.lanes[0].segments.map(\.to) == [ts("2026-04-01T10:00:00Z")])
  }

  @Test("an unknown subject is an error with exit 66, not an empty picture")
  func unknownSubject() throws {
    let ledger = try Self.scenario("demo")
    do {
      _ = try CustomerTimeline.build(ledger: ledger, subject: "nobody", asOf: nil)
      Issue.record("no error")
    } catch {
      #expect(error.exitCode == 66)
      #expect(error.message.contains("'nobody'"))
    }
  }

  @Test(
    "the HTML is well-formed with one lane per entitlement and subscription, one marker per store event and dated axes",
    arguments: [("demo", "u1"), ("grace-recovery", "hank"), ("out-of-order-late", "hal"), ("consumables", "gus"),
      ("family-sharing", "lena")])
  func html(scenario: String, subject: String) throws {
    let ledger = try Self.scenario(scenario)
    let timeline = try CustomerTimeline.build(ledger: ledger, subject: subject, asOf: nil)
    let html = timeline.html()
    #expect(xmlError(html) == nil, "\(xmlError(html) ?? "")")
    #expect(!html.contains("<script"))
    let reference = ledger.timeline(subject: ledger.subject(named: subject)!)
    #expect(occurrences(of: #"data-kind="entitlement""#, in: html) == reference.entitlements.count)
    #expect(occurrences(of: #"data-kind="subscription""#, in: html) == reference.subscriptions.count)
    #expect(occurrences(of: #"data-kind="balance""#, in: html) == reference.balances.count)
    let events = ledger.events(of: ledger.subject(named: subject)!)
    let storeEvents = events.filter { $0.kind != .usage }
    #expect(occurrences(of: #"<g class="marker""#, in: html) == storeEvents.count)
    // Late by a minute or more: under a minute is delivery, drawn as on time.
    let late = storeEvents.filter { $0.recorded.millisecondsSinceEpoch - $0.at.millisecondsSinceEpoch >= 60_000 }
    #expect(occurrences(of: #"<g class="learned""#, in: html) == late.count)
    #expect(occurrences(of: #"class="axis-date""#, in: html) >= 2)
    for event in events { #expect(html.contains(ledger.symbols.ids.string(event.id))) }
  }

  @Test("axis ticks fall on calendar boundaries and stay few", arguments: [
    ("2026-03-01T00:00:00Z", "2026-03-08T00:00:00Z", "2026-03-02"),
    ("2026-03-01T00:00:00Z", "2026-04-20T00:00:00Z", "2026-03-02"),
    ("2026-03-01T12:00:00Z", "2026-12-01T00:00:00Z", "2026-04"),
    ("2026-03-01T00:00:00Z", "2030-03-01T00:00:00Z", "2027"),
  ])
  func ticks(from: String, to: String, first: String) {
    let ticks = CustomerTimeline.ticks(from: ts(from), to: ts(to))
    #expect(ticks.first?.label == first)
    #expect(ticks.count <= 14)
    #expect(ticks.allSatisfy { $0.time > ts(from) && $0.time < ts(to) })
  }

  @Test("the text table lists every event with its line, and late ones with when they were learned")
  func text() throws {
    let text = try CustomerTimeline.build(ledger: try Self.scenario("demo"), subject: "u1", asOf: nil).text
    #expect(text.contains("2026-03-09T08:00:00Z (+4d 16h)"))
    for id in ["e1", "e4", "e6", "e7"] { #expect(text.contains(" \(id) ")) }
    #expect(text.contains("ENTITLEMENTS") && text.contains("SUBSCRIPTIONS"))
  }
}

@Suite("Timeline labels in words")
struct TimelineWordsTests {
  @Test("the demo's refund is labelled in words, and as learned 4 days late; its id is only in the tooltip")
  func refundInWords() throws {
    let ledger = try CustomerTimelineTests.scenario("demo")
    let html = try CustomerTimeline.build(ledger: ledger, subject: "u1", asOf: nil).html()
    let boxes = svgTextBoxes(String(html[html.range(of: "<svg")!.lowerBound..<html.range(of: "</svg>")!.upperBound]))
    #expect(boxes.contains { $0.text == "refund" })
    #expect(boxes.contains { $0.text == "refund learned 4 days late" }, "\(boxes.map(\.text))")
    #expect(html.contains("<title>refund: e6 revocation at 2026-03-04T16:00:00Z, learned 2026-03-09T08:00:00Z"))
  }
}

@Suite("Timeline delays: drawn to scale only when they matter")
struct TimelineDelayTests {
  @Test("a delay is drawn to scale from the diamond's width, 12 px of the axis", arguments: [
    (0.0, DelayDrawing.words), (11.99, .words), (12.0, .toScale), (400.0, .toScale),
  ])
  func threshold(pixels: Double, expected: DelayDrawing) {
    #expect(DelayDrawing.of(pixels: pixels) == expected)
  }
}
