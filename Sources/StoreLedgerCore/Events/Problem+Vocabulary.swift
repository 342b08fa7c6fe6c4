extension Problem {
  /// A field the format does not have, with the known field nearest to it (the fields of
  /// `Field`, and `as_of` for queries) for "did you mean".
  /// - Complexity: O(fields · m²) for a name of length about m.
  package static func unknownField(_ name: String) -> Problem {
    .unknownField(name, nearest: NearMatch.closest(name, among: Field.allCases.map(\.name) + ["as_of"]))
  }

  /// A `type` the format does not have (`found` as the line holds it, quoted), with the names it has.
  package static func unknownEventType(_ found: String) -> Problem {
    .unknownEventType(found, known: EventKind.allNames)
  }
}
