import Foundation
import StoreLedgerTestSupport

/// One Swift file of Sources/ as the tidy checks read it: comments and string literals blanked,
/// lines kept, braces counted. Not a parser: good enough to measure bodies, list top-level
/// declarations and find the names a file uses (the method of `fnlen.py`, in Swift).
struct SwiftSource {
  /// The path relative to the package root, such as `Sources/StoreLedgerCore/Log/LogReader.swift`.
  let path: String
  /// The text with every comment and string literal (interpolations included) replaced by
  /// spaces; newlines stay, so offsets and line numbers are the file's.
  let code: [UInt8]

  /// Reads and blanks one file.
  init(path: String, text: String) {
    self.path = path
    code = SwiftSource.blank(Array(text.utf8))
  }

  /// Every Swift file under `directory` (relative to the package root), sorted by path.
  static func files(under directory: String) throws -> [SwiftSource] {
    let root = packageRoot.appendingPathComponent(directory)
    guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
    var sources: [SwiftSource] = []
    while let relative = walker.nextObject() as? String {
      guard relative.hasSuffix(".swift") else { continue }
      let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
      sources.append(SwiftSource(path: directory + "/" + relative, text: text))
    }
    return sources.sorted { $0.path < $1.path }
  }

  /// The library targets, each a folder of Sources/ holding its layers' folders (Package.swift's
  /// `libraryTarget`s; Docs/architecture.md, "Targets").
  static let libraryTargets = ["StoreLedgerCore", "StoreLedgerStorage", "StoreLedgerImport", "StoreLedgerReport", "StoreLedger"]

  /// The path inside its library target (`Log/LogReader.swift`), or nil outside the library.
  var pathInLibrary: String? {
    let parts = path.split(separator: "/").map(String.init)
    guard parts.count > 3, parts[0] == "Sources", SwiftSource.libraryTargets.contains(parts[1]) else { return nil }
    return parts[2...].joined(separator: "/")
  }

  /// The file name without `.swift`.
  var baseName: String { String((path.split(separator: "/").last ?? "").dropLast(6)) }

  /// The lines of the blanked text.
  var lines: [String] {
    String(decoding: code, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  // MARK: Blanking comments and strings

  private static let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), quote = UInt8(ascii: "\"")
  private static let hash = UInt8(ascii: "#"), backslash = UInt8(ascii: "\\"), newline = UInt8(ascii: "\n")
  private static let space = UInt8(ascii: " "), open = UInt8(ascii: "("), close = UInt8(ascii: ")")

  /// Replaces comments and string literals with spaces, keeping newlines.
  static func blank(_ text: [UInt8]) -> [UInt8] {
    var out = text
    var index = 0
    func clear(_ range: Range<Int>) {
      for position in range where out[position] != newline { out[position] = space }
    }
    while index < text.count {
      let byte = text[index]
      let next = index + 1 < text.count ? text[index + 1] : 0
      if byte == slash && next == slash {
        var end = index
        while end < text.count && text[end] != newline { end += 1 }
        clear(index..<end)
        index = end
      } else if byte == slash && next == star {
        let end = blockCommentEnd(text, from: index)
        clear(index..<end)
        index = end
      } else if byte == quote || (byte == hash && (next == quote || next == hash)) {
        guard let end = stringEnd(text, from: index) else {
          index += 1
          continue
        }
        clear(index..<end)
        index = end
      } else {
        index += 1
      }
    }
    return out
  }

  /// The end of the (nestable) block comment starting at `start`.
  private static func blockCommentEnd(_ text: [UInt8], from start: Int) -> Int {
    var depth = 1
    var index = start + 2
    while index < text.count && depth > 0 {
      if text[index] == slash && index + 1 < text.count && text[index + 1] == star {
        depth += 1
        index += 2
      } else if text[index] == star && index + 1 < text.count && text[index + 1] == slash {
        depth -= 1
        index += 2
      } else {
        index += 1
      }
    }
    return index
  }

  /// The end of the string literal (plain, multi-line or raw) starting at `start`, or nil when
  /// `start` begins none (a `#if`).
  private static func stringEnd(_ text: [UInt8], from start: Int) -> Int? {
    var index = start
    var hashes = 0
    while index < text.count && text[index] == hash {
      hashes += 1
      index += 1
    }
    guard index < text.count && text[index] == quote else { return nil }
    let isMultiline = index + 2 < text.count && text[index + 1] == quote && text[index + 2] == quote
    let delimiter = isMultiline ? 3 : 1
    index += delimiter
    while index < text.count {
      let byte = text[index]
      if byte == backslash && matches(text, at: index + 1, hash, count: hashes) {
        let after = index + 1 + hashes
        if after < text.count && text[after] == open {
          index = parenthesesEnd(text, from: after)
        } else {
          index = after + 1
        }
        continue
      }
      if byte == quote && matches(text, at: index, quote, count: delimiter)
        && matches(text, at: index + delimiter, hash, count: hashes)
      {
        return index + delimiter + hashes
      }
      if !isMultiline && byte == newline { return index }
      index += 1
    }
    return index
  }

  private static func matches(_ text: [UInt8], at start: Int, _ byte: UInt8, count: Int) -> Bool {
    guard start + count <= text.count else { return false }
    for offset in 0..<count where text[start + offset] != byte { return false }
    return true
  }

  /// The position after the parenthesis that closes the one at `start`.
  private static func parenthesesEnd(_ text: [UInt8], from start: Int) -> Int {
    var depth = 0
    var index = start
    while index < text.count {
      if text[index] == open { depth += 1 }
      if text[index] == close {
        depth -= 1
        if depth == 0 { return index + 1 }
      }
      index += 1
    }
    return index
  }
}
