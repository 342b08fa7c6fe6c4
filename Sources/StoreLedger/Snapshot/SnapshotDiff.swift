/// A readable comparison of two snapshots: which customers' history changed, and how.
///
/// Lists differences in the header, then per subject the first differing
/// entitlement intervals, subscription changes and balances, rather than a wall of JSON.
public enum SnapshotDiff {
  /// Subjects listed in full before the rest are only counted.
  public static let subjectsShownMax = 20
  /// Differences listed per subject section.
  public static let changesPerSectionMax = 5

  /// The differences between snapshots `a` and `b` (empty when they are equal as JSON values).
  /// - Complexity: O(size of both documents).
  public static func compare(_ a: JSONValue, _ b: JSONValue, nameA: String = "A", nameB: String = "B") -> [String] {
    var lines: [String] = []
    for section in ["format", "catalog", "log"] {
      flatten(a[section], b[section], path: section, into: &lines)
    }
    let subjectsA = Dictionary(uniqueKeysWithValues: a["subjects"]?.objectMembers ?? [])
    let subjectsB = Dictionary(uniqueKeysWithValues: b["subjects"]?.objectMembers ?? [])
    let names = Set(subjectsA.keys).union(subjectsB.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    var changed = 0
    for name in names {
      let left = subjectsA[name]
      let right = subjectsB[name]
      if left == right && a["state"]?[name] == b["state"]?[name] { continue }
      changed += 1
      guard changed <= subjectsShownMax else { continue }
      guard let left else {
        lines.append("subject \(quote(name)): only in \(nameB)")
        continue
      }
      guard let right else {
        lines.append("subject \(quote(name)): only in \(nameA)")
        continue
      }
      lines.append("subject \(quote(name)):")
      for section in ["entitlements", "subscriptions", "balances"] {
        var sectionLines: [String] = []
        flatten(left[section], right[section], path: section, into: &sectionLines)
        lines.append(contentsOf: sectionLines.prefix(changesPerSectionMax).map { "  " + $0 })
        if sectionLines.count > changesPerSectionMax {
          lines.append("  … and \(sectionLines.count - changesPerSectionMax) more changes in \(section)")
        }
      }
      let stateA = a["state"]?[name]
      let stateB = b["state"]?[name]
      if left["events"] != right["events"] || stateA != stateB {
        let countA = eventCount(left)
        let countB = eventCount(right)
        lines.append(
          countA == countB
            ? "  events: \(countA) records, contents differ" : "  events: \(countA) → \(countB) records")
      }
    }
    if changed > subjectsShownMax {
      lines.append("… and \(changed - subjectsShownMax) more subjects differ")
    }
    if changed > 0 { lines.append(changed == 1 ? "1 subject differs" : "\(changed) subjects differ") }
    if lines.isEmpty && a != b {
      flatten(a["strings"], b["strings"], path: "strings", into: &lines)
      if lines.isEmpty { lines.append("the snapshots differ outside subjects and the header") }
    }
    return lines
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
