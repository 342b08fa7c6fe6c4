import StoreLedgerCore

/// The readable header of a snapshot (`catalog`, `format`, `log`, the keys before `subjects`).
///
/// A small pull parser over our own format's first lines; everything after the `subjects` key
/// (the readable timeline) is left alone.
struct SnapshotHeaderParser {
  let p: UnsafeBufferPointer<UInt8>
  let file: String
  var i = 0
  var scratch: [UInt8] = []

  init(p: UnsafeBufferPointer<UInt8>, file: String) {
    self.p = p
    self.file = file
  }

  /// The header, and where the `subjects` key begins (the end of the bytes the seal covers).
  mutating func header() throws(Diagnostic) -> (header: SnapshotHeader, end: Int) {
    var fields = HeaderFields()
    try expect(123)
    while true {
      skipWhitespace()
      let keyAt = i
      let key = try text()
      try expect(58)
      if key == "subjects" {
        guard fields.format == SnapshotHeader.format, let catalogDigest = fields.catalogDigest,
          let logDigest = fields.logDigest, fields.lines >= 0, fields.bytes >= 0, fields.events >= 0,
          fields.duplicates >= 0, fields.lines <= Int64(Limits.linesMax), fields.events <= fields.lines,
          fields.blockBytes <= Int64(PrefixTreeDigest.blockBytesMax),
          PrefixTreeDigest.isValid(blockBytes: Int(fields.blockBytes), prefixBytes: fields.bytes)
        else { throw fail("missing or impossible 'catalog', 'format' or 'log' before 'subjects'") }
        let header = SnapshotHeader(
          lines: Int(fields.lines), bytes: fields.bytes, logDigest: logDigest, logBlockBytes: Int(fields.blockBytes),
          catalogDigest: catalogDigest,
          events: Int(fields.events), duplicatesSkipped: Int(fields.duplicates))
        return (header, keyAt)
      }
      if try !headerField(key, into: &fields) { try skipValue() }
      if key == "format" && fields.format != SnapshotHeader.format {
        throw fail("format is '\(fields.format)', expected '\(SnapshotHeader.format)': make a new snapshot")
      }
      guard take(44) else { throw fail("missing 'subjects'") }
    }
  }

  /// The values of the header's sections.
  struct HeaderFields {
    var format = ""
    var catalogDigest: SHA256Digest? = nil
    var logDigest: Checksum64? = nil
    var lines: Int64 = -1
    var bytes: Int64 = -1
    var blockBytes: Int64 = -1
    var events: Int64 = -1
    var duplicates: Int64 = -1
  }

  /// Parses the value of `key` if it is a header section; false for any other key.
  mutating func headerField(_ key: String, into fields: inout HeaderFields) throws(Diagnostic) -> Bool {
    switch key {
    case "format": fields.format = try text()
    case "catalog":
      try members { (this, key) throws(Diagnostic) in
        if key == "sha256" { fields.catalogDigest = SHA256Digest(hex: try this.text()) } else { try this.skipValue() }
      }
    case "log":
      try members { (this, key) throws(Diagnostic) in
        switch key {
        case "tree_xxh64": fields.logDigest = Checksum64(hex: try this.text())
        case "block_bytes": fields.blockBytes = try this.integer()
        case "lines": fields.lines = try this.integer()
        case "bytes": fields.bytes = try this.integer()
        case "events": fields.events = try this.integer()
        case "duplicates_skipped": fields.duplicates = try this.integer()
        default: try this.skipValue()
        }
      }
    default:
      return false
    }
    return true
  }

  func fail(_ detail: String) -> Diagnostic {
    var line = 1
    for k in 0..<min(i, p.count) where p[k] == 10 { line += 1 }
    return Diagnostic(file: file, line: line, .snapshotMismatch("not a valid snapshot: \(detail)"))
  }

  mutating func skipWhitespace() {
    while i < p.count, p[i] == 32 || p[i] == 10 || p[i] == 13 || p[i] == 9 { i += 1 }
  }

  mutating func expect(_ c: UInt8) throws(Diagnostic) {
    skipWhitespace()
    guard i < p.count, p[i] == c else { throw fail("expected '\(Character(Unicode.Scalar(c)))'") }
    i += 1
  }

  /// True when the next token is `c` (consumed).
  mutating func take(_ c: UInt8) -> Bool {
    skipWhitespace()
    if i < p.count, p[i] == c {
      i += 1
      return true
    }
    return false
  }

  mutating func string() throws(Diagnostic) -> [UInt8] {
    try expect(34)
    scratch.removeAll(keepingCapacity: true)
    switch JSONScan.string(p, from: i, end: p.count, into: &scratch) {
    case .success(let end): i = end
    case .failure(let failure):
      i = failure.offset
      throw fail(failure.detail)
    }
    return scratch
  }

  mutating func text() throws(Diagnostic) -> String {
    String(decoding: try string(), as: UTF8.self)
  }

  mutating func integer() throws(Diagnostic) -> Int64 {
    skipWhitespace()
    var negative = false
    if i < p.count, p[i] == 45 {
      negative = true
      i += 1
    }
    var value: Int64 = 0
    var digits = 0
    while i < p.count, p[i] &- 48 < 10 {
      let (tens, overTens) = value.multipliedReportingOverflow(by: 10)
      let (next, overNext) = tens.addingReportingOverflow(Int64(p[i] &- 48))
      guard digits < 19, !overTens, !overNext else { throw fail("number too long") }
      value = next
      digits += 1
      i += 1
    }
    guard digits > 0 else { throw fail("expected an integer") }
    return negative ? -value : value
  }

  mutating func skipValue() throws(Diagnostic) {
    skipWhitespace()
    guard i < p.count else { throw fail("unexpected end") }
    switch p[i] {
    case 123, 91:
      let close: UInt8 = p[i] == 123 ? 125 : 93
      i += 1
      if take(close) { return }
      repeat {
        if close == 125 {
          _ = try string()
          try expect(58)
        }
        try skipValue()
      } while take(44)
      try expect(close)
    case 34:
      _ = try string()
    default:
      while i < p.count, !(p[i] == 44 || p[i] == 125 || p[i] == 93 || p[i] == 32 || p[i] == 10) { i += 1 }
    }
  }

  /// Iterates object members, calling `body` with each key.
  mutating func members(_ body: (inout SnapshotHeaderParser, String) throws(Diagnostic) -> Void) throws(Diagnostic) {
    try expect(123)
    if take(125) { return }
    repeat {
      let key = try text()
      try expect(58)
      try body(&self, key)
    } while take(44)
    try expect(125)
  }

}
