/// The errors and warnings an import collects, so that every problem is reported at once.
///
/// Errors abort the import (nothing is returned partially); warnings are returned with the
/// result. `unknownValues` counts enum values a store added after this importer was written.
struct ImportProblems {
  /// The input file name used in every diagnostic.
  let file: String
  /// Problems that make the import fail.
  var errors: [Diagnostic] = []
  /// Problems that are reported but do not stop the import.
  var warnings: [Diagnostic] = []
  /// `field=value` of each unknown enum value, with how often it was seen.
  var unknownValues: [String: Int] = [:]

  /// Creates an empty collection for `file`.
  init(file: String) { self.file = file }

  /// Records an error on an input line.
  mutating func error(_ line: Int, _ message: String) {
    errors.append(Diagnostic(file: file, line: line, .importFailed(message)))
  }

  /// Records a warning on an input line.
  mutating func warning(_ line: Int, _ message: String) {
    warnings.append(Diagnostic(file: file, line: line, .importFailed(message), severity: .warning))
  }

  /// Counts and warns about an enum value this importer does not know.
  mutating func unknownValue(_ line: Int, field: String, raw: JSONValue, consequence: String) {
    let shown = JSONWriter.compact(raw)
    unknownValues["\(field)=\(raw.stringValue ?? shown)", default: 0] += 1
    warning(line, "field '\(field)': unknown value \(shown); \(consequence)")
  }
}
