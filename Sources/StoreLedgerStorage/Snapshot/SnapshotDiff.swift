import StoreLedgerCore

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
    if a["format"] != b["format"] {
      lines.append(
        "\(nameA) and \(nameB) are snapshots of two formats (one written by another version): the log's digest is named and computed by format, so it differs though the log may not; once any subject differences listed are expected, write the older one again with this version (storeledger snapshot LOG --out FILE --force)")
    }
    let subjectsA = Dictionary(uniqueKeysWithValues: (a["subjects"]?.objectMembers ?? []).map { ($0.0, expanded($0.1)) })
    let subjectsB = Dictionary(uniqueKeysWithValues: (b["subjects"]?.objectMembers ?? []).map { ($0.0, expanded($0.1)) })
    let names = Set(subjectsA.keys).union(subjectsB.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    var changedLines: [String] = []
    var addedLines: [String] = []
    var removedLines: [String] = []
    var counts = (changed: 0, added: 0, removed: 0)
    var shown = 0
    for name in names {
      let left = subjectsA[name]
      let right = subjectsB[name]
      if left == right { continue }
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
        if left["events"] != right["events"] {
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
    if lines.isEmpty && a != b { lines.append("the snapshots differ outside subjects and the header") }
    return lines
  }

  /// A subject's timeline with every entitlement interval and subscription change whole: the
  /// writer leaves out of an entry the fields equal to the entry before it in its list, and
  /// this carries them forward (entries already whole, as format 4 wrote them, stay as they are).
  /// A subscription's first change without a `transaction` has the list's key, its original
  /// transaction.
  /// - Complexity: O(size of the subject's timeline).
  package static func expanded(_ subject: JSONValue) -> JSONValue {
    guard case .object(let members) = subject else { return subject }
    return .object(
      members.map { name, value in
        guard name == "entitlements" || name == "subscriptions", case .object(let lists) = value else { return (name, value) }
        return (
          name,
          .object(
            lists.map { key, list in
              (key, expandedList(list, start: name == "subscriptions" ? [("transaction", .string(key))] : []))
            })
        )
      })
  }

  /// One list's entries, each with the fields it leaves out taken from the entry before it.
  private static func expandedList(_ list: JSONValue, start: [(String, JSONValue)]) -> JSONValue {
    guard case .array(let entries) = list else { return list }
    var previous = start
    return .array(
      entries.map { entry in
        guard case .object(let fields) = entry else { return entry }
        var merged = Dictionary(previous, uniquingKeysWith: { first, _ in first })
        for (key, value) in fields { merged[key] = value }
        previous = merged.sorted { $0.key < $1.key }
        return .object(previous)
      })
  }

  /// The line to print when two snapshots' timelines (`subjects` of their readable parts
  /// `readableA`, `readableB`) are equal but their restore sections (the event records, with ids
  /// and knowledge times the timeline does not show) are not; nil otherwise.
  package static func restoreSectionNote(_ a: [UInt8], _ b: [UInt8], readableA: JSONValue, readableB: JSONValue) -> String? {
    guard readableA["subjects"] == readableB["subjects"] else { return nil }
    // The section ends where the trailer, the last line, begins: its width depends on the format.
    func section(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
      let rest = bytes[SnapshotReader.readablePart(bytes).endIndex...]
      guard let trailerAt = rest.dropLast().lastIndex(of: 10) else { return rest }
      return rest[..<trailerAt]
    }
    guard section(a) != section(b) else { return nil }
    return "the timelines are equal, the event records differ (ids, knowledge times or other fields the timeline does not show)"
  }

  /// What a subject holds over time, in one line, worded as `query --format text` words it:
  /// `pro: from 3 Jan 2026, pass.week (active, purchased, until 10 Jan 2026); coins: 100 from 1 Mar 2026`.
  private static func holdings(_ subject: JSONValue) -> String {
    var parts: [String] = []
    for (entitlement, intervals) in subject["entitlements"]?.objectMembers ?? [] {
      guard case .array(let list) = intervals else { continue }
      for interval in list {
        parts.append("\(entitlement): from \(words(interval["from"])), " + grant(interval))
      }
    }
    for (currency, changes) in subject["balances"]?.objectMembers ?? [] {
      if case .array(let list) = changes, let last = list.last {
        parts.append("\(currency): \(text(last["balance"])) from \(words(last["at"]))")
      }
    }
    return parts.isEmpty ? "no entitlements or balances" : parts.joined(separator: "; ")
  }

  /// An entitlement interval as a grant: `pass.week (active, purchased, until 27 Dec 2025)`.
  private static func grant(_ interval: JSONValue) -> String {
    AnswerWords.grant(
      product: text(interval["product"]), state: text(interval["state"]), ownership: text(interval["ownership"]),
      period: text(interval["period"]), until: interval["to"]?.stringValue.flatMap(Timestamp.parseRFC3339))
  }

  /// A subscription change as a plan at its instant: `pro.monthly, revoked; its period would have run until 1 Apr 2026 (transaction t2)`.
  private static func plan(_ change: JSONValue) -> String? {
    guard let at = change["at"]?.stringValue.flatMap(Timestamp.parseRFC3339),
      let expires = change["expires"]?.stringValue.flatMap(Timestamp.parseRFC3339)
    else { return nil }
    let willRenew = change["will_renew"] == .bool(true)
    return AnswerWords.plan(
      product: text(change["product"]), state: text(change["state"]), expires: expires, willRenew: willRenew,
      renewsTo: change["renews_to"]?.stringValue, at: at) + " (transaction \(text(change["transaction"])))"
  }

  /// An entry of a subject section in words (an interval, a plan, a balance); its fields as JSON otherwise.
  private static func entryWords(_ entry: JSONValue, section: String) -> String {
    switch section {
    case "entitlements": return grant(entry)
    case "subscriptions": return plan(entry) ?? fields(entry)
    case "balances" where entry["balance"] != nil: return "balance \(text(entry["balance"]))"
    default: return fields(entry)
    }
  }

  /// A field's value for people: an instant as `1 Feb 2026`, null as `none`, strings unquoted.
  private static func words(_ value: JSONValue?) -> String {
    if let string = value?.stringValue, let time = Timestamp.parseRFC3339(string) { return AnswerWords.instant(time) }
    if case .null? = value { return "none" }
    return text(value)
  }

  /// `old → new` in words, or exactly (RFC 3339) where the words of both would read the same.
  private static func change(_ old: JSONValue?, _ new: JSONValue?) -> String {
    let (a, b) = (words(old), words(new))
    return a == b ? "\(render(old)) → \(render(new))" : "\(a) → \(b)"
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
        // Aligned by the exact instant; printed in words (`from 1 Jan 2026`, `at 4 Mar 2026 16:00 UTC`).
        let when = (section == "entitlements" ? "from " : "at ") + words(.string(instant))
        switch (byTimeA[instant], byTimeB[instant]) {
        case (nil, let added?): lines.append("\(path) \(when): added \(entryWords(added, section: section))")
        case (let removed?, nil): lines.append("\(path) \(when): removed \(entryWords(removed, section: section))")
        case (let old?, let new?) where old != new:
          let oldFields = Dictionary(uniqueKeysWithValues: old.objectMembers ?? [])
          let newFields = Dictionary(uniqueKeysWithValues: new.objectMembers ?? [])
          let changes = Set(oldFields.keys).union(newFields.keys).sorted().compactMap { field -> String? in
            oldFields[field] == newFields[field] ? nil : "\(field) " + change(oldFields[field], newFields[field])
          }
          lines.append("\(path) \(when): " + changes.joined(separator: ", "))
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
