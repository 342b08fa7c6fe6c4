import StoreLedgerCore

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

  /// Records an error worded by `Problem` on an input line.
  mutating func record(_ line: Int, _ problem: Problem) {
    errors.append(Diagnostic(file: file, line: line, problem))
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

/// What every importer's mapper keeps: the events it emits and the problems it finds.
protocol EventMapping {
  /// Errors and warnings, by input line.
  var problems: ImportProblems { get set }
  /// The events mapped so far.
  var events: [ImportedEvent] { get set }
  /// Whose ids the event ids derive from, for the message when one would be too long.
  static var idOrigin: String { get }
  /// Appended to a bad subject's message: how to fix it ("" when nothing more is to say).
  static var subjectHint: String { get }
}

extension EventMapping {
  /// Appends an event after checking its id length (Docs/log-format.md: 1–128 characters).
  mutating func emit(_ event: ImportedEvent) {
    guard event.id.unicodeScalars.count <= Limits.idLengthMax else {
      problems.error(
        event.line,
        "the event id '\(event.id)' would be longer than \(Limits.idLengthMax) characters; \(Self.idOrigin) are never that long, is the input damaged?"
      )
      return
    }
    events.append(event)
  }

  /// `subject` when it has the log's 1–256 characters; otherwise an error naming `source` and nil.
  mutating func checkedSubject(_ subject: String, source: String, line: Int) -> String? {
    guard !subject.isEmpty, subject.unicodeScalars.count <= Limits.subjectLengthMax else {
      problems.error(
        line, "the subject for \(source) must be 1–\(Limits.subjectLengthMax) characters, found \"\(subject)\"\(Self.subjectHint)")
      return nil
    }
    return subject
  }
}
