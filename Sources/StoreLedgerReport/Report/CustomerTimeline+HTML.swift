import StoreLedgerCore

extension CustomerTimeline {
  /// One self-contained HTML page: the lanes as an inline SVG picture, then the tables.
  /// - Complexity: O(events + segments).
  package func html() -> String {
    var page = HTMLPage()
    page.element("h1", "Customer timeline: \(subject)")
    page.element(
      "p",
      "As known " + (asOf.map { "at \($0.rfc3339)" } ?? "now (every event in the log)")
        + ". Each lane shows what query --at would answer inside it; hollow markers are events the ledger learned late, linked to the moment it learned them.",
      attributes: "class=\"meta\"")
    page.append(svg())
    func rows(_ markers: [Marker]) -> [[String]] {
      markers.map { marker in
        [
          marker.at.rfc3339, marker.isLate ? marker.recorded.rfc3339 + " (+" + Self.delay(marker) + ")" : "",
          String(marker.line), marker.id, marker.type, marker.details,
        ]
      }
    }
    let header = ["at", "learned", "line", "id", "type", "details"]
    page.element("h2", "Events")
    page.append("<div class=\"scroll\">\n")
    page.table(header: header, rows: rows(markers.filter { $0.type != "usage" }), attributes: "class=\"text\"")
    page.append("</div>\n")
    // Uses can number thousands: drawn in their lanes, listed folded away.
    let uses = markers.filter { $0.type == "usage" }
    if !uses.isEmpty {
      page.append("<details class=\"usage-events\"><summary>")
      page.append(HTMLPage.escape("Usage events (\(uses.count))"))
      page.append("</summary>\n<div class=\"scroll\">\n")
      page.table(header: header, rows: rows(uses), attributes: "class=\"text\"")
      page.append("</div>\n</details>\n")
    }
    page.element("h2", "States")
    page.table(
      header: ["lane", "from", "to", "state", "product"],
      rows: lanes.flatMap { lane in
        lane.segments.map { ["\(lane.kind) \(lane.name)", $0.from.rfc3339, $0.to?.rfc3339 ?? "…", $0.state, $0.product] }
      }, attributes: "class=\"text\"")
    return page.document(title: "StoreLedger timeline: \(subject)")
  }

  static let stateColours: [(state: String, colour: String)] = [
    ("active", "#19a979"), ("grace", "#f2b705"), ("billing_retry", "#e8743b"), ("expired", "#b8bec9"),
    ("revoked", "#d64545"), (ownedState, "#5b6bd6"),
  ]

  /// A state as the picture words it: `billing retry`, `grace period`.
  static func words(state: String) -> String {
    switch state {
    case "grace": return "grace period"
    case "billing_retry": return "billing retry"
    default: return state
    }
  }

  static func colour(state: String) -> String {
    stateColours.first(where: { $0.state == state })?.colour ?? "#6c7a89"
  }

  static func colour(eventType: String) -> String {
    switch EventKind(name: eventType) {
    case .revocation: return "#d64545"
    case .refundReversed: return "#19a979"
    case .billingRetry, .graceEntered, .expiration: return "#e8743b"
    case let kind?: return kind.isCharge ? "#2f6fdb" : "#6c7a89"
    case nil: return "#6c7a89"
    }
  }

  /// The span the picture shows: the events (effective and learned) and a margin after them.
  ///
  /// Periods often run far beyond the last event (an annual plan bought yesterday); drawing them
  /// whole would squeeze the events into a corner, so they are cut at the right edge.
  private var span: (start: Timestamp, end: Timestamp) {
    var instants: [Timestamp] = markers.flatMap { [$0.at, $0.recorded] }
    if instants.isEmpty { instants = lanes.flatMap { $0.segments.map(\.from) } }
    guard let first = instants.min(), let last = instants.max() else {
      return (.distantPast, .distantPast)
    }
    let length = max(last.millisecondsSinceEpoch - first.millisecondsSinceEpoch, 86_400_000)
    return (first.adding(milliseconds: -length / 25), last.adding(milliseconds: max(length / 4, 3 * 86_400_000)))
  }

  private func svg() -> String {
    var picture = TimelineSVG(timeline: self, span: span)
    picture.drawStateLanes()
    picture.drawBalanceLanes()
    picture.drawUsageLanes()
    let lanesBottom = picture.y - TimelineSVG.laneGap
    picture.drawMarkers()
    picture.drawLearnedLate()
    picture.drawAxis(lanesBottom: lanesBottom)
    picture.drawLegend()
    return picture.document()
  }

  /// Calendar ticks in UTC, at most about 12: days, Mondays, months, quarters or years.
  static func ticks(from start: Timestamp, to end: Timestamp) -> [(time: Timestamp, label: String)] {
    guard start < end else { return [] }
    let days = (end.millisecondsSinceEpoch - start.millisecondsSinceEpoch) / 86_400_000
    let (interval, step, labelLength): (ReportInterval, Int, Int) =
      days <= 12 ? (.day, 1, 10) : days <= 84 ? (.week, 1, 10) : days <= 370 ? (.month, 1, 7)
      : days <= 1100 ? (.month, 3, 7) : (.month, 12, 4)
    var ticks: [(Timestamp, String)] = []
    var time = interval.next(after: interval.start(of: start))
    if step == 12 {
      while String(time.rfc3339.dropFirst(5).prefix(2)) != "01" { time = interval.next(after: time) }
    }
    while time < end && ticks.count < 40 {
      ticks.append((time, String(time.rfc3339.prefix(labelLength))))
      for _ in 0..<step { time = interval.next(after: time) }
    }
    return ticks
  }
}

/// The timeline's SVG, drawn lane by lane from the top; every label goes through `labels`, so no
/// two overlap at any size of history (a heavy user's thousands of uses included).
private struct TimelineSVG {
  static let width = 1100.0
  static let left = 200.0
  static let right = 24.0
  static let laneHeight = 26.0
  static let laneGap = 10.0
  /// The narrowest a state's segment is drawn, however short it is on the axis.
  static let segmentMinPx = 3.0
  static let axisY = 44.0
  /// Label rows under the event markers at most; store events are far fewer than this.
  static let labelRowsMax = 40

  let timeline: CustomerTimeline
  let start: Timestamp
  let end: Timestamp
  var y = axisY + 14
  var body = ""
  var header = ""
  var labels = LabelBoxes()
  /// Where the event markers sit.
  var eventsY = 0.0

  init(timeline: CustomerTimeline, span: (start: Timestamp, end: Timestamp)) {
    self.timeline = timeline
    (start, end) = span
  }

  var plotWidth: Double { Self.width - Self.left - Self.right }

  func x(_ time: Timestamp) -> Double {
    let length = Double(end.millisecondsSinceEpoch - start.millisecondsSinceEpoch)
    return Self.left + plotWidth * Double(time.millisecondsSinceEpoch - start.millisecondsSinceEpoch) / max(length, 1)
  }

  /// A label's markup if it overlaps nothing drawn (and it is then counted as drawn), else "".
  mutating func text(_ text: String, x: Double, y: Double, anchor: String = "start", attributes: String = "") -> String {
    guard !labels.collides(text, x: x, y: y, anchor: anchor) else { return "" }
    labels.add(text, x: x, y: y, anchor: anchor)
    let anchorAttribute = anchor == "start" ? "" : " text-anchor=\"\(anchor)\""
    return "<text x=\"\(SVGChart.number(x))\" y=\"\(SVGChart.number(y))\"\(anchorAttribute)\(attributes)>\(HTMLPage.escape(text))</text>"
  }

  /// A lane's name at the left and its background.
  mutating func laneStart(kind: String, name: String, title: String, height: Double) {
    body += "<g class=\"lane\" data-kind=\"\(kind)\" data-name=\"\(HTMLPage.escape(name))\">\n"
    // A long name (a purchase token) would run past the left edge: it is clipped, whole in the tooltip.
    let shown = LabelBoxes.clipped(title, toWidth: Self.left - 12)
    let markup = text(shown, x: Self.left - 8, y: y + min(17, height / 2 + 4), anchor: "end")
    body += shown == title ? markup : "<g><title>\(HTMLPage.escape(title))</title>\(markup)</g>"
    body += "\n<rect x=\"\(SVGChart.number(Self.left))\" y=\"\(SVGChart.number(y))\" width=\"\(SVGChart.number(plotWidth))\" height=\"\(SVGChart.number(height))\" fill=\"#f6f7fa\"/>\n"
  }

  mutating func drawStateLanes() {
    for lane in timeline.lanes {
      laneStart(kind: lane.kind, name: lane.name, title: lane.kind + " " + lane.name, height: Self.laneHeight)
      for segment in lane.segments where segment.from < end {
        let from = x(segment.from)
        let isCut = segment.to.map { $0 > end } ?? true
        let to = isCut ? Self.width - Self.right : x(segment.to!)
        let title = "\(lane.kind) \(lane.name): \(segment.state), \(segment.product), \(segment.from.rfc3339) to \(segment.to?.rfc3339 ?? "open")"
        // A day of grace on an axis of years stays a visible sliver, not a hairline.
        body += "<rect class=\"segment\" data-state=\"\(segment.state)\" x=\"\(SVGChart.number(from))\" y=\"\(SVGChart.number(y))\" width=\"\(SVGChart.number(max(to - from, Self.segmentMinPx)))\" height=\"\(SVGChart.number(Self.laneHeight))\" fill=\"\(CustomerTimeline.colour(state: segment.state))\"\(isCut ? " fill-opacity=\"0.65\"" : "")><title>\(HTMLPage.escape(title))</title></rect>\n"
        let words = CustomerTimeline.words(state: segment.state)
        var label = segment.state == "active" ? segment.product : words + " · " + segment.product
        if isCut { label += segment.to.map { " → " + String($0.rfc3339.prefix(10)) } ?? " →" }
        // The state alone when the product does not fit: a short grace period still says so.
        let fitting = [label, segment.state == "active" ? nil : words].compactMap { $0 }
          .first { to - from > Double($0.count) * LabelBoxes.charWidth + 8 }
        if let fitting {
          let markup = text(fitting, x: from + 5, y: y + 17, attributes: " style=\"fill:#10141c\"")
          body += markup
          body += "\n"
        }
      }
      body += "</g>\n"
      y += Self.laneHeight + Self.laneGap
    }
  }

  /// A step line per currency, its values written where they fit.
  mutating func drawBalanceLanes() {
    for (currency, changes) in timeline.balances {
      let height = 44.0
      let values = changes.map(\.balance)
      let high = Double(max(values.max() ?? 0, 0))
      let low = Double(min(values.min() ?? 0, 0))
      let top = y
      func level(_ value: Int64) -> Double { top + height - 4 - (height - 8) * (Double(value) - low) / max(high - low, 1) }
      laneStart(kind: "balance", name: currency, title: "balance " + currency, height: height)
      var points: [String] = []
      for (index, change) in changes.enumerated() where change.at < end {
        let next = index + 1 < changes.count ? x(min(changes[index + 1].at, end)) : Self.width - Self.right
        points.append(SVGChart.number(x(change.at)) + "," + SVGChart.number(level(change.balance)))
        points.append(SVGChart.number(next) + "," + SVGChart.number(level(change.balance)))
        let markup = text(String(change.balance), x: x(change.at) + 3, y: max(level(change.balance) - 3, top + 10))
        body += markup
      }
      body += "\n<polyline fill=\"none\" stroke=\"#945ecf\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>\n</g>\n"
      y += height + Self.laneGap
    }
  }

  /// Uses per feature as bars per day, or per week or month once days would be thinner than 4 px
  /// (a density lane); the daily limit as a red line over day bars.
  mutating func drawUsageLanes() {
    let days = (end.millisecondsSinceEpoch - start.millisecondsSinceEpoch) / ReportInterval.dayMs
    let bucket = UsageBucket.fitting(days: days, width: plotWidth)
    for (feature, usageDays) in timeline.usage {
      let height = 60.0
      let bars = Self.buckets(usageDays, by: bucket)
      let high = Double(max(bars.map { max($0.used, $0.limit ?? 0) }.max() ?? 1, 1))
      let top = y
      func level(_ value: Int64) -> Double { top + height - 2 - (height - 18) * Double(max(value, 0)) / high }
      laneStart(kind: "usage", name: feature, title: "usage " + feature + " per " + bucket.rawValue, height: height)
      for bar in bars where bar.start < end {
        let from = x(bar.start)
        let to = x(min(bar.end, end))
        let over = bar.overLimitDays > 0
        body += "<rect class=\"usage-\(bucket.rawValue)\" x=\"\(SVGChart.number(from))\" y=\"\(SVGChart.number(level(bar.used)))\" width=\"\(SVGChart.number(max(to - from - 1, 2)))\" height=\"\(SVGChart.number(max(top + height - 2 - level(bar.used), 0.5)))\" fill=\"\(over ? "#d64545" : "#13a4b4")\"><title>\(HTMLPage.escape(feature + " " + bar.title))</title></rect>\n"
        if let limit = bar.limit {
          body += "<line class=\"limit\" x1=\"\(SVGChart.number(from - 1))\" y1=\"\(SVGChart.number(level(limit)))\" x2=\"\(SVGChart.number(max(to, from + 2) + 1))\" y2=\"\(SVGChart.number(level(limit)))\" stroke=\"#d64545\" stroke-width=\"2\"/>\n"
        }
        let label = "\(bar.used)" + (bar.limit.map { "/\($0)" } ?? "")
        let markup = text(label, x: from, y: max(min(level(bar.used), level(bar.limit ?? 0)) - 3, top + 10))
        body += markup
      }
      body += "\n</g>\n"
      y += height + Self.laneGap
    }
  }

  /// One bar of the usage lane.
  struct UsageBar {
    var start: Timestamp
    var end: Timestamp
    var used: Int64
    /// The daily limit, for a day bar.
    var limit: Int64?
    var overLimitDays: Int
    var title: String
  }

  /// Usage days gathered into day, week (from Monday) or month bars, in local time.
  static func buckets(_ days: [CustomerTimeline.UsageDay], by bucket: UsageBucket) -> [UsageBar] {
    var bars: [UsageBar] = []
    var keys: [String] = []
    for day in days {
      let over = day.limit.map { day.used > $0 } == true ? 1 : 0
      let dayEnd = day.start.adding(milliseconds: ReportInterval.dayMs)
      // Local midnight of the bar's first day: days are local already, so whole days back.
      let daysBack: Int64
      switch bucket {
      case .day: daysBack = 0
      case .week: daysBack = Self.daysSinceMonday(day.date)
      case .month: daysBack = (Int64(day.date.suffix(2)) ?? 1) - 1
      }
      let start = day.start.adding(milliseconds: -daysBack * ReportInterval.dayMs)
      let key = start.rfc3339
      if keys.last == key {
        bars[bars.count - 1].used += day.used
        bars[bars.count - 1].overLimitDays += over
        bars[bars.count - 1].end = dayEnd
      } else {
        keys.append(key)
        bars.append(UsageBar(start: start, end: dayEnd, used: day.used, limit: bucket == .day ? day.limit : nil, overLimitDays: over, title: ""))
      }
      let bar = bars[bars.count - 1]
      let period = bucket == .day ? day.date : bucket == .week ? "week from " + String(bar.start.rfc3339.prefix(10)) : String(day.date.prefix(7))
      bars[bars.count - 1].title =
        "\(period): \(bar.used) used" + (bar.limit.map { ", limit \($0)" } ?? "") + (day.tier.map { " (\($0))" } ?? "")
        + (bucket != .day && bar.overLimitDays > 0 ? ", \(bar.overLimitDays) days over the daily limit" : "")
    }
    return bars
  }

  /// Days from the Monday of the week holding `date` (YYYY-MM-DD) to it: 0 on a Monday.
  static func daysSinceMonday(_ date: String) -> Int64 {
    guard let midnight = Timestamp.parseRFC3339(date + "T00:00:00Z") else { return 0 }
    // 1970-01-01 was a Thursday, 3 days after a Monday.
    let day = floorDivide(midnight.millisecondsSinceEpoch, ReportInterval.dayMs)
    return (day + 3) - floorDivide(day + 3, 7) * 7
  }

  /// A marker per store event with its label on the first free row (rows grow as needed); usage
  /// events are in their lanes, not here.
  mutating func drawMarkers() {
    eventsY = y + 8
    let markup = text("events (effective time)", x: Self.left - 8, y: eventsY + 4, anchor: "end")
    body += markup
    body += "\n"
    var rows = LabelRows(rowsMax: Self.labelRowsMax)
    let storeEvents = timeline.markers.filter { $0.type != "usage" }
    let labels = Self.markerLabels(storeEvents)
    var placed: [(marker: CustomerTimeline.Marker, label: String?, row: Int?, anchor: String)] = []
    for (marker, label) in zip(storeEvents, labels) {
      guard let label else {
        placed.append((marker, nil, nil, "start"))
        continue
      }
      let at = x(marker.at)
      let width = Double(label.count) * LabelBoxes.charWidth
      // A label that would run past the right edge ends at its marker instead.
      let anchor = at + 3 + width > Self.width - 2 ? "end" : "start"
      let (left, right) = anchor == "end" ? (at - 3 - width, at - 3) : (at + 3, at + 3 + width)
      placed.append((marker, label, rows.place(left: left, right: right), anchor))
    }
    for (marker, label, row, anchor) in placed {
      let at = x(marker.at)
      let colour = CustomerTimeline.colour(eventType: marker.type)
      let isLate = marker.lateness != nil
      body += "<g class=\"marker\" data-id=\"\(HTMLPage.escape(marker.id))\" data-late=\"\(isLate)\">"
      body += "<title>\(HTMLPage.escape("\(marker.words): \(marker.id) \(marker.type) at \(marker.at.rfc3339)" + (marker.isLate ? ", learned \(marker.recorded.rfc3339)" : "") + (marker.details.isEmpty ? "" : ": " + marker.details)))</title>"
      let labelY = eventsY + 22 + Double(row ?? 0) * 14
      body += "<line x1=\"\(SVGChart.number(at))\" y1=\"\(SVGChart.number(eventsY + 6))\" x2=\"\(SVGChart.number(at))\" y2=\"\(SVGChart.number(row == nil ? eventsY : labelY - 9))\" stroke=\"\(colour)\" stroke-opacity=\"0.35\"/>"
      body += "<circle cx=\"\(SVGChart.number(at))\" cy=\"\(SVGChart.number(eventsY))\" r=\"5\" fill=\"\(isLate ? "#ffffff" : colour)\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
      if let label, row != nil {
        let markup = text(
          label, x: anchor == "end" ? at - 3 : at + 3, y: labelY, anchor: anchor, attributes: " fill=\"\(colour)\" style=\"fill:\(colour)\"")
        body += markup
      }
      body += "</g>\n"
    }
    y = eventsY + 22 + Double(max(rows.ends.count, 1)) * 14
  }

  /// Store events learned a minute or more late, on rows of their own: a delay long enough to
  /// see on the axis is drawn to scale, a dashed line from where the event took effect to a
  /// diamond where the ledger learned it; a shorter one is its label alone, under its marker
  /// (`DelayDrawing`).
  mutating func drawLearnedLate() {
    let late = timeline.markers.filter { $0.lateness != nil && $0.type != "usage" }
    guard !late.isEmpty else { return }
    let learnedY = y + 6
    let markup = text("learned late (knowledge time)", x: Self.left - 8, y: learnedY + 4, anchor: "end")
    body += markup
    body += "\n"
    var rows = LabelRows(rowsMax: Self.labelRowsMax)
    for marker in late {
      let at = x(marker.at)
      let learned = x(min(marker.recorded, end))
      let drawing = DelayDrawing.of(pixels: learned - at)
      let label = marker.words + " learned " + (marker.lateness ?? "late")
      let width = Double(label.count) * LabelBoxes.charWidth
      // Drawn to scale the label follows the diamond, else its marker; past the right edge it
      // ends before them instead of being cut.
      let origin = drawing == .toScale ? learned + 9 : at + 3
      let anchor = origin + width > Self.width - 2 ? "end" : "start"
      let labelX = anchor == "start" ? origin : drawing == .toScale ? learned - 9 : at - 3
      let row = rows.place(left: anchor == "end" ? labelX - width : labelX, right: anchor == "end" ? labelX : labelX + width)
      let rowY = learnedY + Double(row ?? 0) * 14
      body += "<g class=\"learned\" data-id=\"\(HTMLPage.escape(marker.id))\" data-drawn=\"\(drawing.rawValue)\"><title>\(HTMLPage.escape("\(marker.id) took effect \(marker.at.rfc3339), learned \(marker.recorded.rfc3339) (+\(CustomerTimeline.delay(marker)))"))</title>"
      if drawing == .toScale {
        body += "<path d=\"M \(SVGChart.number(at)) \(SVGChart.number(eventsY + 6)) L \(SVGChart.number(learned)) \(SVGChart.number(rowY))\" stroke=\"#d64545\" stroke-dasharray=\"4 3\" stroke-opacity=\"0.6\" fill=\"none\"/>"
        body += "<path d=\"M \(SVGChart.number(learned)) \(SVGChart.number(rowY - 6)) l 6 6 l -6 6 l -6 -6 z\" fill=\"#d64545\"/>"
      }
      if row != nil {
        let markup = text(label, x: labelX, y: rowY + 4, anchor: anchor, attributes: drawing == .words ? " style=\"fill:#a33a3a\"" : "")
        body += markup
      }
      body += "</g>\n"
    }
    y = learnedY + Double(max(rows.ends.count, 1)) * 14 + 10
  }

  /// Dates on top, grid lines through the lanes.
  mutating func drawAxis(lanesBottom: Double) {
    for tick in CustomerTimeline.ticks(from: start, to: end) {
      let at = x(tick.time)
      header += "<line x1=\"\(SVGChart.number(at))\" y1=\"\(SVGChart.number(Self.axisY))\" x2=\"\(SVGChart.number(at))\" y2=\"\(SVGChart.number(lanesBottom))\" stroke=\"#d8dce4\"/>"
      let markup = text(tick.label, x: at, y: Self.axisY - 6, anchor: "middle", attributes: " class=\"axis-date\"")
      header += markup
      header += "\n"
    }
  }

  mutating func drawLegend() {
    var legendX = Self.left
    let hasOwnership = timeline.lanes.contains { $0.kind == "ownership" }
    for (state, colour) in CustomerTimeline.stateColours where state != CustomerTimeline.ownedState || hasOwnership {
      header += "<rect x=\"\(SVGChart.number(legendX))\" y=\"8\" width=\"12\" height=\"12\" fill=\"\(colour)\"/>"
      let words = CustomerTimeline.words(state: state)
      let markup = text(words, x: legendX + 16, y: 18)
      header += markup
      header += "\n"
      legendX += 34 + Double(words.count) * LabelBoxes.charWidth
    }
    header += "<circle cx=\"\(SVGChart.number(legendX + 6))\" cy=\"14\" r=\"5\" fill=\"#ffffff\" stroke=\"#d64545\" stroke-width=\"2\"/>"
    let markup = text("learned late", x: legendX + 16, y: 18)
    header += markup
    header += "\n"
  }

  func document() -> String {
    let height = y + 10
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" width=\"\(SVGChart.number(Self.width))\" height=\"\(SVGChart.number(height))\" viewBox=\"0 0 \(SVGChart.number(Self.width)) \(SVGChart.number(height))\" role=\"img\">\n"
      + header + body + "</svg>\n"
  }
}

extension TimelineSVG {
  /// Each store event's label in words, nil for routine renewals folded into the label of the
  /// first of their run (`renewal ×11`): a renewal that is on time (learned under a minute after
  /// it took effect), follows a renewal, and is followed by nothing but renewals until the run
  /// ends. Every marker and tooltip stays.
  /// - Complexity: O(markers).
  static func markerLabels(_ markers: [CustomerTimeline.Marker]) -> [String?] {
    var labels: [String?] = markers.map { $0.words }
    var index = 0
    while index < markers.count {
      guard markers[index].type == "renewal" && markers[index].lateness == nil else {
        index += 1
        continue
      }
      var end = index + 1
      while end < markers.count && markers[end].type == "renewal" && markers[end].lateness == nil { end += 1 }
      if end - index > 1 {
        labels[index] = "renewal ×\(end - index)"
        for folded in (index + 1)..<end { labels[folded] = nil }
      }
      index = end
    }
    return labels
  }
}
