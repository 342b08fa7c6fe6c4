import Testing

@testable import StoreLedgerCore

/// The instants a set of event lines names, for comparing answers everywhere they could differ.
package protocol EventLineTimes {}

extension EventLineTimes {
  /// The subjects of event lines, every instant they name (and the millisecond before each),
  /// and every `recorded` (and the millisecond before each).
  package static func times(_ lines: [String]) -> (
    subjects: [String], instants: [Timestamp], recorded: [Timestamp]
  ) {
    var subjects: Set<String> = []
    var instants: Set<Timestamp> = []
    var recorded: Set<Timestamp> = []
    for line in lines {
      guard let event = try? JSONValue.parse(line) else { continue }
      if let subject = event["subject"]?.stringValue { subjects.insert(subject) }
      for key in ["at", "expires", "grace_expires"] {
        if let time = event[key]?.stringValue.flatMap(Timestamp.parseRFC3339) {
          instants.insert(time)
          instants.insert(time.adding(milliseconds: -1))
        }
      }
      if let time = event["recorded"]?.stringValue.flatMap(Timestamp.parseRFC3339) {
        recorded.insert(time)
        recorded.insert(time.adding(milliseconds: -1))
      }
    }
    return (subjects.sorted(), instants.sorted(), recorded.sorted())
  }
}

/// A log's engine and its lines: what an import left, for `compareAnswers`.
package struct ImportedAnswers {
  /// The engine of the log.
  package var engine: QueryEngine
  /// The log's event lines.
  package var lines: [String]

  /// The engine of `lines` folded with `catalogText`.
  package init(lines: [String], catalogText: String) throws {
    engine = QueryEngine(ledger: try ledger(lines.joined(separator: "\n"), catalogText: catalogText))
    self.lines = lines
  }
}

extension EventLineTimes {
  /// Expects the answers of every subject at every instant an event names (and the millisecond
  /// before it) to be equal, as known now and, when `asOf`, as known at every `recorded`;
  /// `label` and `seed` name the case in the failure.
  /// - Complexity: O(subjects × instants × knowledge times) answers.
  package static func compareAnswers(
    _ reference: ImportedAnswers, _ imported: ImportedAnswers, label: String, seed: UInt64, asOf: Bool
  ) {
    let (subjects, instants, recorded) = times(reference.lines + imported.lines)
    var reference = reference.engine
    var engine = imported.engine
    let knowledge: [Timestamp?] = asOf ? [nil] + recorded : [nil]
    var differences: [String] = []
    for subject in subjects {
      for at in instants {
        for asOf in knowledge {
          let a = reference.answer(subject: subject, at: at, asOf: asOf)
          let b = engine.answer(subject: subject, at: at, asOf: asOf)
          if a != b && differences.count < 3 {
            differences.append("\(subject) at \(at.rfc3339) as of \(asOf?.rfc3339 ?? "now")")
          }
        }
      }
    }
    #expect(differences.isEmpty, "\(label), seed \(seed): answers differ from one import: \(differences)")
  }
}
