/// Tells a file that is not JSON Lines at all (a gzip of a log, a PNG, a CSV) from a log with a
/// few bad lines, so the first gets one error instead of a thousand per-line ones (the rule and
/// why: Docs/decisions.md, "A log that is not JSON Lines").
///
/// Invariant: once a line parses (or fails on a field, so it is JSON), the input is JSON Lines
/// and nothing more is looked at; only reads from the start of an input are judged.
struct JSONLinesSniffer {
  /// This many failed lines from the start, and no line that is JSON, make a file not JSON Lines.
  static let linesJudged = 8
  /// Bytes of the start looked at for NUL bytes.
  static let startBytesLooked = 4096

  private let name: String
  /// Whether the input is judged still (false once settled, or for a read that does not start at 0).
  private(set) var isOpen: Bool
  private var startSeen = false
  private var hasNULBytes = false
  /// Whether the first byte that is not whitespace (or a byte order mark) is `{`, as a line of a log's is.
  private var startsLikeObject = false
  private var linesFailed = 0
  private var firstError: String? = nil

  /// A sniffer for the input `name`; `isActive` is false for a read that does not start at its beginning.
  init(name: String, isActive: Bool) {
    self.name = name
    isOpen = isActive
  }

  /// Looks at the input's first bytes (once): a known format's signature ends the read.
  /// - Complexity: O(`startBytesLooked`).
  mutating func lookAtStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Diagnostic? {
    guard isOpen && !startSeen else { return nil }
    startSeen = true
    hasNULBytes = bytes.prefix(Self.startBytesLooked).contains(0)
    let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    startsLikeObject = text.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0A } == UInt8(ascii: "{")
    for signature in FileSignature.allCases where bytes.starts(with: signature.magic) {
      // "BZh" is printable: a bzip2 file also has its block magic at byte 4.
      if signature == .bzip2 && !bytes.dropFirst(4).starts(with: [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]) { continue }
      isOpen = false
      return Diagnostic(file: name, .notJSONLines(.signature(signature)))
    }
    return nil
  }

  /// Looks at a parsed block's lines in order until one shows the input is JSON Lines.
  /// - Complexity: O(lines looked at), at most `linesJudged` failures and one more line.
  mutating func observe(_ block: ParsedBlock) {
    guard isOpen else { return }
    if let failure = block.leadingFailure { observe(.failure(failure)) }
    block.lines.forEach { line in
      guard isOpen && linesFailed < Self.linesJudged else { return false }
      observe(line)
      return true
    }
  }

  private mutating func observe(_ line: ParsedLine) {
    switch line {
    case .empty: return
    case .event: isOpen = false
    case .failure(let diagnostic):
      switch diagnostic.problem {
      case .invalidJSON, .lineTooLong:
        linesFailed += 1
        if firstError == nil { firstError = "line \(diagnostic.line ?? 1): \(diagnostic.message)" }
      default:
        // A line that fails on a field is a JSON object: the file is JSON Lines with a bad line.
        isOpen = false
      }
    }
  }

  /// Judges the start of a log that is not being loaded: a writer that refuses a torn log before
  /// reading it must not advise `repair` for a file that is not a log at all.
  /// - Complexity: O(`startBytesJudged`).
  static func judgeStart(
    of file: borrowing PlatformFile, name: String, size: Int64, catalog: Catalog
  ) throws(Diagnostic) -> Diagnostic? {
    let bytes = try file.readBytes(count: Int(min(size, Int64(startBytesJudged))), at: 0)
    var sniffer = JSONLinesSniffer(name: name, isActive: true)
    if let foreign = bytes.withUnsafeBufferPointer({ sniffer.lookAtStart($0) }) { return foreign }
    guard let lastNewline = bytes.lastIndex(of: 10) else { return sniffer.verdict(atEnd: Int64(bytes.count) == size) }
    let block = ParsedBlock(capacity: lastNewline + 1, catalog: catalog)
    bytes.withUnsafeBytes { block.buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[...lastNewline])) }
    block.length = lastNewline + 1
    block.parse()
    sniffer.observe(block)
    return sniffer.verdict(atEnd: Int64(bytes.count) == size)
  }

  /// Bytes `judgeStart` reads.
  static let startBytesJudged = 1 << 16

  /// The error that stops the read, when the lines seen so far show the input is not JSON Lines:
  /// `linesJudged` failed lines, or (`atEnd`) every line of a shorter file with NUL bytes. A short
  /// text file keeps its few per-line errors, which carry their place and hint.
  func verdict(atEnd: Bool) -> Diagnostic? {
    guard isOpen else { return nil }
    guard let firstError else {
      // No whole line: binary data without a newline is not a log whose last write was torn
      // (that starts as a line does, with `{`), and `repair` is not the advice it needs.
      guard atEnd && startSeen && hasNULBytes && !startsLikeObject else { return nil }
      return Diagnostic(file: name, .notJSONLines(.binary(linesFailed: 1, isWholeFile: true)))
    }
    if linesFailed >= Self.linesJudged {
      let what: ForeignInput =
        hasNULBytes
        ? .binary(linesFailed: Self.linesJudged, isWholeFile: false)
        : .text(linesFailed: Self.linesJudged, firstError: firstError)
      return Diagnostic(file: name, .notJSONLines(what))
    }
    guard atEnd && hasNULBytes else { return nil }
    return Diagnostic(file: name, .notJSONLines(.binary(linesFailed: linesFailed, isWholeFile: true)))
  }
}
