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
    page.element("h2", "Events")
    page.append("<div class=\"scroll\">\n")
    page.table(
      header: ["at", "learned", "line", "id", "type", "details"],
      rows: markers.map { marker in
        [
          marker.at.rfc3339, marker.isLate ? marker.recorded.rfc3339 + " (+" + Self.delay(marker) + ")" : "",
          String(marker.line), marker.id, marker.type, marker.details,
        ]
      }, attributes: "class=\"text\"")
    page.append("</div>\n")
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
    ("revoked", "#d64545"),
  ]

  private static func colour(state: String) -> String {
    stateColours.first(where: { $0.state == state })?.colour ?? "#6c7a89"
  }

  private static func colour(eventType: String) -> String {
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
    let width = 1100.0
    let left = 200.0
    let right = 24.0
    let laneHeight = 26.0
    let laneGap = 10.0
    let axisY = 44.0
    let late = markers.filter(\.isLate)
    let (start, end) = span
    let plotWidth = width - left - right
    func x(_ time: Timestamp) -> Double {
      let length = Double(end.millisecondsSinceEpoch - start.millisecondsSinceEpoch)
      return left + plotWidth * Double(time.millisecondsSinceEpoch - start.millisecondsSinceEpoch) / max(length, 1)
    }
    var y = axisY + 14
    var body = ""
    // State lanes.
    for lane in lanes {
      body += "<g class=\"lane\" data-kind=\"\(lane.kind)\" data-name=\"\(HTMLPage.escape(lane.name))\">\n"
      body += "<text x=\"\(SVGChart.number(left - 8))\" y=\"\(SVGChart.number(y + 17))\" text-anchor=\"end\">\(HTMLPage.escape(lane.kind + " " + lane.name))</text>\n"
      body += "<rect x=\"\(SVGChart.number(left))\" y=\"\(SVGChart.number(y))\" width=\"\(SVGChart.number(plotWidth))\" height=\"\(SVGChart.number(laneHeight))\" fill=\"#f6f7fa\"/>\n"
      for segment in lane.segments where segment.from < end {
        let from = x(segment.from)
        let isCut = segment.to.map { $0 > end } ?? true
        let to = isCut ? width - right : x(segment.to!)
        let title = "\(lane.kind) \(lane.name): \(segment.state), \(segment.product), \(segment.from.rfc3339) to \(segment.to?.rfc3339 ?? "open")"
        body += "<rect class=\"segment\" data-state=\"\(segment.state)\" x=\"\(SVGChart.number(from))\" y=\"\(SVGChart.number(y))\" width=\"\(SVGChart.number(max(to - from, 1)))\" height=\"\(SVGChart.number(laneHeight))\" fill=\"\(Self.colour(state: segment.state))\"\(isCut ? " fill-opacity=\"0.65\"" : "")><title>\(HTMLPage.escape(title))</title></rect>\n"
        var label = segment.state == "active" ? segment.product : segment.state + " · " + segment.product
        if isCut { label += segment.to.map { " → " + String($0.rfc3339.prefix(10)) } ?? " →" }
        if to - from > Double(label.count) * 6.2 + 8 {
          body += "<text x=\"\(SVGChart.number(from + 5))\" y=\"\(SVGChart.number(y + 17))\" fill=\"#ffffff\" style=\"fill:#10141c\">\(HTMLPage.escape(label))</text>\n"
        }
      }
      body += "</g>\n"
      y += laneHeight + laneGap
    }
    // Balance lanes: a step line per currency.
    for (currency, changes) in balances {
      let height = 44.0
      let values = changes.map(\.balance)
      let high = Double(max(values.max() ?? 0, 0))
      let low = Double(min(values.min() ?? 0, 0))
      func level(_ value: Int64) -> Double {
        y + height - 4 - (height - 8) * (Double(value) - low) / max(high - low, 1)
      }
      body += "<g class=\"lane\" data-kind=\"balance\" data-name=\"\(HTMLPage.escape(currency))\">\n"
      body += "<text x=\"\(SVGChart.number(left - 8))\" y=\"\(SVGChart.number(y + 26))\" text-anchor=\"end\">\(HTMLPage.escape("balance " + currency))</text>\n"
      body += "<rect x=\"\(SVGChart.number(left))\" y=\"\(SVGChart.number(y))\" width=\"\(SVGChart.number(plotWidth))\" height=\"\(SVGChart.number(height))\" fill=\"#f6f7fa\"/>\n"
      var points: [String] = []
      var labelsEnd = -Double.infinity
      for (index, change) in changes.enumerated() {
        let next = index + 1 < changes.count ? x(min(changes[index + 1].at, end)) : width - right
        points.append(SVGChart.number(x(change.at)) + "," + SVGChart.number(level(change.balance)))
        points.append(SVGChart.number(next) + "," + SVGChart.number(level(change.balance)))
        // A value is written only where it does not run into the previous one.
        if x(change.at) >= labelsEnd {
          body += "<text x=\"\(SVGChart.number(x(change.at) + 3))\" y=\"\(SVGChart.number(level(change.balance) - 3))\">\(change.balance)</text>\n"
          labelsEnd = x(change.at) + 10 + Double(String(change.balance).count) * 6.5
        }
      }
      body += "<polyline fill=\"none\" stroke=\"#945ecf\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>\n</g>\n"
      y += height + laneGap
    }
    // Usage lanes: a bar per local day, the day's limit as a red line over it.
    for (feature, days) in usage {
      let height = 60.0
      var labelsEnd = -Double.infinity
      let high = Double(max(days.map { max($0.used, $0.limit ?? 0) }.max() ?? 1, 1))
      func level(_ value: Int64) -> Double { y + height - 2 - (height - 18) * Double(max(value, 0)) / high }
      body += "<g class=\"lane\" data-kind=\"usage\" data-name=\"\(HTMLPage.escape(feature))\">\n"
      body += "<text x=\"\(SVGChart.number(left - 8))\" y=\"\(SVGChart.number(y + 26))\" text-anchor=\"end\">\(HTMLPage.escape("usage " + feature + " per day"))</text>\n"
      body += "<rect x=\"\(SVGChart.number(left))\" y=\"\(SVGChart.number(y))\" width=\"\(SVGChart.number(plotWidth))\" height=\"\(SVGChart.number(height))\" fill=\"#f6f7fa\"/>\n"
      for day in days where day.start < end {
        let from = x(day.start)
        let to = x(min(day.start.adding(milliseconds: ReportInterval.dayMs), end))
        let title = "\(feature) \(day.date): \(day.used) used" + (day.limit.map { ", limit \($0)" } ?? "") + (day.tier.map { " (\($0))" } ?? "")
        body += "<rect class=\"usage-day\" x=\"\(SVGChart.number(from))\" y=\"\(SVGChart.number(level(day.used)))\" width=\"\(SVGChart.number(max(to - from, 2)))\" height=\"\(SVGChart.number(max(y + height - 2 - level(day.used), 0.5)))\" fill=\"\(day.limit.map { day.used > $0 } == true ? "#d64545" : "#13a4b4")\"><title>\(HTMLPage.escape(title))</title></rect>\n"
        // The count (and limit) as text above the bar, where it does not run into the previous one.
        let text = "\(day.used)" + (day.limit.map { "/\($0)" } ?? "")
        if from >= labelsEnd {
          body += "<text x=\"\(SVGChart.number(from))\" y=\"\(SVGChart.number(min(level(day.used), level(day.limit ?? 0)) - 3))\">\(text)</text>\n"
          labelsEnd = from + 6 + Double(text.count) * 6.5
        }
        if let limit = day.limit {
          body += "<line class=\"limit\" x1=\"\(SVGChart.number(from - 1))\" y1=\"\(SVGChart.number(level(limit)))\" x2=\"\(SVGChart.number(max(to, from + 2) + 1))\" y2=\"\(SVGChart.number(level(limit)))\" stroke=\"#d64545\" stroke-width=\"2\"/>\n"
        }
      }
      body += "</g>\n"
      y += height + laneGap
    }
    let lanesBottom = y - laneGap
    // Events: a marker per event. Labels go on the first of four rows with room for them; an
    // event with no room keeps its marker and tooltip, and the table below lists it.
    let eventsY = y + 8
    let labelRows = 4
    var rowEnds = [Double](repeating: -Double.infinity, count: labelRows)
    body += "<text x=\"\(SVGChart.number(left - 8))\" y=\"\(SVGChart.number(eventsY + 4))\" text-anchor=\"end\">events (effective time)</text>\n"
    for marker in markers {
      let at = x(marker.at)
      let colour = Self.colour(eventType: marker.type)
      let text = marker.id + " " + marker.type
      let free = rowEnds.firstIndex { $0 <= at }
      let row = Double(free ?? 0)
      if let free { rowEnds[free] = at + 8 + Double(text.count) * 6.2 }
      body += "<g class=\"marker\" data-id=\"\(HTMLPage.escape(marker.id))\" data-late=\"\(marker.isLate)\">"
      body += "<title>\(HTMLPage.escape("\(marker.id) \(marker.type) at \(marker.at.rfc3339)" + (marker.isLate ? ", learned \(marker.recorded.rfc3339)" : "") + (marker.details.isEmpty ? "" : ": " + marker.details)))</title>"
      body += "<line x1=\"\(SVGChart.number(at))\" y1=\"\(SVGChart.number(axisY + 14))\" x2=\"\(SVGChart.number(at))\" y2=\"\(SVGChart.number(free == nil ? eventsY : eventsY + 12 + row * 14))\" stroke=\"\(colour)\" stroke-opacity=\"0.25\"/>"
      body += "<circle cx=\"\(SVGChart.number(at))\" cy=\"\(SVGChart.number(eventsY))\" r=\"5\" fill=\"\(marker.isLate ? "#ffffff" : colour)\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
      if free != nil {
        body += "<text x=\"\(SVGChart.number(at + 3))\" y=\"\(SVGChart.number(eventsY + 22 + row * 14))\" fill=\"\(colour)\" style=\"fill:\(colour)\">\(HTMLPage.escape(text))</text>"
      }
      body += "</g>\n"
    }
    y = eventsY + 22 + Double(labelRows) * 14
    if !late.isEmpty {
      let learnedY = y + 6
      body += "<text x=\"\(SVGChart.number(left - 8))\" y=\"\(SVGChart.number(learnedY + 4))\" text-anchor=\"end\">learned late (knowledge time)</text>\n"
      for marker in late {
        let at = x(marker.at)
        let learned = x(marker.recorded)
        body += "<g class=\"learned\" data-id=\"\(HTMLPage.escape(marker.id))\"><title>\(HTMLPage.escape("\(marker.id) took effect \(marker.at.rfc3339), learned \(marker.recorded.rfc3339) (+\(Self.delay(marker)))"))</title>"
        body += "<path d=\"M \(SVGChart.number(at)) \(SVGChart.number(eventsY + 6)) L \(SVGChart.number(learned)) \(SVGChart.number(learnedY))\" stroke=\"#d64545\" stroke-dasharray=\"4 3\" fill=\"none\"/>"
        body += "<path d=\"M \(SVGChart.number(learned)) \(SVGChart.number(learnedY - 6)) l 6 6 l -6 6 l -6 -6 z\" fill=\"#d64545\"/>"
        body += "<text x=\"\(SVGChart.number(learned + 9))\" y=\"\(SVGChart.number(learnedY + 4))\">\(HTMLPage.escape(marker.id + " +" + Self.delay(marker)))</text></g>\n"
      }
      y = learnedY + 20
    }
    // Axis: dates on top, grid lines through the lanes.
    var axis = ""
    for tick in Self.ticks(from: start, to: end) {
      let at = x(tick.time)
      axis += "<line x1=\"\(SVGChart.number(at))\" y1=\"\(SVGChart.number(axisY))\" x2=\"\(SVGChart.number(at))\" y2=\"\(SVGChart.number(lanesBottom))\" stroke=\"#d8dce4\"/>"
      axis += "<text class=\"axis-date\" x=\"\(SVGChart.number(at))\" y=\"\(SVGChart.number(axisY - 6))\" text-anchor=\"middle\">\(tick.label)</text>\n"
    }
    // Legend of states.
    var legend = ""
    var legendX = left
    for (state, colour) in Self.stateColours {
      legend += "<rect x=\"\(SVGChart.number(legendX))\" y=\"8\" width=\"12\" height=\"12\" fill=\"\(colour)\"/><text x=\"\(SVGChart.number(legendX + 16))\" y=\"18\">\(state)</text>\n"
      legendX += 34 + Double(state.count) * 6.5
    }
    legend += "<circle cx=\"\(SVGChart.number(legendX + 6))\" cy=\"14\" r=\"5\" fill=\"#ffffff\" stroke=\"#d64545\" stroke-width=\"2\"/><text x=\"\(SVGChart.number(legendX + 16))\" y=\"18\">learned late</text>\n"
    let height = y + 10
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" width=\"\(SVGChart.number(width))\" height=\"\(SVGChart.number(height))\" viewBox=\"0 0 \(SVGChart.number(width)) \(SVGChart.number(height))\" role=\"img\">\n"
      + legend + axis + body + "</svg>\n"
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
