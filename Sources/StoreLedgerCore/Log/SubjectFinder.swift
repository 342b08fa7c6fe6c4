/// Finds the subjects a customer's identifier points at (`storeledger find`): a substring of the
/// subject id, an event id, a transaction, an original transaction, or a value of `meta` (an
/// order id, a purchase token, an `appAccountToken`), in log lines or in a loaded ledger.
///
/// Bounded: at most `subjectsMax` subjects are kept, each with at most `matchesPerSubjectMax`
/// distinct matches; `isFull` says that more were found and the search stopped.
package struct SubjectFinder {
  /// One subject found, with how it matched: `transaction (line 4)`, `meta.purchaseToken (line 9)`.
  package struct Found: Sendable, Equatable {
    /// The subject id.
    package var subject: String
    /// The ways it matched, first found first, each with the line that showed it.
    package var matches: [String]
  }

  /// The text looked for.
  package let term: String
  private let termBytes: [UInt8]
  /// The most subjects kept.
  package let subjectsMax: Int
  /// The most distinct matches kept per subject.
  package static let matchesPerSubjectMax = 4
  /// The subjects found, in the order found.
  package private(set) var found: [Found] = []
  /// Whether one more subject than `subjectsMax` matched (the search stopped there).
  package private(set) var isFull = false
  /// Purchase tokens of kept store documents that hold the term, looked for as original transactions.
  package var tokens: Set<String> = []

  /// A finder for `term`, keeping at most `subjectsMax` subjects.
  package init(term: String, subjectsMax: Int) {
    self.term = term
    termBytes = Array(term.utf8)
    self.subjectsMax = subjectsMax
  }

  /// Whether `bytes` contain the term, or one of the tokens (a cheap test before parsing a line).
  /// - Complexity: O(bytes · term) at worst.
  package func mayMatch(_ bytes: ArraySlice<UInt8>) -> Bool {
    if Self.contains(bytes, termBytes) { return true }
    return tokens.contains { Self.contains(bytes, Array($0.utf8)) }
  }

  /// Notes every way one log line (a JSON object) matches; lines that do not parse are skipped
  /// (`check` is the command that reports them).
  package mutating func note(line bytes: ArraySlice<UInt8>, number: Int) {
    guard !isFull, mayMatch(bytes), let value = try? JSONValue.parse(bytes: Array(bytes)),
      case .object(let fields) = value, let subject = fields.first(where: { $0.0 == "subject" })?.1.stringValue
    else { return }
    var matches: [String] = []
    if subject.contains(term) { matches.append("subject id") }
    let named = [("id", "event id"), ("transaction", "transaction"), ("original_transaction", "original transaction")]
    for (key, words) in named {
      guard let text = fields.first(where: { $0.0 == key })?.1.stringValue else { continue }
      if text == term { matches.append(words) }
      if key == "original_transaction" && tokens.contains(text) { matches.append("kept Google Play document of its purchase token") }
    }
    if let meta = fields.first(where: { $0.0 == "meta" })?.1 { matches += Self.metaMatches(meta, term: term, path: "meta") }
    for match in matches { add(subject: subject, match: "\(match) (line \(number))") }
  }

  /// Notes a match found outside the log's lines (the index, a loaded ledger).
  package mutating func add(subject: String, match: String) {
    if let position = found.firstIndex(where: { $0.subject == subject }) {
      let kind = match.prefix { $0 != "(" }
      guard found[position].matches.count < Self.matchesPerSubjectMax,
        !found[position].matches.contains(where: { $0.prefix { $0 != "(" } == kind })
      else { return }
      found[position].matches.append(match)
      return
    }
    guard found.count < subjectsMax else {
      isFull = true
      return
    }
    found.append(Found(subject: subject, matches: [match]))
  }

  /// Records that more subjects match than are kept (a search that stopped elsewhere).
  package mutating func markFull() { isFull = true }

  /// The paths of `meta` whose string value is the term: `meta.purchaseToken`.
  static func metaMatches(_ value: JSONValue, term: String, path: String) -> [String] {
    switch value {
    case .string(let text): return text == term ? [path] : []
    case .object(let fields): return fields.flatMap { metaMatches($0.1, term: term, path: path + "." + $0.0) }
    case .array(let items): return items.flatMap { metaMatches($0, term: term, path: path) }
    default: return []
    }
  }

  /// Whether `haystack` contains `needle`.
  /// - Complexity: O(haystack · needle) at worst, O(haystack) typically.
  package static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
    guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
    var index = haystack.startIndex
    let last = haystack.endIndex - needle.count
    while index <= last {
      guard let start = haystack[index...last].firstIndex(of: first) else { return false }
      if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
      index = start + 1
    }
    return false
  }
}
