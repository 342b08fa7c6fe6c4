import Foundation
import StoreLedgerTestSupport

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

  /// One library target: its module, the folders of Sources/StoreLedger it compiles and the
  /// targets (and C modules) it depends on.
  struct Target: Equatable {
    /// The module name (`StoreLedgerCore`).
    let name: String
    /// Its folders, with their trailing slashes.
    let folders: [String]
    /// The modules it depends on.
    let dependencies: [String]
  }

  /// The rows in order: a row may use only folders of rows above it.
  let rows: [Row]
  /// Uses the rows forbid that the code still has: (folder, used folder).
  let knownBreaks: [(folder: String, uses: String)]
  /// The library targets ("Targets"), bottom up.
  let targets: [Target]
  /// The test targets ("Test targets"): their folders under `Tests/<name>/` and what they depend on.
  let testTargets: [Target]

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
    let targets = table(in: lines, header: "| target | folders | depends on |").map { cells in
      Target(name: names(in: cells[0]).first ?? "", folders: names(in: cells[1]), dependencies: names(in: cells[2]))
    }
    let testTargets = table(in: lines, header: "| test target | folders | depends on |").map { cells in
      Target(name: names(in: cells[0]).first ?? "", folders: names(in: cells[1]), dependencies: names(in: cells[2]))
    }
    return LayerTable(rows: rows, knownBreaks: breaks, targets: targets, testTargets: testTargets)
  }

  /// The library targets Package.swift declares with `libraryTarget(_:folders:dependencies:)`,
  /// in its order (folders given a trailing slash, as the table writes them).
  static func packageTargets() throws -> [Target] {
    let text = try String(contentsOfFile: repoPath("Package.swift"), encoding: .utf8)
    let call = try Regex(#"libraryTarget\(\s*"(\w+)",\s*folders:\s*\[([^\]]*)\],\s*dependencies:\s*\[([^\]]*)\]\s*\)"#)
    return text.matches(of: call).map { match in
      func strings(_ index: Int) -> [String] {
        let list = match.output[index].substring.map(String.init) ?? ""
        return list.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
          .map { String($0.element) }
      }
      return Target(
        name: match.output[1].substring.map(String.init) ?? "", folders: strings(2).map { $0 + "/" },
        dependencies: strings(3))
    }
  }

  /// The test targets Package.swift declares with `testsTarget(_:dependencies:)`, in its order
  /// (no folders: those are the tree's, under `Tests/<name>/`).
  static func packageTestTargets() throws -> [Target] {
    let text = try String(contentsOfFile: repoPath("Package.swift"), encoding: .utf8)
    let call = try Regex(#"testsTarget\(\s*"(\w+)",\s*dependencies:\s*\[([^\]]*)\]\s*\)"#)
    return text.matches(of: call).map { match in
      let list = match.output[2].substring.map(String.init) ?? ""
      let dependencies = list.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
        .filter { $0.offset % 2 == 1 }.map { String($0.element) }
      return Target(name: match.output[1].substring.map(String.init) ?? "", folders: [], dependencies: dependencies)
    }
  }

  /// The executable targets Package.swift declares: a test target may depend on one without
  /// importing it, to run the program it builds.
  static func packageExecutables() throws -> Set<String> {
    let text = try String(contentsOfFile: repoPath("Package.swift"), encoding: .utf8)
    let call = try Regex(#"\.executableTarget\(\s*name:\s*"(\w+)""#)
    return Set(text.matches(of: call).compactMap { $0.output[1].substring.map(String.init) })
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
