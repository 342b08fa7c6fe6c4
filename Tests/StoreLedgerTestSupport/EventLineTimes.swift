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
