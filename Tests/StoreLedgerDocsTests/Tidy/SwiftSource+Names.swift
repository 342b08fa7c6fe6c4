import Foundation
import StoreLedgerTestSupport

/// A name a file declares.
struct Declaration: Equatable {
  /// `struct`, `enum`, `class`, `protocol`, `typealias`, `actor`, `extension`, `func`, `let` or `var`.
  let keyword: String
  /// The declared name (for an extension, the extended type's first component).
  let name: String
  /// Whether it is `private` or `fileprivate`, so no other file can name it.
  let isPrivate: Bool
  /// Whether it is outside every brace of the file.
  let isTopLevel: Bool
  /// Its line (1-based).
  let line: Int
}

extension SwiftSource {
  private enum Pattern {
    nonisolated(unsafe) static let declaration = try! Regex(
      #"^[ \t]*(?:@\w+(?:\([^)]*\))?\s+)*((?:(?:public|package|internal|private|fileprivate|final|indirect|static|nonisolated|mutating|override|convenience|required|lazy|weak|unowned)(?:\([^)]*\))?\s+)*)(struct|class|enum|protocol|typealias|actor|extension|func|let|var)\s+([A-Za-z_][A-Za-z0-9_]*)"#
    )
    nonisolated(unsafe) static let importLine = try! Regex(
      #"^[ \t]*(?:@\w+\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?([A-Za-z_][A-Za-z0-9_]*)"#
    )
  }

  /// Every declaration that starts a line, with whether it is at the top level.
  /// - Complexity: O(bytes of the file + lines × regex).
  var declarations: [Declaration] {
    var found: [Declaration] = []
    var depth = 0
    for (index, line) in lines.enumerated() {
      if let match = line.firstMatch(of: Pattern.declaration) {
        let modifiers = match.output[1].substring.map(String.init) ?? ""
        let keyword = match.output[2].substring.map(String.init) ?? ""
        let name = match.output[3].substring.map(String.init) ?? ""
        found.append(
          Declaration(
            keyword: keyword, name: name, isPrivate: modifiers.contains("private"), isTopLevel: depth == 0,
            line: index + 1))
      }
      for character in line.utf8 {
        if character == UInt8(ascii: "{") { depth += 1 }
        if character == UInt8(ascii: "}") { depth -= 1 }
      }
    }
    return found
  }

  /// The modules the file imports, with their lines.
  var imports: [(module: String, line: Int)] {
    lines.enumerated().compactMap { index, line in
      guard let match = line.firstMatch(of: Pattern.importLine), let module = match.output[1].substring else {
        return nil
      }
      return (String(module), index + 1)
    }
  }

  /// The identifiers the code uses, with their lines; member names after a `.` are left out
  /// (they name members, not declarations of a folder).
  var identifiers: [(name: String, line: Int)] {
    var found: [(String, Int)] = []
    var line = 1
    var index = 0
    func isStart(_ byte: UInt8) -> Bool {
      (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95
    }
    func isPart(_ byte: UInt8) -> Bool { isStart(byte) || (byte >= 48 && byte <= 57) }
    while index < code.count {
      let byte = code[index]
      if byte == UInt8(ascii: "\n") {
        line += 1
        index += 1
      } else if isStart(byte) {
        var end = index
        while end < code.count && isPart(code[end]) { end += 1 }
        let afterDot = index > 0 && code[index - 1] == UInt8(ascii: ".")
        if !afterDot { found.append((String(decoding: code[index..<end], as: UTF8.self), line)) }
        index = end
      } else if isPart(byte) {
        while index < code.count && isPart(code[index]) { index += 1 }
      } else {
        index += 1
      }
    }
    return found
  }
}
