import StoreLedgerCore

extension Report {
  /// The headline block: the last complete bucket's figures (`ReportHeadline`), each with the
  /// previous bucket's beside it and its definition; `data-figure` and `data-value` carry the exact
  /// values the JSON report holds.
  /// - Complexity: O(buckets + currencies).
  func headline(into page: inout HTMLPage, now: Timestamp?, rates: ExchangeRates?) {
    let headline = ReportHeadline(self, now: now, rates: rates)
    page.append("<section class=\"headline\" data-group=\"headline\">\n")
    guard let index = headline.bucket else {
      page.element("h2", "Headline")
      page.element("p", "No bucket of this report is complete yet: each ends after the time it is known at.", attributes: "class=\"meta\"")
      page.append("</section>\n")
      return
    }
    page.element("h2", "\(bucketLabel(index)) at a glance")
    let known = asOf.map { "as known at \($0.rfc3339)" } ?? "as known now"
    page.element(
      "p",
      "The last complete \(interval.rawValue) (\(buckets[index].start.rfc3339) to \(buckets[index].end.rfc3339), \(known))"
        + (index > 0 ? ", against the one before (\(bucketLabel(index - 1)))." : "; the report has no bucket before it."),
      attributes: "class=\"meta\"")
    page.append("<div class=\"figures\">\n")
    for figure in headline.figures {
      page.append("<div class=\"figure\" data-figure=\"\(figure.name)\">\n")
      page.element("div", figure.title, attributes: "class=\"name\"")
      for line in figure.lines {
        page.element("div", line.text, attributes: "class=\"value\" data-value=\"\(HTMLPage.escape(line.value))\"")
      }
      page.element("div", figure.detail, attributes: "class=\"detail\"")
      page.element("p", figure.definition, attributes: "class=\"definition\"")
      page.append("</div>\n")
    }
    page.append("</div>\n")
    if let rates {
      page.element("p", ReportDefinitions.total + " Rates into \(rates.target) for: \(rates.currencies.joined(separator: ", ")).", attributes: "class=\"definition\"")
    }
    page.append("</section>\n")
  }
}
