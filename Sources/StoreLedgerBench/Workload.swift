#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import StoreLedger

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

/// The generated log: where it is and what is in it.
struct GeneratedLog {
  var logPath: String
  var catalogPath: String
  var lines: Int
  var events: Int
  var duplicates: Int
  var subjects: Int
  var bytes: Int
  /// Generation time, or nil when an earlier log with the same parameters was reused.
  var seconds: Double?

  /// Writes `log.jsonl` and `catalog.json` into `dir`, or reuses them when `bench-log.txt`
  /// says they were generated with the same parameters and the sizes still match.
  static func prepare(in dir: String, subjects: Int, seed: UInt64, usage: UsageLevel) throws -> GeneratedLog {
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let logPath = dir + "/log.jsonl"
    let catalogPath = dir + "/catalog.json"
    let markerPath = dir + "/bench-log.txt"
    let catalogBytes = Array(LogGenerator.catalogJSON(for: usage).utf8)
    if let marker = try? String(contentsOfFile: markerPath, encoding: .utf8),
      marker.contains("usage=\(usage.rawValue) ")
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
        return GeneratedLog(
          logPath: logPath, catalogPath: catalogPath, lines: lines, events: events, duplicates: duplicates,
          subjects: subjectCount, bytes: bytes, seconds: nil)
      }
    }
    try? FileManager.default.removeItem(atPath: markerPath)
    try OutputFile(path: catalogPath).write(catalogBytes)
    let out = try OutputFile(path: logPath)
    let generator = LogGenerator(options: GeneratorOptions(subjects: subjects, seed: seed, usage: usage))
    let (stats, seconds) = try timed { try generator.generate { chunk in try out.write(chunk) } }
    let log = GeneratedLog(
      logPath: logPath, catalogPath: catalogPath, lines: stats.lines, events: stats.events,
      duplicates: stats.duplicates, subjects: stats.subjects, bytes: stats.bytes, seconds: seconds)
    let marker =
      "subjects=\(subjects) seed=\(seed) usage=\(usage.rawValue) lines=\(log.lines) events=\(log.events) "
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

extension GeneratedLog {
  /// Every subject of the log in order of first appearance, found by a byte scan for
  /// `"subject":"…"` (what the generator writes), so the bench needs no ledger of its own
  /// before the child processes have been measured.
  func subjectNames() throws -> [[UInt8]] {
    let pattern = Array(#""subject":""#.utf8)
    var seen = Set<[UInt8]>()
    var names: [[UInt8]] = []
    var carry: [UInt8] = []
    func scan(_ line: UnsafeRawBufferPointer) {
      guard line.count > pattern.count else { return }
      var i = 0
      let last = line.count - pattern.count
      while i <= last {
        if line[i] == 34 && line[i + 1] == pattern[1] {
          var k = 0
          while k < pattern.count && line[i + k] == pattern[k] { k += 1 }
          if k == pattern.count {
            let start = i + k
            var end = start
            while end < line.count && line[end] != 34 {
              end += line[end] == 92 ? 2 : 1
            }
            guard end <= line.count else { return }
            let name = Array(line[start..<end])
            if seen.insert(name).inserted { names.append(name) }
            return
          }
        }
        i += 1
      }
    }
    try forEachChunk(ofFile: logPath) { chunk in
      var start = 0
      for index in 0..<chunk.count where chunk[index] == 10 {
        if carry.isEmpty {
          scan(UnsafeRawBufferPointer(rebasing: chunk[start..<index]))
        } else {
          carry.append(contentsOf: chunk[start..<index])
          carry.withUnsafeBytes { scan($0) }
          carry.removeAll(keepingCapacity: true)
        }
        start = index + 1
      }
      carry.append(contentsOf: chunk[start...])
      return true
    }
    return names
  }
}
