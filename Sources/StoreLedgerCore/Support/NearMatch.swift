/// "Did you mean": the known names nearest to a name that was not found.
///
/// A name is near a known one when they are equal once case, surrounding whitespace and an
/// English plural are ignored (`U1` and `u1`, `" u1"` and `u1`, `--query` and `--queries`), or
/// when a typo or two apart: an edit distance, counting a swap of two neighbours as one edit
/// (`expries` and `expires`). Among a short list of known words (options, commands, fields,
/// event types, products) up to 2 edits count (1 for names of 1 or 2 characters). Among the
/// subjects of a ledger, which are many and often short, at most 1 edit for names of 4 to 6
/// characters and 2 for longer ones, and names of 3 characters or fewer only match by case,
/// whitespace or plural: `u7` is not a typo of `u1`.
package enum NearMatch {
  /// A name that was not found and the known names nearest to it.
  package struct Hint: Sendable, Equatable {
    /// The name as given.
    package var name: String
    /// Known names near it, best first (possibly none).
    package var suggestions: [String]

    /// Creates a hint.
    package init(name: String, suggestions: [String]) {
      self.name = name
      self.suggestions = suggestions
    }
  }

  /// At most this many suggestions are offered.
  package static let suggestionsMax = 3

  /// The known names nearest to `name`, best first (at most `limit`).
  /// - Complexity: O(k · m²) for k known names of length about m.
  package static func suggestions(
    for name: String, among known: some Sequence<String>, limit: Int = suggestionsMax
  ) -> [String] {
    var scorer = Scorer(name, vocabulary: true)
    var scored: [(name: String, score: Int)] = []
    for candidate in known where candidate != name {
      var bytes = candidate
      if let score = bytes.withUTF8({ scorer.score($0) }) { scored.append((candidate, score)) }
    }
    return best(scored, limit: limit)
  }

  /// The known name nearest to `name`, if any is near.
  package static func closest(_ name: String, among known: some Sequence<String>) -> String? {
    suggestions(for: name, among: known, limit: 1).first
  }

  /// The interned strings of `table` nearest to `name` (subjects of a ledger, for instance).
  ///
  /// Scored on the bytes in place: a `String` is made only for a match.
  /// - Complexity: O(k · m²) for k symbols of length about m; no allocation per symbol.
  package static func suggestions(for name: String, in table: SymbolTable, limit: Int = suggestionsMax) -> [String] {
    var scorer = Scorer(name, vocabulary: false)
    var scored: [(name: String, score: Int)] = []
    for index in 0..<table.count {
      let symbol = Symbol(rawValue: UInt32(index))
      guard let score = table.withBytes(symbol, { scorer.score($0) }) else { continue }
      let candidate = table.string(symbol)
      if candidate != name { scored.append((candidate, score)) }
    }
    return best(scored, limit: limit)
  }

  private static func best(_ scored: [(name: String, score: Int)], limit: Int) -> [String] {
    scored.sorted { ($0.score, $0.name) < ($1.score, $1.name) }.prefix(limit).map(\.name)
  }

  /// Scores candidates against one name, on UTF-8 bytes with ASCII case folding: 0 for a case,
  /// whitespace or plural variant, else the edit distance when within the name's allowance.
  private struct Scorer {
    private let key: [UInt8]
    private let maxDistance: Int
    private var other: [UInt8] = []
    private var previous: [Int] = []
    private var current: [Int] = []
    private var beforePrevious: [Int] = []

    /// `vocabulary`: `name` is looked up among a short list of known words, not a ledger's subjects.
    init(_ name: String, vocabulary: Bool) {
      var key: [UInt8] = []
      NearMatch.normalize(Array(name.utf8)[...], into: &key)
      self.key = key
      let length = name.trimmingWhitespace().count
      if vocabulary {
        maxDistance = length <= 2 ? 1 : 2
      } else {
        maxDistance = length <= 3 ? 0 : (length <= 6 ? 1 : 2)
      }
    }

    mutating func score(_ candidate: UnsafeBufferPointer<UInt8>) -> Int? {
      // Whitespace around a name and a plural ending change its length by a few bytes at most.
      guard abs(candidate.count - key.count) <= max(maxDistance, 3) + 2 else { return nil }
      NearMatch.normalize(candidate[...], into: &other)
      if other == key || NearMatch.isPlural(other, of: key) || NearMatch.isPlural(key, of: other) { return 0 }
      guard maxDistance > 0, abs(other.count - key.count) <= maxDistance else { return nil }
      let distance = self.distance()
      return distance <= maxDistance ? distance : nil
    }

    /// Optimal string alignment distance of `key` and `other`: insertions, deletions,
    /// substitutions and swaps of neighbours each count one.
    private mutating func distance() -> Int {
      let a = key
      let b = other
      guard !a.isEmpty else { return b.count }
      // Rows reused across candidates: no allocation per symbol of a long table.
      if previous.count != b.count + 1 {
        beforePrevious = Array(repeating: 0, count: b.count + 1)
        previous = Array(repeating: 0, count: b.count + 1)
        current = Array(repeating: 0, count: b.count + 1)
      }
      for j in 0...b.count { previous[j] = j }
      for i in 1...a.count {
        current[0] = i
        var rowMin = i
        for j in stride(from: 1, through: b.count, by: 1) {
          let cost = a[i - 1] == b[j - 1] ? 0 : 1
          var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
          if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
            best = min(best, beforePrevious[j - 2] + 1)
          }
          current[j] = best
          rowMin = min(rowMin, best)
        }
        // A swap reaches back two rows, so stop only when two rows in a row are out of reach.
        if rowMin > maxDistance && previous.min()! > maxDistance { return maxDistance + 1 }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
      }
      return previous[b.count]
    }
  }

  /// `bytes` without surrounding ASCII whitespace, ASCII letters lower-cased, into `out`.
  static func normalize<Bytes: Collection<UInt8>>(_ bytes: Bytes, into out: inout [UInt8]) {
    out.removeAll(keepingCapacity: true)
    let isSpace: (UInt8) -> Bool = { $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return }
    var last = first
    var index = first
    while index != bytes.endIndex {
      if !isSpace(bytes[index]) { last = index }
      index = bytes.index(after: index)
    }
    for byte in bytes[first...last] { out.append(byte >= 65 && byte <= 90 ? byte + 32 : byte) }
  }

  /// Whether one is the English plural of the other (`query`/`queries`, `event`/`events`).
  static func isPlural(_ a: [UInt8], of b: [UInt8]) -> Bool {
    let s = UInt8(ascii: "s")
    if a.count == b.count + 1 && a.last == s && a.starts(with: b) { return true }
    if a.count == b.count + 2 && a.suffix(2).elementsEqual([UInt8(ascii: "e"), s]) && a.starts(with: b) { return true }
    return b.last == UInt8(ascii: "y") && a.count == b.count + 2 && a.starts(with: b.dropLast())
      && a.suffix(3).elementsEqual([UInt8(ascii: "i"), UInt8(ascii: "e"), s])
  }
}

extension String {
  /// The string without leading and trailing `character`s.
  func trimmingCharacters(of character: Character) -> String {
    guard let first = firstIndex(where: { $0 != character }), let last = lastIndex(where: { $0 != character }) else {
      return ""
    }
    return String(self[first...last])
  }

  /// The string without leading and trailing spaces, tabs and line breaks (no Foundation).
  func trimmingWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[first...last])
  }
}
