#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import StoreLedger
import StoreLedgerGenerate

private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, bytes, count)
}

/// A file written with plain POSIX calls (the bench's own output files).
final class OutputFile {
  private let fd: Int32
  let path: String

  init(path: String) throws {
    self.path = path
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw BenchError("cannot create \(path): \(String(cString: strerror(errno)))") }
  }

  deinit { close(fd) }

  func write(_ bytes: UnsafeRawBufferPointer) throws {
    var offset = 0
    while offset < bytes.count {
      let n = systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        throw BenchError("cannot write \(path): \(String(cString: strerror(errno)))")
      }
      offset += n
    }
  }

  func write(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try write($0) }
  }
}

/// Reads a file in 1 MiB chunks.
func forEachChunk(ofFile path: String, _ body: (UnsafeRawBufferPointer) throws -> Bool) throws {
  let fd = open(path, O_RDONLY)
  guard fd >= 0 else { throw BenchError("cannot open \(path): \(String(cString: strerror(errno)))") }
  defer { close(fd) }
  let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
  defer { buffer.deallocate() }
  while true {
    let n = read(fd, buffer.baseAddress!, buffer.count)
    if n < 0 {
      if errno == EINTR { continue }
      throw BenchError("cannot read \(path): \(String(cString: strerror(errno)))")
    }
    if n == 0 { return }
    if try !body(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { return }
  }
}

/// Size of a file in bytes, or nil when it does not exist.
func fileSize(_ path: String) -> Int? {
  var info = stat()
  return stat(path, &info) == 0 ? Int(info.st_size) : nil
}

/// Newlines in a file.
func countLines(ofFile path: String) throws -> Int {
  var count = 0
  try forEachChunk(ofFile: path) { chunk in
    for byte in chunk where byte == 10 { count += 1 }
    return true
  }
  return count
}

/// A log the bench measures (generated, given or production-shaped): where it is and what is in it.
struct LogUnderTest {
  var logPath: String
  var catalogPath: String
  /// Lines that are events or redeliveries (`events read`); for a given log, known after its first replay.
  var lines: Int
  var events: Int
  var duplicates: Int
  var subjects: Int
  var bytes: Int
  /// Generation time, or nil when an earlier log with the same parameters was reused.
  var seconds: Double?
  /// The shape's name in the tables: "generator", "given" or "production".
  var shape = "generator"

  /// A log given with `--log`: its counts are filled in from its first replay.
  static func given(path: String, catalog: String?) throws -> LogUnderTest {
    let logPath = URL(fileURLWithPath: path).standardizedFileURL.path
    guard let bytes = fileSize(logPath) else { throw BenchError("no log at \(path)") }
    let catalogPath = catalog.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
      ?? LedgerLoader.defaultCatalogPath(forLog: logPath)
    guard fileSize(catalogPath) != nil else {
      throw BenchError("no catalog at \(catalogPath): pass --catalog PATH")
    }
    return LogUnderTest(
      logPath: logPath, catalogPath: catalogPath, lines: -1, events: -1, duplicates: -1, subjects: -1,
      bytes: bytes, seconds: nil, shape: "given")
  }

  /// Writes `log.jsonl` and `catalog.json` into `dir`, or reuses them when `bench-log.txt`
  /// says they were generated with the same parameters and the sizes still match.
  static func prepare(
    in dir: String, subjects: Int, seed: UInt64, usage: UsageLevel, contract: GeneratedContract = .v1_2,
    transfers: Bool = false
  ) throws -> LogUnderTest {
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let logPath = dir + "/log.jsonl"
    let catalogPath = dir + "/catalog.json"
    let markerPath = dir + "/bench-log.txt"
    let catalogBytes = Array(LogGenerator.catalogJSON(for: usage).utf8)
    if let marker = try? String(contentsOfFile: markerPath, encoding: .utf8),
      marker.contains("usage=\(usage.rawValue) "),
      // Markers written before the v1.3 mode name no contract: theirs is 1.2.
      marker.contains("contract=1.3 ") == (contract == .v1_3),
      // Markers written before transfers were measured name none: their logs have none.
      marker.contains("transfers=true ") == transfers
    {
      var fields: [String: Int] = [:]
      for pair in marker.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
        let parts = pair.split(separator: "=")
        if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
      }
      if fields["subjects"] == subjects, fields["seed"].map({ UInt64($0) }) == seed,
        let bytes = fields["bytes"], fileSize(logPath) == bytes,
        let catalog = FileManager.default.contents(atPath: catalogPath), Array(catalog) == catalogBytes,
        let lines = fields["lines"], let events = fields["events"], let duplicates = fields["duplicates"],
        let subjectCount = fields["subject_count"]
      {
        return LogUnderTest(
          logPath: logPath, catalogPath: catalogPath, lines: lines, events: events, duplicates: duplicates,
          subjects: subjectCount, bytes: bytes, seconds: nil)
      }
    }
    try? FileManager.default.removeItem(atPath: markerPath)
    try OutputFile(path: catalogPath).write(catalogBytes)
    let out = try OutputFile(path: logPath)
    let generator = LogGenerator(options: GeneratorOptions(
        subjects: subjects, seed: seed, usage: usage, contract: contract, transfers: transfers))
    let (stats, seconds) = try timed { try generator.generate { chunk in try out.write(chunk) } }
    let log = LogUnderTest(
      logPath: logPath, catalogPath: catalogPath, lines: stats.lines, events: stats.events,
      duplicates: stats.duplicates, subjects: stats.subjects, bytes: stats.bytes, seconds: seconds)
    let marker =
      "subjects=\(subjects) seed=\(seed) usage=\(usage.rawValue) contract=\(contract.rawValue) transfers=\(transfers) lines=\(log.lines) events=\(log.events) "
      + "duplicates=\(log.duplicates) subject_count=\(log.subjects) bytes=\(log.bytes)\n"
    try OutputFile(path: markerPath).write(Array(marker.utf8))
    return log
  }

  /// Copies the first `lines` lines of the log to `path`; returns the bytes copied.
  func writePrefix(lines target: Int, to path: String) throws -> Int {
    let out = try OutputFile(path: path)
    var lines = 0
    var bytes = 0
    try forEachChunk(ofFile: logPath) { chunk in
      var end = chunk.count
      var done = false
      for (index, byte) in chunk.enumerated() where byte == 10 {
        lines += 1
        if lines == target {
          end = index + 1
          done = true
          break
        }
      }
      try out.write(UnsafeRawBufferPointer(rebasing: chunk[0..<end]))
      bytes += end
      return !done
    }
    return bytes
  }
}

/// splitmix64: a small deterministic generator for the query file.
struct SplitMix64 {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    return SymbolTable.mix(state &- 0x9e37_79b9_7f4a_7c15)
  }
  mutating func below(_ bound: UInt64) -> UInt64 { next() % bound }
}

/// The `audit` query file: random subjects of the log and some unknown ones, random `at`
/// and `as_of` within the log's span.
enum QueryFile {
  struct Mix {
    var known = 0
    var unknown = 0
    var withAsOf = 0
  }

  /// Writes `count` query lines; 2% name unknown subjects, 75% have an `as_of`; `at` and
  /// `as_of` are uniform in `first...last`.
  static func write(
    count: Int, seed: UInt64, subjects: [[UInt8]], from first: Timestamp, to last: Timestamp, path: String
  ) throws -> (bytes: Int, mix: Mix) {
    var random = SplitMix64(state: seed ^ 0x7175_6572_6965_73)
    let span = UInt64(max(1, last.millisecondsSinceEpoch - first.millisecondsSinceEpoch))
    let first = first.millisecondsSinceEpoch
    let out = try OutputFile(path: path)
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 20 + 512)
    var bytes = 0
    var mix = Mix()
    for _ in 0..<count {
      buffer.append(contentsOf: #"{"subject":""#.utf8)
      if subjects.isEmpty || random.below(50) == 0 {
        buffer.append(contentsOf: "u_unknown_\(random.below(1_000_000))".utf8)
        mix.unknown += 1
      } else {
        buffer.append(contentsOf: subjects[Int(random.below(UInt64(subjects.count)))])
        mix.known += 1
      }
      buffer.append(contentsOf: #"","at":""#.utf8)
      Timestamp(millisecondsSinceEpoch: first + Int64(random.below(span))).appendRFC3339(to: &buffer)
      buffer.append(contentsOf: #"","as_of":"#.utf8)
      if random.below(4) == 0 {
        buffer.append(contentsOf: "null".utf8)
      } else {
        buffer.append(34)
        Timestamp(millisecondsSinceEpoch: first + Int64(random.below(span))).appendRFC3339(to: &buffer)
        buffer.append(34)
        mix.withAsOf += 1
      }
      buffer.append(contentsOf: "}\n".utf8)
      if buffer.count >= 1 << 20 {
        try out.write(buffer)
        bytes += buffer.count
        buffer.removeAll(keepingCapacity: true)
      }
    }
    try out.write(buffer)
    bytes += buffer.count
    return (bytes, mix)
  }
}

extension LogUnderTest {
  /// Every subject of the log in order of first appearance and the earliest `at`, read from
  /// each line's top-level members (any key order, any `meta`), so the bench needs no ledger
  /// of its own before the child processes have been measured. Lines that do not scan are
  /// skipped: replay has already checked the log.
  func subjectsAndFirstAt() throws -> (subjects: [[UInt8]], firstAt: Timestamp?) {
    let subjectKey = Array(#""subject""#.utf8)
    let atKey = Array(#""at""#.utf8)
    var seen = Set<[UInt8]>()
    var names: [[UInt8]] = []
    var firstAt: Timestamp? = nil
    var number = 0
    func scan(_ line: UnsafeRawBufferPointer) {
      number += 1
      try? TopLevelMembers.scan(line, line: number) { key, value in
        guard value.count >= 2, line[value.lowerBound] == 34 else { return }
        let inner = UnsafeRawBufferPointer(rebasing: line[(value.lowerBound + 1)..<(value.upperBound - 1)])
        if line[key].elementsEqual(subjectKey) {
          let name = Array(inner)
          if seen.insert(name).inserted { names.append(name) }
        } else if line[key].elementsEqual(atKey),
          let at = Timestamp.parseRFC3339(inner.assumingMemoryBound(to: UInt8.self))
        {
          if firstAt.map({ at < $0 }) ?? true { firstAt = at }
        }
      }
    }
    try forEachLine(ofFile: logPath) { scan($0) }
    return (names, firstAt)
  }

  /// Writes the production-shaped copy of this log (`ProductionShape`) to `path`.
  func writeProductionShape(to path: String, seed: UInt64) throws -> (log: LogUnderTest, stats: ProductionShape.Stats) {
    let out = try OutputFile(path: path)
    var shape = ProductionShape(seed: seed)
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 20 + (1 << 16))
    let torn = try forEachLine(ofFile: logPath) { line in
      do {
        try shape.rewrite(line: line, into: &buffer)
      } catch {
        throw BenchError("\(logPath): \(error)")
      }
      if buffer.count >= 1 << 20 {
        try out.write(buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
    shape.finish(into: &buffer)
    // A torn last line stays torn, and last.
    buffer.append(contentsOf: torn)
    try out.write(buffer)
    let stats = shape.stats
    var log = self
    log.logPath = path
    log.bytes = fileSize(path) ?? 0
    log.lines = lines < 0 ? -1 : lines + stats.redeliveriesAdded
    log.duplicates = duplicates < 0 ? -1 : duplicates + stats.redeliveriesAdded
    log.seconds = nil
    log.shape = "production"
    return (log, stats)
  }
}

/// The longest line `forEachLine` carries across reads (the reader's own limit is far lower).
let lineBytesMax = 64 << 20

/// Calls `body` with each line of a file (without its newline); returns the bytes after the
/// last newline (a torn last line).
@discardableResult
func forEachLine(ofFile path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> [UInt8] {
  var carry: [UInt8] = []
  try forEachChunk(ofFile: path) { chunk in
    guard carry.count <= lineBytesMax else {
      throw BenchError("\(path): a line longer than \(lineBytesMax) bytes")
    }
    var start = 0
    while let newline = chunk[start...].firstIndex(of: 10) {
      if carry.isEmpty {
        try body(UnsafeRawBufferPointer(rebasing: chunk[start..<newline]))
      } else {
        carry.append(contentsOf: chunk[start..<newline])
        try carry.withUnsafeBytes { try body($0) }
        carry.removeAll(keepingCapacity: true)
      }
      start = newline + 1
    }
    carry.append(contentsOf: chunk[start...])
    return true
  }
  return carry
}
