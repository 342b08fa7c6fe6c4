/// Cuts a log into shard files by subject (`storeledger split`), reading it once.
///
/// Only each line's `subject` is read (the first top-level `subject` member, decoded from JSON);
/// the line is copied unchanged to its shard's file, so every shard keeps log order. The rest of
/// the line is checked later, when a shard is folded. Files are written as temporaries and
/// renamed over their names only when every line went well (`PendingFile`): an error leaves
/// no shard file.
package struct LogSplitter {
  /// What went where.
  package struct Summary: Sendable, Equatable {
    /// Lines written per shard.
    package var lines: [Int]
    /// Bytes written per shard (newlines included).
    package var bytes: [Int64]
    /// Empty lines left out (the engine ignores them).
    package var emptyLines = 0
    /// Bytes of a last line without `\n` (a torn write, left out as the engine leaves it out).
    package var tornBytes: Int64 = 0
  }

  /// Bytes read per block.
  static let blockBytes = 1 << 20
  /// Write buffer bytes of all shards together (each gets its share, at least `bufferBytesMin`).
  static let bufferBytesTotal = 64 << 20
  /// The smallest write buffer of one shard.
  static let bufferBytesMin = 16 << 10

  /// The name of shard `index` of `count` in a directory: `shard-03-of-16.jsonl` (zero-padded,
  /// so a glob lists shards in order).
  package static func fileName(index: Int, count: Int) -> String {
    let width = max(2, String(count).count)
    func padded(_ value: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: width - text.count) + text
    }
    return "shard-\(padded(index))-of-\(padded(count)).jsonl"
  }

  /// Splits the lines `read` delivers (0 at the end) into `count` files in `directory`.
  ///
  /// Refuses existing shard files unless `force`. `name` is used in diagnostics.
  /// - Complexity: O(input); memory one block plus `bufferBytesTotal` (at most `count` × `bufferBytesMin`).
  package static func split(
    name: String, count: Int, directory: String, force: Bool, inUse: [String], groups: ShardGroups = ShardGroups(),
    read: (UnsafeMutableRawBufferPointer) throws(Diagnostic) -> Int
  ) throws(Diagnostic) -> Summary {
    precondition(count >= 1 && count <= Shard.countMax, "shard count out of range")
    let paths = (0..<count).map { directory + "/" + fileName(index: $0, count: count) }
    for path in paths { try PendingFile.checkTarget(path, force: force, inUse: inUse) }
    let files = try paths.map { (path) throws(Diagnostic) in try PendingFile(replacing: path, force: force, inUse: inUse) }
    var router = ShardRouter(name: name, files: files, bufferBytes: max(bufferBytesMin, bufferBytesTotal / count))
    router.groups = groups
    var carry: [UInt8] = []
    var lineNumber = 1
    let block = UnsafeMutableRawBufferPointer.allocate(byteCount: blockBytes, alignment: 64)
    defer { block.deallocate() }
    let blockLines = UnsafeBufferPointer(block.bindMemory(to: UInt8.self))
    while true {
      let n = try read(block)
      if n == 0 { break }
      var start = 0
      // A line begun in an earlier block: finish it first.
      if !carry.isEmpty {
        let newline = ByteScan.first(10, in: blockLines, from: 0, end: n)
        guard newline < n else {
          carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: block[0..<n]))
          guard carry.count <= Limits.lineBytesMax else {
            throw Diagnostic(file: name, line: lineNumber, .lineTooLong(bytes: carry.count, limit: Limits.lineBytesMax))
          }
          continue
        }
        carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: block[0..<newline]))
        try carry.withUnsafeBufferPointer { (line) throws(Diagnostic) in
          try router.route(line, lineNumber: lineNumber)
        }
        carry.removeAll(keepingCapacity: true)
        lineNumber += 1
        start = newline + 1
      }
      while case let newline = ByteScan.first(10, in: blockLines, from: start, end: n), newline < n {
        try router.route(UnsafeBufferPointer(rebasing: blockLines[start..<newline]), lineNumber: lineNumber)
        lineNumber += 1
        start = newline + 1
      }
      carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: block[start..<n]))
      guard carry.count <= Limits.lineBytesMax else {
        throw Diagnostic(file: name, line: lineNumber, .lineTooLong(bytes: carry.count, limit: Limits.lineBytesMax))
      }
    }
    if !carry.isEmpty, carry.withUnsafeBufferPointer({ LogReader.isCompleteLine($0) }) {
      // A last line saved without its newline is a line like any other; its shard gets the newline.
      try carry.withUnsafeBufferPointer { (line) throws(Diagnostic) in try router.route(line, lineNumber: lineNumber) }
      carry.removeAll()
    }
    router.summary.tornBytes = Int64(carry.count)
    return try router.commit()
  }

  /// Each shard's file and write buffer, and what went where so far.
  private struct ShardRouter {
    let name: String
    let files: [PendingFile]
    let bufferBytes: Int
    var buffers: [[UInt8]]
    var summary: Summary
    var scratch: [UInt8] = []
    /// Subjects joined by transfers, placed together (`ShardGroups`).
    var groups = ShardGroups()

    init(name: String, files: [PendingFile], bufferBytes: Int) {
      self.name = name
      self.files = files
      self.bufferBytes = bufferBytes
      buffers = [[UInt8]](repeating: [], count: files.count)
      for index in buffers.indices { buffers[index].reserveCapacity(bufferBytes + Limits.lineBytesMax + 1) }
      summary = Summary(lines: Array(repeating: 0, count: files.count), bytes: Array(repeating: 0, count: files.count))
    }

    /// Appends `line` to its subject's shard (an empty line is counted and left out).
    mutating func route(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int) throws(Diagnostic) {
      guard line.contains(where: { $0 != 32 && $0 != 9 && $0 != 13 }) else {
        summary.emptyLines += 1
        return
      }
      let count = files.count
      let shard: Int
      if groups.isUnknown, ShardGroups.contains(line, ShardRouter.transferNeedle),
        (try? JSONValue.parse(String(decoding: line, as: UTF8.self)))?["type"]?.stringValue == "transfer"
      {
        throw Diagnostic(file: name, line: lineNumber, LedgerBuilder.transferFromStream)
      }
      let groups = groups
      switch SubjectScan.subject(of: line, scratch: &scratch, { subject in
        groups.placing(subject) { Shard.index(ofSubject: $0, count: count) }
      }) {
      case .success(let index): shard = index
      case .failure(let problem): throw Diagnostic(file: name, line: lineNumber, problem.problem)
      }
      buffers[shard].append(contentsOf: line)
      buffers[shard].append(10)
      summary.lines[shard] += 1
      summary.bytes[shard] += Int64(line.count + 1)
      if buffers[shard].count >= bufferBytes { try flush(shard) }
    }

    static let transferNeedle = Array(#""transfer""#.utf8)

    /// Writes what shard `shard`'s buffer holds.
    mutating func flush(_ shard: Int) throws(Diagnostic) {
      guard !buffers[shard].isEmpty else { return }
      try files[shard].file.write(buffers[shard])
      buffers[shard].removeAll(keepingCapacity: true)
    }

    /// Writes every buffer, then renames every file over its name.
    mutating func commit() throws(Diagnostic) -> Summary {
      for index in 0..<files.count { try flush(index) }
      for file in files { try file.commit() }
      return summary
    }
  }
}

/// Finds a log line's `subject` without parsing the rest (`split`): the first top-level member
/// named `subject` (names decoded, so `"subj\u0065ct"` counts), whose value must be a non-empty
/// string; members before it are skipped by their structure only.
enum SubjectScan {
  /// Why a line has no subject.
  struct Failure: Error {
    let problem: Problem
  }

  /// Calls `body` with the decoded subject bytes, or says why the line has none.
  /// - Complexity: O(bytes up to the subject's end).
  static func subject<R>(
    of line: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R
  ) -> Result<R, SubjectScan.Failure> {
    let end = line.count
    var i = 0
    func skipSpace() { while i < end, line[i] == 32 || line[i] == 9 || line[i] == 13 { i += 1 } }
    let missing = Problem.invalidValue(field: "subject", expected: "a non-empty string", found: "no subject field")
    skipSpace()
    guard i < end, line[i] == 123 else { return .failure(Failure(problem: .invalidJSON("expected an event object"))) }
    i += 1
    skipSpace()
    if i < end, line[i] == 125 { return .failure(Failure(problem: missing)) }
    while true {
      skipSpace()
      guard i < end, line[i] == 34 else { return .failure(Failure(problem: .invalidJSON("expected a field name in double quotes"))) }
      let isSubject: Bool
      // Most names are plain: compare bytes; a name with escapes is decoded first.
      var k = i + 1
      while k < end, line[k] != 34, line[k] != 92 { k += 1 }
      if k < end, line[k] == 34 {
        isSubject = k - i - 1 == 7 && line[i + 1] == 115 && equalsSubject(line, from: i + 1)
        i = k + 1
      } else {
        scratch.removeAll(keepingCapacity: true)
        switch JSONScan.string(line, from: i + 1, end: end, into: &scratch) {
        case .success(let after): i = after
        case .failure(let failure): return .failure(Failure(problem: .invalidJSON(failure.detail)))
        }
        isSubject = scratch.elementsEqual("subject".utf8)
      }
      skipSpace()
      guard i < end, line[i] == 58 else { return .failure(Failure(problem: .invalidJSON("expected ':'"))) }
      i += 1
      skipSpace()
      if isSubject {
        guard i < end, line[i] == 34 else { return .failure(Failure(problem: wrongSubject(line, from: i))) }
        scratch.removeAll(keepingCapacity: true)
        if case .failure(let failure) = JSONScan.string(line, from: i + 1, end: end, into: &scratch) {
          return .failure(Failure(problem: .invalidJSON(failure.detail)))
        }
        guard !scratch.isEmpty else { return .failure(Failure(problem: wrongSubject(line, from: i))) }
        return .success(scratch.withUnsafeBufferPointer(body))
      }
      guard skipValue(line, &i, depth: 0) else { return .failure(Failure(problem: .invalidJSON("expected a JSON value"))) }
      skipSpace()
      guard i < end else { return .failure(Failure(problem: .invalidJSON("unterminated object"))) }
      if line[i] == 44 {
        i += 1
        continue
      }
      guard line[i] == 125 else { return .failure(Failure(problem: .invalidJSON("expected ',' or '}'"))) }
      return .failure(Failure(problem: missing))
    }
  }

  private static func equalsSubject(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
    Array("subject".utf8).withUnsafeBufferPointer { name in
      (0..<7).allSatisfy { line[start + $0] == name[$0] }
    }
  }

  private static func wrongSubject(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Problem {
    var stop = start
    while stop < line.count, stop - start < 40, line[stop] != 44, line[stop] != 125 { stop += 1 }
    let found = String(decoding: UnsafeBufferPointer(rebasing: line[start..<stop]), as: UTF8.self)
    return .invalidValue(field: "subject", expected: "a non-empty string", found: found.isEmpty ? "nothing" : found)
  }

  /// Moves `i` past one JSON value by its structure (strings by their quotes and escapes);
  /// false when none starts at `i`.
  private static func skipValue(_ line: UnsafeBufferPointer<UInt8>, _ i: inout Int, depth: Int) -> Bool {
    let end = line.count
    guard i < end, depth <= Limits.jsonDepthMax else { return false }
    switch line[i] {
    case 34:
      i += 1
      while i < end {
        if line[i] == 92 {
          i += 2
        } else if line[i] == 34 {
          i += 1
          return true
        } else {
          i += 1
        }
      }
      return false
    case 123, 91:
      let close: UInt8 = line[i] == 123 ? 125 : 93
      i += 1
      while true {
        while i < end, line[i] == 32 || line[i] == 9 || line[i] == 13 || line[i] == 44 || line[i] == 58 { i += 1 }
        guard i < end else { return false }
        if line[i] == close {
          i += 1
          return true
        }
        guard skipValue(line, &i, depth: depth + 1) else { return false }
      }
    default:
      let start = i
      while i < end, line[i] != 44, line[i] != 125, line[i] != 93, line[i] != 32, line[i] != 9, line[i] != 13 { i += 1 }
      return i > start
    }
  }
}
