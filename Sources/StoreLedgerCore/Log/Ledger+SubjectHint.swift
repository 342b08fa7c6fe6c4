extension Ledger {
  /// `name` with the log's subjects nearest to it: the one "did you mean" of every command
  /// that takes a subject (`query`, `audit`, `can`, `timeline`).
  /// - Complexity: O(s · m²) for s subjects of length about m.
  package func subjectHint(_ name: String) -> NearMatch.Hint {
    NearMatch.Hint(name: name, suggestions: NearMatch.suggestions(for: name, in: symbols.subjects))
  }
}
