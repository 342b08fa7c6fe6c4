/// "Did you mean": the known names nearest to a name that was not found.
///
/// A name is near a known one when they are equal once case, surrounding whitespace and an
/// English plural are ignored (`U1` and `u1`, `" u1"` and `u1`, `--query` and `--queries`), or
/// when one typo apart: an edit distance, counting a swap of two neighbours as one edit
/// (`expries` and `expires`), of at most 1 for names of 4 to 6 characters and 2 for longer ones.
/// Names of 3 characters or fewer only match by case, whitespace or plural: `u7` is not a typo
/// of `u1`.
public enum NearMatch {
  /// A name that was not found and the known names nearest to it.
  public struct Hint: Sendable, Equatable {
    /// The name as given.
    public var name: String
    /// Known names near it, best first (possibly none).
    public var suggestions: [String]

    /// Creates a hint.
    public init(name: String, suggestions: [String]) {
      self.name = name
      self.suggestions = suggestions
    }
  }

  /// At most this many suggestions are offered.
  public static let suggestionsMax = 3

  /// The known names nearest to `name`, best first (at most `limit`).
  /// - Complexity: O(k · m²) for k known names of length about m.
  public static func suggestions(
    for name: String, among known: some Sequence<String>, limit: Int = suggestionsMax
  ) -> [String] {
    var scorer = Scorer(name)
    var scored: [(name: String, score: Int)] = []
    for candidate in known where candidate != name {
      if let score = scorer.score(candidate) { scored.append((candidate, score)) }
    }
    return best(scored, limit: limit)
  }

  /// The known name nearest to `name`, if any is near.
  public static func closest(_ name: String, among known: some Sequence<String>) -> String? {
    suggestions(for: name, among: known, limit: 1).first
  }

  /// The interned strings of `table` nearest to `name` (subjects of a ledger, for instance).
  /// - Complexity: O(k) for k symbols, plus O(m²) for each symbol of a near length.
  public static func suggestions(for name: String, in table: SymbolTable, limit: Int = suggestionsMax) -> [String] {
    var scorer = Scorer(name)
    let trimmedCount = scorer.key.count
    var scored: [(name: String, score: Int)] = []
    for index in 0..<table.count {
      let symbol = Symbol(rawValue: UInt32(index))
      // Whitespace and case change a byte count only a little; skip the rest without a String.
      let count = table.withBytes(symbol) { $0.count }
      guard abs(count - trimmedCount) <= scorer.maxDistance + 2 || abs(count - name.utf8.count) <= 2 else { continue }
      let candidate = table.string(symbol)
      if candidate != name, let score = scorer.score(candidate) { scored.append((candidate, score)) }
    }
    return best(scored, limit: limit)
  }

  private static func best(_ scored: [(name: String, score: Int)], limit: Int) -> [String] {
    scored.sorted { ($0.score, $0.name) < ($1.score, $1.name) }.prefix(limit).map(\.name)
  }

  /// Scores candidates against one name: 0 for a case, whitespace or plural variant, else the
  /// edit distance when within the name's allowance.
  private struct Scorer {
    let key: [Character]
    let maxDistance: Int
    private var previous: [Int] = []
    private var current: [Int] = []
    private var beforePrevious: [Int] = []

    init(_ name: String) {
      key = NearMatch.normalized(name)
      let length = key.count
      maxDistance = length <= 3 ? 0 : (length <= 6 ? 1 : 2)
    }

    mutating func score(_ candidate: String) -> Int? {
      let other = NearMatch.normalized(candidate)
      if other == key || NearMatch.isPlural(other, of: key) || NearMatch.isPlural(key, of: other) { return 0 }
      guard maxDistance > 0, abs(other.count - key.count) <= maxDistance else { return nil }
      let distance = self.distance(key, other)
      return distance <= maxDistance ? distance : nil
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps.
    private mutating func distance(_ a: [Character], _ b: [Character]) -> Int {
      guard !a.isEmpty else { return b.count }
      beforePrevious = Array(repeating: 0, count: b.count + 1)
      previous = Array(0...b.count)
      current = Array(repeating: 0, count: b.count + 1)
      for i in 1...a.count {
        current[0] = i
        for j in stride(from: 1, through: b.count, by: 1) {
          let cost = a[i - 1] == b[j - 1] ? 0 : 1
          var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
          if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
            best = min(best, beforePrevious[j - 2] + 1)
          }
          current[j] = best
        }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
      }
      return previous[b.count]
    }
  }

  /// Lower-cased, without surrounding whitespace.
  static func normalized(_ name: String) -> [Character] {
    Array(name.trimmingWhitespace().lowercased())
  }

  /// Whether one is the English plural of the other (`query`/`queries`, `event`/`events`).
  static func isPlural(_ a: [Character], of b: [Character]) -> Bool {
    if a == b + ["s"] || a == b + ["e", "s"] { return true }
    return b.last == "y" && a == b.dropLast() + ["i", "e", "s"]
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

extension Catalog {
  /// The product ids nearest to an unknown `id`, for "did you mean".
  /// - Complexity: O(products · m²).
  public func suggestions(for id: String) -> [String] {
    NearMatch.suggestions(for: id, among: products.lazy.map(\.id))
  }
}
