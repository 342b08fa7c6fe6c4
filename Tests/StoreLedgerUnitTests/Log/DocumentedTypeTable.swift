import Foundation
import StoreLedgerTestSupport

/// The type table of Docs/log-format.md as the doc writes it: each type's name, required and
/// optional fields, in the doc's order.
///
/// The tests' independent readers (`ReferenceEventReader`, `GeneratedLogChecker`) take their
/// field table from here instead of restating it, so a new kind's fields are written once, in
/// the doc; they stay independent of the code's kind table, which `EventKindTableTests` compares
/// with the same rows (a code table that disagrees with the doc fails there, and in the
/// differential test on the lines where they differ).
enum DocumentedTypeTable {
  /// One row: a type and its fields beyond `id`, `type`, `subject`, `at`, `recorded`, `meta`.
  struct Row: Equatable {
    let name: String
    let required: [String]
    let optional: [String]
  }

  /// The doc has no type table where the readers look for it.
  struct Missing: Error, CustomStringConvertible {
    var description: String { "Docs/log-format.md has no line '\(DocumentedTypeTable.header)'" }
  }

  /// The header line the table starts at.
  static let header = "| type | required | optional |"

  /// The rows, read once for the readers; none if the doc cannot be read (then every line's type
  /// is unknown to them, and `EventKindTableTests` says why).
  static let rows: [Row] = (try? read()) ?? []

  /// The rows, read from the doc now.
  /// - Complexity: O(length of the doc).
  static func read() throws -> [Row] {
    let text = try String(contentsOfFile: repoPath("Docs/log-format.md"), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(of: header) else { throw Missing() }
    func names(_ cell: String) -> [String] {
      cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["`"]) }
        .filter { !$0.isEmpty }
    }
    return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { row in
      let cells = row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
        .map { String($0) }
      return Row(name: names(cells[0]).first ?? "", required: names(cells[1]), optional: names(cells[2]))
    }
  }
}
