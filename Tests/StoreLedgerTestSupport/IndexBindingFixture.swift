import Foundation
import Testing

@testable import StoreLedgerCore
@testable import StoreLedgerStorage

/// Two logs of one length that differ only in their first block, and what a reader of them must
/// do, for the index binding tests in process and on the command line.
package protocol IndexBindingFixture {}

extension IndexBindingFixture {
  /// A valid log of more than two 64 KiB blocks whose first line is a purchase of `firstSubject`
  /// (two names of one length give two logs that differ only in the first block).
  package static func logBytes(firstSubject: String) -> [UInt8] {
    let head = EventLines.line(
      .purchase(id: "head", subject: "\(firstSubject)", at: ts("2025-12-01T00:00:00Z"), product: "coins.100", transaction: "head-t"))
    let lines = [head] + RandomLog(seed: 4, subjects: 40, eventsPerSubject: 40).lines
    return Array((lines.joined(separator: "\n") + "\n").utf8)
  }

  /// The old log `aa…` and its replacement `bb…`: one length, one last 64 KiB, another first block.
  package static func logs() -> (old: [UInt8], new: [UInt8]) {
    let old = logBytes(firstSubject: "aa")
    let new = logBytes(firstSubject: "bb")
    let block = Int(PrefixDigest.blockBytes)
    #expect(old.count == new.count && old.count > 2 * block)
    #expect(old.suffix(block) == new.suffix(block) && old.prefix(block) != new.prefix(block))
    return (old, new)
  }

  /// Expects readers of both first subjects not to use the index, with a warning naming `issues`,
  /// and to answer as a full read does.
  package static func expectBypassed(
    _ fixture: IndexFixture, issues: [IndexIssue], _ note: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let full = try fixture.fullLedger()
    for subject in ["aa", "bb"] {
      let (indexed, warning) = try fixture.indexedLedger([subject])
      #expect(indexed == nil, "\(note): \(subject) was read through the old index", sourceLocation: sourceLocation)
      if let indexed {
        #expect(
          answers(indexed, subject: subject, at: full.latestEffective, asOf: nil)
            == answers(full, subject: subject, at: full.latestEffective, asOf: nil),
          "\(note): \(subject)'s answer", sourceLocation: sourceLocation)
      }
      let issue = warning.flatMap(Self.issue(of:))
      #expect(issue.map(issues.contains) == true, "\(note): \(String(describing: warning))", sourceLocation: sourceLocation)
    }
  }

  /// The reason of a reader's warning that it did not use the index.
  package static func issue(of warning: Diagnostic) -> IndexIssue? {
    if case .indexNotUsed(let issue) = warning.problem { return issue }
    return nil
  }
}
