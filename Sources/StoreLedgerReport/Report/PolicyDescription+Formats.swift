import StoreLedgerCore

/// The policy description as plain text, Markdown, a self-contained HTML page or JSON.
extension PolicyDescription {
  /// Plain text for a terminal: one paragraph per tier, one line per feature.
  package var text: String {
    var out = "Usage policy (windows in UTC\(utcOffset))\n\n"
    for tier in tiers {
      out += "\(tier.title) (\(tier.condition)):\n"
      for claim in tier.claims { out += "  \(featureTitles[claim.feature] ?? claim.feature): \(claim.words)\n" }
      out += "\n"
    }
    out += rule + "\n\n"
    for line in resets { out += line + "\n" }
    if let trial { out += "\nTrial: " + trial + "\n" }
    out += "\nOffline: " + offline + "\n"
    return Self.printable(out)
  }

  /// Markdown: a table of tiers by features, then the terms.
  package var markdown: String {
    func cell(_ text: String) -> String { Self.printable(text).split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
    var out = "## Usage policy\n\n| feature | " + tiers.map { cell($0.title) }.joined(separator: " | ") + " |\n"
    out += "| --- |" + String(repeating: " --- |", count: tiers.count) + "\n"
    for (index, feature) in (tiers.first?.claims ?? []).enumerated() {
      out += "| " + cell(featureTitles[feature.feature] ?? feature.feature) + " | "
      out += tiers.map { cell($0.claims[index].words) }.joined(separator: " | ") + " |\n"
    }
    out += "\nWho is in each tier:\n\n"
    for tier in tiers { out += "- **\(cell(tier.title))**: \(cell(tier.condition))\n" }
    out += "\n" + rule + "\n\n" + resets.map { "- " + $0 + "\n" }.joined()
    if let trial { out += "\n**Trial.** " + cell(trial) + "\n" }
    out += "\n**Offline.** " + cell(offline) + "\n"
    return out
  }

  /// A self-contained HTML page: the same table and terms, every text escaped.
  package var html: String {
    var page = HTMLPage()
    page.element("h1", "Usage policy")
    let rows = (tiers.first?.claims ?? []).indices.map { index -> [String] in
      let feature = tiers[0].claims[index].feature
      return [featureTitles[feature] ?? feature] + tiers.map { $0.claims[index].words }
    }
    page.table(header: ["feature"] + tiers.map(\.title), rows: rows)
    page.element("h2", "Who is in each tier")
    page.append("<ul>\n")
    for tier in tiers { page.element("li", "\(tier.title): \(tier.condition)") }
    page.append("</ul>\n")
    page.element("p", rule)
    for line in resets { page.element("p", line) }
    if let trial { page.element("p", "Trial: " + trial) }
    page.element("p", "Offline: " + offline)
    return
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Usage policy</title>"
      + "<style>body{font:15px system-ui,sans-serif;margin:2em;max-width:60em}table{border-collapse:collapse}"
      + "th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left}</style></head><body>\n"
      + page.body + "</body></html>\n"
  }

  /// JSON: per tier and feature the allowance as data (`kind`, `limit`, `window`) and in words.
  package var json: JSONValue {
    func allowance(_ claim: Claim) -> JSONValue {
      switch claim.allowance {
      case .unlimited:
        return .object([("kind", .string("unlimited")), ("limits", .array([])), ("words", .string(claim.words))])
      case .notIncluded:
        return .object([("kind", .string("not_included")), ("limits", .array([])), ("words", .string(claim.words))])
      case .limited(let limits):
        let values: [JSONValue] = limits.map { .object([("limit", .integer($0.limit)), ("window", .string($0.window.name))]) }
        return .object([("kind", .string("limited")), ("limits", .array(values)), ("words", .string(claim.words))])
      }
    }
    let tierValues: [JSONValue] = tiers.map { tier in
      .object([
        ("name", .string(tier.name)), ("title", .string(tier.title)), ("condition", .string(tier.condition)),
        ("features", .object(tier.claims.map { ($0.feature, allowance($0)) })),
      ])
    }
    return .object([
      ("utc_offset", .string(utcOffset)), ("tiers", .array(tierValues)), ("rule", .string(rule)),
      ("resets", .array(resets.map { .string($0) })), ("trial", trial.map { .string($0) } ?? .null),
      ("offline", .string(offline)), ("max_staleness", .string(Self.defaultStaleness)),
    ])
  }

  /// Text for a terminal with control characters shown, never acted on (labels are checked when
  /// the catalog is parsed; this is the second line of defence).
  static func printable(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if scalar == "\n" || (scalar.properties.generalCategory != .control && scalar.properties.generalCategory != .format) {
        out.unicodeScalars.append(scalar)
      } else {
        out += "\\u{\(String(scalar.value, radix: 16))}"
      }
    }
    return out
  }
}
