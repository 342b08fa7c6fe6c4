import Foundation
import Testing

/// The library product's public surface against its recorded baseline, `.ci/public-surface.txt`:
/// every `public` declaration of the product's targets (their folders, all but
/// `Report/`), one per line as `path: declaration`. A
/// change to the public API is then a change to that file, made on purpose and reviewed.
/// `.ci/public-surface.py apply` turns stray `public` into `package` (Docs/library.md documents
/// what stays public).
@Suite("Public surface: the library's public declarations equal the baseline")
struct PublicSurfaceTests {
  static let baselinePath = ".ci/public-surface.txt"
  /// Library folders whose targets are not in the product (Docs/architecture.md, "Targets").
  static let outsideProduct = ["Report/"]

  /// Every public declaration of the library, as `path: Type: declaration` (the top-level type
  /// or extension it is in, then its text up to the body), sorted.
  static func surface() throws -> [String] {
    var found: [String] = []
    for source in try SwiftSource.files(under: "Sources") {
      guard let relative = source.pathInLibrary, !outsideProduct.contains(where: { relative.hasPrefix($0) }) else {
        continue
      }
      let lines = source.lines
      let types = source.declarations.filter { $0.isTopLevel && $0.keyword != "func" && $0.keyword != "let" }
      for (index, line) in lines.enumerated() where Self.isPublic(line) {
        let enclosing = types.last { $0.line <= index + 1 }.map { $0.name + ": " } ?? ""
        found.append("\(relative): \(enclosing)\(Self.declaration(lines, from: index))")
      }
    }
    return found.sorted()
  }

  /// Whether a line of code declares something `public` (modifiers and attributes may come first).
  static func isPublic(_ line: String) -> Bool {
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard let position = words.firstIndex(of: "public") else { return false }
    return words[..<position].allSatisfy { $0.hasPrefix("@") || ["final", "nonisolated", "static"].contains($0) }
  }

  /// The declaration starting at `start`, over as many lines as its parentheses span, up to its
  /// body or initial value, with runs of spaces made one (string literals are blank).
  static func declaration(_ lines: [String], from start: Int) -> String {
    var text = ""
    var depth = 0
    var index = start
    scan: while index < lines.count {
      for character in lines[index] {
        if character == "(" || character == "[" { depth += 1 }
        if character == ")" || character == "]" { depth -= 1 }
        if depth == 0 && (character == "{" || character == "=") { break scan }
        text.append(character)
      }
      if depth <= 0 { break }
      text.append(" ")
      index += 1
    }
    return text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
  }

  @Test("the public declarations of the library targets are exactly .ci/public-surface.txt")
  func matchesBaseline() throws {
    let current = try Self.surface()
    try #require(current.count > 50, "the library has too few public declarations: not found?")
    let baseline = try String(contentsOfFile: repoPath(Self.baselinePath), encoding: .utf8)
      .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }.sorted()
    let added = current.difference(from: baseline).insertions.map { if case .insert(_, let line, _) = $0 { line } else { "" } }
    let removed = current.difference(from: baseline).removals.map { if case .remove(_, let line, _) = $0 { line } else { "" } }
    #expect(
      current == baseline,
      """
      The public surface changed. If on purpose, write the new one to \(Self.baselinePath).
      Added:
      \(added.joined(separator: "\n"))
      Removed:
      \(removed.joined(separator: "\n"))
      The surface now:
      \(current.joined(separator: "\n"))
      """)
  }

  @Test("a declaration is read up to its body, across lines while its parentheses are open")
  func readsDeclarations() {
    let lines = [
      "  @inlinable public init(", "    id: String,", "    at: Timestamp", "  ) throws {", "  public var name: String { x }",
      "  /// public", "  let publicName = 1",
    ]
    #expect(Self.declaration(lines, from: 0) == "@inlinable public init( id: String, at: Timestamp ) throws")
    #expect(Self.declaration(lines, from: 4) == "public var name: String")
    #expect(lines.filter(Self.isPublic).count == 2)
  }
}
