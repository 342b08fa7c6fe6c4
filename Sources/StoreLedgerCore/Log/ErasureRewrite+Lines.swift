/// An erasure's passes over JSON-lines bytes (a log, the kept Google Play documents): find the
/// few lines that can name an erased subject or token by a byte search, parse only those.
extension ErasureRewrite {
  /// What a rewrite of JSON-lines bytes made.
  package struct Rewritten: Sendable {
    /// The new bytes.
    package var bytes: [UInt8]
    /// Lines changed.
    package var changedLines: Int
    /// Lines of erased subjects (their `subject` is now a pseudonym).
    package var erasedLines: Int
    /// The offset of the first changed byte, nil when nothing changed: a prefix up to it is
    /// the same (snapshots covering no more than it stay valid).
    package var firstChange: Int?
  }

  /// Needles up to which each gets its own SIMD scan; past it one pass looks for all at once.
  static let separateScansMax = 4

  /// The lines (without their newline) of `bytes` holding one of `needles`, or a backslash (a
  /// JSON escape can spell any text with other bytes), in order, each once. A few needles are
  /// searched one by one; many (an erasure of hundreds of subjects) in one pass that tests each
  /// position's first 8 bytes against a bitmap of the needles' (`NeedleSet`). `oneByOne` forces
  /// the first way (the tests pin both to the same result).
  /// - Complexity: O(n × needles) in the size of `bytes` for a few needles, O(n) plus the
  ///   matches' checks for many.
  static func candidateLines(in bytes: [UInt8], needles: [[UInt8]], oneByOne: Bool = false) -> [Range<Int>] {
    var starts = Set<Int>()
    var lines: [Range<Int>] = []
    let wanted = needles.filter { !$0.isEmpty }
    let together = oneByOne || wanted.count <= separateScansMax ? [] : wanted.filter { $0.count >= NeedleSet.keyBytes }
    bytes.withUnsafeBufferPointer { buffer in
      func note(_ offset: Int) -> Int {
        var start = offset
        while start > 0 && buffer[start - 1] != 10 { start -= 1 }
        let end = ByteScan.first(10, in: buffer, from: offset, end: buffer.count)
        if starts.insert(start).inserted { lines.append(start..<end) }
        return end
      }
      for needle in wanted.filter({ $0.count < NeedleSet.keyBytes || together.isEmpty }) + [[92]] {
        var at = 0
        while at < buffer.count {
          at = ByteScan.first(needle[0], in: buffer, from: at, end: buffer.count)
          guard at + needle.count <= buffer.count else { break }
          if needle.indices.allSatisfy({ buffer[at + $0] == needle[$0] }) { at = note(at) }
          at += 1
        }
      }
      if !together.isEmpty { NeedleSet(together).scan(buffer) { note($0) } }
    }
    return lines.sorted { $0.lowerBound < $1.lowerBound }
  }

  /// The JSON objects of `lines` in `bytes`, with their ranges (lines that do not parse are skipped).
  static func objects(in bytes: [UInt8], lines: [Range<Int>]) -> [(Range<Int>, JSONValue)] {
    lines.compactMap { range in
      guard let value = try? JSONValue.parse(bytes: Array(bytes[range])), value.objectMembers != nil else { return nil }
      return (range, value)
    }
  }

  /// Learns from a log what its erased lines hold: the tokens in their `meta`, then (after any
  /// tokens added from elsewhere, in `finishLearning`) their ids. Returns the lines of each
  /// erased subject.
  /// - Complexity: O(n) in the size of the log, plus the parse of the lines naming an erased subject.
  package mutating func learnTokens(fromLog log: [UInt8]) -> [String: Int] {
    var counts: [String: Int] = [:]
    let subjectNeedles = pseudonyms.keys.map { Array($0.utf8) }
    for (_, object) in Self.objects(in: log, lines: Self.candidateLines(in: log, needles: subjectNeedles)) {
      guard isErased(object), let subject = object["subject"]?.stringValue else { continue }
      counts[subject, default: 0] += 1
      learnTokens(fromMetaOf: object)
    }
    return counts
  }

  /// Learns store tokens from kept store documents (JSON lines with a `token`): a line that
  /// names an erased subject or known token anywhere (an `obfuscatedExternalAccountId`, a
  /// `linkedPurchaseToken`) gives its `token` and every value under a token or account key;
  /// repeated until nothing new is found.
  /// - Complexity: O(n × rounds) in the size of `documents`; a round per link of a token chain.
  package mutating func learnTokens(fromDocuments documents: [UInt8]) {
    while true {
      let before = tokens.count
      for (_, line) in Self.objects(in: documents, lines: Self.candidateLines(in: documents, needles: needles))
      where replaced(line) != line {
        if let token = line["token"]?.stringValue { addToken(token) }
        for value in Self.tokenValues(in: line, underTokenKey: false) { addToken(value) }
      }
      if tokens.count == before { return }
    }
  }

  /// Learns the new values of erased lines' ids and transactions, once every token is known.
  package mutating func finishLearning(fromLog log: [UInt8]) {
    let finder = fragmentFinder
    for (_, object) in Self.objects(in: log, lines: Self.candidateLines(in: log, needles: needles)) {
      learnIDs(of: object, finder: finder)
    }
  }

  /// `bytes` rewritten line by line: log lines field by field (`rewritten`), store documents
  /// (`documents`) wherever a string equals an erased subject or token; `dropping` says which
  /// parsed lines go whole (kept documents of an erased token).
  /// - Complexity: O(n × needles) in the size of `bytes`, plus the parse of the candidate lines.
  package func rewrite(_ bytes: [UInt8], documents: Bool = false, dropping: (JSONValue) -> Bool = { _ in false }) -> Rewritten {
    let change: (JSONValue) -> JSONValue? = { object in
      guard documents else { return rewritten(object) }
      let new = replaced(object)
      return new == object ? nil : new
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var result = Rewritten(bytes: [], changedLines: 0, erasedLines: 0, firstChange: nil)
    var copied = 0
    for (range, object) in Self.objects(in: bytes, lines: Self.candidateLines(in: bytes, needles: needles)) {
      let drop = dropping(object)
      let new = drop ? nil : change(object)
      guard drop || new != nil else { continue }
      if isErased(object) { result.erasedLines += 1 }
      result.changedLines += 1
      if result.firstChange == nil { result.firstChange = range.lowerBound }
      out.append(contentsOf: bytes[copied..<range.lowerBound])
      // The line's newline goes with it when it is dropped.
      copied = drop ? min(bytes.count, range.upperBound + 1) : range.upperBound
      if let new { out.append(contentsOf: JSONWriter.compact(new).utf8) }
    }
    out.append(contentsOf: bytes[copied...])
    result.bytes = out
    return result
  }
}
