import StoreLedgerCore

/// A bar or line chart drawn as inline SVG: one x slot per bucket, one colour per series.
struct SVGChart {
  /// How series are drawn.
  enum Style {
    /// Bars side by side in each slot.
    case groupedBars
    /// Bars stacked in each slot (positive values).
    case stackedBars
    /// One line per series through the slots' centres.
    case lines
  }

  /// One named series, a value per slot (already in display units).
  struct Series {
    var name: String
    var values: [Double]
  }

  var style: Style
  var labels: [String]
  var series: [Series]
  var width = 1000.0
  var height = 250.0
  /// Formats an axis value.
  var format: (Double) -> String = { ChartScale.label($0) }
  /// Whether the values are counts: the axis then has whole-number ticks only.
  var isCount = false
  /// A line drawn over the bars (the MRR over its movement), in the colour after the series'.
  var overlay: Series? = nil
  /// A line of its own under the legend (the MRR chart's coverage), drawn so it cannot be missed.
  var caption: String? = nil

  private let left = 70.0
  private let right = 16.0
  private let top = 34.0
  private let bottom = 36.0

  /// The SVG element.
  func svg(attributes: String = "") -> String {
    // Legend entries wrap onto more rows; the plot starts below them.
    var (legend, legendY) = self.legend()
    if let caption {
      legendY += 18
      legend += "<text class=\"caption\" x=\"8\" y=\"\(Self.number(legendY + 10))\">\(HTMLPage.escape(caption))</text>\n"
    }
    let top = self.top + legendY - 8
    let plotHeight = height - top - bottom
    let (low, high) = valueRange()
    let scale = ChartScale(low: low, high: high, isIntegral: isCount)
    func y(_ value: Double) -> Double { top + plotHeight * (scale.high - value) / (scale.high - scale.low) }
    var out =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" viewBox=\"0 0 \(Self.number(width)) \(Self.number(height))\" role=\"img\"\(attributes.isEmpty ? "" : " " + attributes)>\n"
    out += legend
    out += axes(scale, y: y)
    out += marks(y: y)
    if let overlay { out += polyline(overlay, colour: series.count, y: y) }
    out += "</svg>\n"
    return out
  }

  /// The plot's width and the width of one bucket's slot.
  private var plotWidth: Double { width - left - right }
  private var slot: Double { plotWidth / Double(max(labels.count, 1)) }

  /// The legend's entries, wrapped onto rows, and the last row's y.
  private func legend() -> (text: String, lastRowY: Double) {
    var legend = ""
    var legendX = left
    var legendY = 8.0
    for (index, line) in (series + (overlay.map { [$0] } ?? [])).enumerated() {
      let entryWidth = 28 + Double(line.name.count) * 6.5
      if legendX > left && legendX + entryWidth > width - right {
        legendX = left
        legendY += 18
      }
      legend += "<rect x=\"\(Self.number(legendX))\" y=\"\(Self.number(legendY))\" width=\"12\" height=\"12\" fill=\"\(ChartPalette.colour(index))\"/>"
      legend += "<text x=\"\(Self.number(legendX + 16))\" y=\"\(Self.number(legendY + 10))\">\(HTMLPage.escape(line.name))</text>\n"
      legendX += entryWidth
    }
    return (legend, legendY)
  }

  /// The lowest and highest value drawn (stacked bars: the stacks' sums), 0 included.
  private func valueRange() -> (low: Double, high: Double) {
    var low = 0.0
    var high = 0.0
    for index in 0..<labels.count {
      if style == .stackedBars {
        high = max(high, series.reduce(0) { $0 + max($1.values[index], 0) })
        low = min(low, series.reduce(0) { $0 + min($1.values[index], 0) })
      } else {
        // A line may stop before the last slot (a cohort not that old yet): its missing values are NaN.
        for line in series where line.values[index].isFinite {
          high = max(high, line.values[index])
          low = min(low, line.values[index])
        }
      }
    }
    for value in overlay?.values ?? [] {
      high = max(high, value)
      low = min(low, value)
    }
    return (low, high)
  }

  /// The grid, the y axis's ticks and the x labels.
  private func axes(_ scale: ChartScale, y: (Double) -> Double) -> String {
    var out = ""
    for tick in scale.ticks {
      let at = y(tick)
      out += "<line x1=\"\(Self.number(left))\" y1=\"\(Self.number(at))\" x2=\"\(Self.number(width - right))\" y2=\"\(Self.number(at))\" stroke=\"\(tick == 0 ? "#8a93a3" : "#e3e6ec")\"/>"
      out += "<text x=\"\(Self.number(left - 6))\" y=\"\(Self.number(at + 4))\" text-anchor=\"end\">\(HTMLPage.escape(format(tick)))</text>\n"
    }
    // X labels: evenly spaced, at most one per 75 points so they never run together.
    let labelsMax = max(Int(plotWidth / 75), 1)
    let every = max(1, (labels.count + labelsMax - 1) / labelsMax)
    for (index, label) in labels.enumerated() where index % every == 0 {
      let x = left + slot * (Double(index) + 0.5)
      out += "<text class=\"axis-date\" x=\"\(Self.number(x))\" y=\"\(Self.number(height - bottom + 16))\" text-anchor=\"middle\">\(HTMLPage.escape(label))</text>\n"
    }
    return out
  }

  /// The series' bars or lines.
  private func marks(y: (Double) -> Double) -> String {
    var out = ""
    let slot = self.slot
    switch style {
    case .groupedBars:
      let barWidth = slot * 0.8 / Double(max(series.count, 1))
      for (seriesIndex, line) in series.enumerated() {
        for (index, value) in line.values.enumerated() where value != 0 && value.isFinite {
          let x = left + slot * Double(index) + slot * 0.1 + barWidth * Double(seriesIndex)
          out += bar(x: x, width: barWidth, from: y(0), to: y(value), colour: ChartPalette.colour(seriesIndex), title: "\(line.name) \(labels[index]): \(format(value))")
        }
      }
    case .stackedBars:
      for index in 0..<labels.count {
        var positive = 0.0
        var negative = 0.0
        for (seriesIndex, line) in series.enumerated() where line.values[index] != 0 {
          let value = line.values[index]
          let base = value > 0 ? positive : negative
          let x = left + slot * Double(index) + slot * 0.15
          out += bar(x: x, width: slot * 0.7, from: y(base), to: y(base + value), colour: ChartPalette.colour(seriesIndex), title: "\(line.name) \(labels[index]): \(format(value))")
          if value > 0 { positive += value } else { negative += value }
        }
      }
    case .lines:
      for (seriesIndex, line) in series.enumerated() { out += polyline(line, colour: seriesIndex, y: y) }
    }
    return out
  }

  /// One series as a line through the slots' centres, broken where a value is NaN (a cohort not
  /// that old yet, a total without a rate), with a dot per slot when they are few.
  func polyline(_ line: Series, colour seriesIndex: Int, y: (Double) -> Double) -> String {
    var out = ""
    var run: [String] = []
    func flush() {
      if !run.isEmpty {
        out += "<polyline class=\"series\" fill=\"none\" stroke-width=\"2\" stroke=\"\(ChartPalette.colour(seriesIndex))\" points=\"\(run.joined(separator: " "))\"/>\n"
      }
      run.removeAll()
    }
    for (index, value) in line.values.enumerated() {
      guard value.isFinite else {
        flush()
        continue
      }
      run.append(Self.number(left + slot * (Double(index) + 0.5)) + "," + Self.number(y(value)))
    }
    flush()
    if labels.count <= 62 {
      for (index, value) in line.values.enumerated() where value.isFinite {
        out += "<circle cx=\"\(Self.number(left + slot * (Double(index) + 0.5)))\" cy=\"\(Self.number(y(value)))\" r=\"2.5\" fill=\"\(ChartPalette.colour(seriesIndex))\"><title>\(HTMLPage.escape("\(line.name) \(labels[index]): \(format(value))"))</title></circle>\n"
      }
    }
    return out
  }

  private func bar(x: Double, width: Double, from: Double, to: Double, colour: String, title: String) -> String {
    let top = min(from, to)
    let height = max(abs(to - from), 0.5)
    return "<rect class=\"bar\" x=\"\(Self.number(x))\" y=\"\(Self.number(top))\" width=\"\(Self.number(max(width, 0.5)))\" height=\"\(Self.number(height))\" fill=\"\(colour)\"><title>\(HTMLPage.escape(title))</title></rect>\n"
  }

  /// A coordinate with at most one decimal, without Foundation.
  static func number(_ value: Double) -> String {
    let tenths = Int64((value * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    let magnitude = tenths.magnitude
    return sign + String(magnitude / 10) + (magnitude % 10 == 0 ? "" : "." + String(magnitude % 10))
  }
}

/// A y axis from `low` to `high` on round steps (1, 2 or 5 × 10ⁿ).
struct ChartScale {
  let low: Double
  let high: Double
  let step: Double

  /// `isIntegral`: steps of at least 1 (a count axis never shows 0.5).
  init(low: Double, high: Double, isIntegral: Bool = false) {
    let span = max(high - low, 1)
    var step = 1.0
    while span / step > 5 { step *= 10 }
    while span / step < 2 && step > (isIntegral ? 1 : 1e-3) { step /= 10 }
    for factor in [1.0, 2.0, 5.0] where span / (step * factor) <= 5 {
      step *= factor
      break
    }
    self.step = step
    self.low = (low / step).rounded(.down) * step
    self.high = max((high / step).rounded(.up) * step, self.low + step)
  }

  /// The tick values, low to high.
  var ticks: [Double] {
    var values: [Double] = []
    var value = low
    while value <= high + step / 2 {
      values.append(value)
      value += step
    }
    return values
  }

  /// An axis label: whole numbers plainly, others with up to 3 decimals; thousands as `k`, millions as `M`.
  static func label(_ value: Double) -> String {
    let magnitude = abs(value)
    if magnitude >= 1_000_000 { return trimmed(value / 1_000_000) + "M" }
    if magnitude >= 10_000 { return trimmed(value / 1000) + "k" }
    return trimmed(value)
  }

  private static func trimmed(_ value: Double) -> String {
    let thousandths = Int64((value * 1000).rounded())
    return ReportFormat.money(thousandths: thousandths).replacingSuffix()
  }
}

extension String {
  /// `12.00` → `12`, `1.50` → `1.5` (money strings keep two decimals; axes need none).
  fileprivate func replacingSuffix() -> String {
    guard contains(".") else { return self }
    var text = self
    while text.last == "0" { text.removeLast() }
    if text.last == "." { text.removeLast() }
    return text
  }
}
