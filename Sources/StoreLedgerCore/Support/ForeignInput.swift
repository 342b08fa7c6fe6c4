/// What a file given as a log is when it is not JSON Lines at all (`Problem.notJSONLines`).
package enum ForeignInput: Sendable, Equatable {
  /// It starts with the signature of a known binary format.
  case signature(FileSignature)
  /// Its first lines (all of them, `isWholeFile`) fail to parse and its start holds NUL bytes,
  /// which JSON text never does.
  case binary(linesFailed: Int, isWholeFile: Bool)
  /// Text whose first `linesFailed` lines all fail to parse as JSON; `firstError` is the first one's, worded.
  case text(linesFailed: Int, firstError: String)
}

/// A known binary format's first bytes: a log given as one cannot be JSON Lines.
package enum FileSignature: CaseIterable, Sendable, Equatable {
  case gzip, zip, xz, zstd, bzip2, png, jpeg, gif, pdf, sqlite, elf, utf16LE, utf16BE

  /// The bytes a file of the format starts with.
  var magic: [UInt8] {
    switch self {
    case .gzip: return [0x1F, 0x8B]
    case .zip: return Array("PK".utf8) + [0x03, 0x04]
    case .xz: return [0xFD] + Array("7zXZ".utf8) + [0x00]
    case .zstd: return [0x28, 0xB5, 0x2F, 0xFD]
    case .bzip2: return Array("BZh".utf8)
    case .png: return [0x89] + Array("PNG".utf8) + [0x0D, 0x0A, 0x1A, 0x0A]
    case .jpeg: return [0xFF, 0xD8, 0xFF]
    case .gif: return Array("GIF8".utf8)
    case .pdf: return Array("%PDF-".utf8)
    case .sqlite: return Array("SQLite format 3".utf8) + [0x00]
    case .elf: return [0x7F] + Array("ELF".utf8)
    case .utf16LE: return [0xFF, 0xFE]
    case .utf16BE: return [0xFE, 0xFF]
    }
  }
}
