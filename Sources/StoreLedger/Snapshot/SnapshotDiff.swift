/// A readable comparison of two snapshots: which customers' history changed, and how.
///
/// Lists differences in the header, then per subject the first differing
/// entitlement intervals, subscription changes and balances, rather than a wall of JSON.
package enum SnapshotDiff {
  /// Subjects listed in full before the rest are only counted.
  package static let subjectsShownMax = 20
  /// Differences listed per subject section.
  package static let changesPerSectionMax = 5

  /// The differences between snapshots `a` and `b` (empty when they are equal as JSON values).
  ///
  /// Subjects are grouped by kind of change (changed, new, gone). Within a subject, entitlement
  /// intervals, subscription changes and balance changes are aligned by time (`from` or `at`),
  /// not by position, and only the fields that changed are printed: one inserted interval reads
  /// as one addition, not as every later interval shifting.
  /// - Complexity: O(size of both documents).
  package static func compare(_ a: JSONValue, _ b: JSONValue, nameA: String = "A", nameB: String = "B") -> [String] {
    var lines: [String] = []
    for section in ["format", "catalog", "log"] {
      flatten(a[section], b[section], path: section, into: &lines)
    }
    let subjectsA = Dictionary(uniqueKeysWithValues: a["subjects"]?.objectMembers ?? [])
    let subjectsB = Dictionary(uniqueKeysWithValues: b["subjects"]?.objectMembers ?? [])
    let names = Set(subjectsA.keys).union(subjectsB.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    var changedLines: [String] = []
    var addedLines: [String] = []
    var removedLines: [String] = []
    var counts = (changed: 0, added: 0, removed: 0)
    var shown = 0
    for name in names {
      let left = subjectsA[name]
      let right = subjectsB[name]
      if left == right && a["state"]?[name] == b["state"]?[name] { continue }
      let show = shown < subjectsShownMax
      if show { shown += 1 }
      switch (left, right) {
      case (nil, let right?):
        counts.added += 1
        if show { addedLines.append("subject \(quote(name)): " + holdings(right)) }
      case (let left?, nil):
        counts.removed += 1
        if show { removedLines.append("subject \(quote(name)): held " + holdings(left)) }
      case (let left?, let right?):
        counts.changed += 1
        guard show else { continue }
        changedLines.append("subject \(quote(name)):")
        for section in ["entitlements", "subscriptions", "balances"] {
          let sectionLines = aligned(left[section], right[section], section: section)
          changedLines.append(contentsOf: sectionLines.prefix(changesPerSectionMax).map { "  " + $0 })
          if sectionLines.count > changesPerSectionMax {
            changedLines.append("  … and \(sectionLines.count - changesPerSectionMax) more changes in \(section)")
          }
        }
        if left["events"] != right["events"] || a["state"]?[name] != b["state"]?[name] {
          let countA = eventCount(left)
          let countB = eventCount(right)
          changedLines.append(
            countA == countB
              ? "  events: \(Plural.counted(countA, "record")), contents differ" : "  events: \(countA) → \(Plural.counted(countB, "record"))")
        }
      case (nil, nil):
        continue
      }
    }
    if counts.changed > 0 { lines.append("changed (\(counts.changed)):") }
    lines.append(contentsOf: changedLines.map { "  " + $0 })
    if counts.added > 0 { lines.append("only in \(nameB) (\(counts.added)):") }
    lines.append(contentsOf: addedLines.map { "  " + $0 })
    if counts.removed > 0 { lines.append("only in \(nameA) (\(counts.removed)):") }
    lines.append(contentsOf: removedLines.map { "  " + $0 })
    let changed = counts.changed + counts.added + counts.removed
    if changed > subjectsShownMax {
      lines.append("… and \(changed - subjectsShownMax) more \(changed - subjectsShownMax == 1 ? "subject differs" : "subjects differ")")
    }
    if changed > 0 { lines.append(changed == 1 ? "1 subject differs" : "\(changed) subjects differ") }
    if lines.isEmpty && a != b {
      flatten(a["strings"], b["strings"], path: "strings", into: &lines)
      if lines.isEmpty { lines.append("the snapshots differ outside subjects and the header") }
    }
    return lines
  }

  /// What a subject holds over time, in one line: `pro: pro.monthly active from … to …; coins: 100 from …`.
  private static func holdings(_ subject: JSONValue) -> String {
    var parts: [String] = []
    for (entitlement, intervals) in subject["entitlements"]?.objectMembers ?? [] {
      guard case .array(let list) = intervals else { continue }
      for interval in list {
        parts.append(
          "\(entitlement): \(text(interval["product"])) \(text(interval["state"])) from \(text(interval["from"])) to \(text(interval["to"]))")
      }
    }
    for (currency, changes) in subject["balances"]?.objectMembers ?? [] {
      if case .array(let list) = changes, let last = list.last {
        parts.append("\(currency): \(text(last["balance"])) from \(text(last["at"]))")
      }
    }
    return parts.isEmpty ? "no entitlements or balances" : parts.joined(separator: "; ")
  }

  private static func text(_ value: JSONValue?) -> String {
    if case .string(let string)? = value { return string }
    if case .null? = value { return "never" }
    return render(value)
  }

  /// Per key of a subject section, its entries aligned by `from`/`at`: added, removed, or the
  /// fields that changed.
  private static func aligned(_ a: JSONValue?, _ b: JSONValue?, section: String) -> [String] {
    if a == b { return [] }
    let left = Dictionary(uniqueKeysWithValues: a?.objectMembers ?? [])
    let right = Dictionary(uniqueKeysWithValues: b?.objectMembers ?? [])
    var lines: [String] = []
    for key in Set(left.keys).union(right.keys).sorted() where left[key] != right[key] {
      let path = "\(section).\(key)"
      guard case .array(let x) = left[key] ?? .array([]), case .array(let y) = right[key] ?? .array([]) else {
        lines.append("\(path): \(render(left[key])) → \(render(right[key]))")
        continue
      }
      func time(_ entry: JSONValue) -> String { text(entry["from"] ?? entry["at"]) }
      let byTimeA = Dictionary(x.map { (time($0), $0) }, uniquingKeysWith: { first, _ in first })
      let byTimeB = Dictionary(y.map { (time($0), $0) }, uniquingKeysWith: { first, _ in first })
      for instant in Set(byTimeA.keys).union(byTimeB.keys).sorted() {
        switch (byTimeA[instant], byTimeB[instant]) {
        case (nil, let added?): lines.append("\(path) \(instant): added \(fields(added))")
        case (let removed?, nil): lines.append("\(path) \(instant): removed \(fields(removed))")
        case (let old?, let new?) where old != new:
          let oldFields = Dictionary(uniqueKeysWithValues: old.objectMembers ?? [])
          let newFields = Dictionary(uniqueKeysWithValues: new.objectMembers ?? [])
          let changes = Set(oldFields.keys).union(newFields.keys).sorted().compactMap { field -> String? in
            oldFields[field] == newFields[field] ? nil : "\(field) \(render(oldFields[field])) → \(render(newFields[field]))"
          }
          lines.append("\(path) \(instant): " + changes.joined(separator: ", "))
        default: continue
        }
      }
    }
    return lines
  }

  /// `{…}` without the alignment key, for added and removed entries.
  private static func fields(_ entry: JSONValue) -> String {
    render(.object((entry.objectMembers ?? []).filter { $0.0 != "from" && $0.0 != "at" }))
  }

  private static func eventCount(_ subject: JSONValue) -> Int64 {
    if case .integer(let count)? = subject["events"] { return count }
    return 0
  }

  private static func quote(_ text: String) -> String { JSONWriter.compact(.string(text)) }

  private static func render(_ value: JSONValue?) -> String {
    guard let value else { return "(none)" }
    return JSONWriter.compact(value)
  }

  /// Appends `path: a → b` for every differing leaf, recursing into objects and arrays.
  private static func flatten(_ a: JSONValue?, _ b: JSONValue?, path: String, into lines: inout [String]) {
    if a == b { return }
    switch (a, b) {
    case (.object(let x)?, .object(let y)?):
      let left = Dictionary(uniqueKeysWithValues: x)
      let right = Dictionary(uniqueKeysWithValues: y)
      for key in Set(left.keys).union(right.keys).sorted() {
        flatten(left[key], right[key], path: path + "." + key, into: &lines)
      }
    case (.array(let x)?, .array(let y)?) where x.count == y.count || path.hasPrefix("entitlements") || path.hasPrefix("subscriptions") || path.hasPrefix("balances"):
      for index in 0..<max(x.count, y.count) {
        let left = index < x.count ? x[index] : nil
        let right = index < y.count ? y[index] : nil
        if left == right { continue }
        lines.append("\(path)[\(index)]: \(render(left)) → \(render(right))")
      }
    default:
      lines.append("\(path): \(render(a)) → \(render(b))")
    }
  }
}
