import Foundation

/// The layer tables of Docs/architecture.md ("Folders and what each may touch"): each folder's
/// allowed folders and modules, and the known breaks of the layers.
struct LayerTable {
  /// One row: a library folder (`Log/`) or a target folder (`StoreLedgerCLI/`).
  struct Row {
    /// As written, with its trailing slash.
    let folder: String
    /// The folders (with a trailing slash) and modules its code may use.
    let mayUse: [String]
  }

  /// The rows in order: a row may use only folders of rows above it.
  let rows: [Row]
  /// Uses the rows forbid that the code still has: (folder, used folder).
  let knownBreaks: [(folder: String, uses: String)]

  /// The tables of `Docs/architecture.md`.
  static func read() throws -> LayerTable {
    let text = try String(contentsOfFile: repoPath("Docs/architecture.md"), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let rows = table(in: lines, header: "| folder | holds | may use |").map { cells in
      Row(folder: names(in: cells[0]).first ?? "", mayUse: names(in: cells[2]))
    }
    let breaks = table(in: lines, header: "| folder | uses | through |").map { cells in
      (names(in: cells[0]).first ?? "", names(in: cells[1]).first ?? "")
    }
    return LayerTable(rows: rows, knownBreaks: breaks)
  }

  /// The cells of each row of the table under `header`.
  private static func table(in lines: [String], header: String) -> [[String]] {
    guard let start = lines.firstIndex(of: header) else { return [] }
    return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { row in
      row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map(String.init)
    }
  }

  /// The names in backticks in a cell.
  private static func names(in cell: String) -> [String] {
    cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
      .map { String($0.element) }
  }
}
