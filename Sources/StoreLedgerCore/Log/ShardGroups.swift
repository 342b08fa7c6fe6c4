/// Which subjects `transfer` lines join into groups (contract v1.3, section 9), so that
/// everything that partitions a log by subject (`--shard i/n`, `split`) keeps a group together:
/// a subject of a group is placed by the hash of its group's least subject id (in UTF-8 order),
/// every other subject by its own, exactly as before (Docs/scale-out.md, "Transfers").
///
/// Found by a first pass over the file that parses only lines holding the bytes `"transfer"`;
/// a log read from stdin cannot be read twice, so there a transfer line is refused instead.
package struct ShardGroups: Sendable, Equatable {
  /// Each grouped subject's group key (its group's least subject id); empty without transfers.
  private var keys: [String: String] = [:]
  /// Whether the groups could not be found (the log is a stream): a transfer line is an error.
  package private(set) var isUnknown = false

  /// No transfers.
  package init() {}

  /// The groups of a stream, which cannot be read twice.
  package static let unknown: ShardGroups = {
    var groups = ShardGroups()
    groups.isUnknown = true
    return groups
  }()

  /// Calls `body` with the bytes a subject is placed by: its group key, or itself.
  @inline(__always)
  package func placing<R>(_ subject: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    guard !keys.isEmpty, var key = keys[String(decoding: subject, as: UTF8.self)] else { return body(subject) }
    return key.withUTF8(body)
  }

  /// The groups of the log file at `path`, from its transfer lines (a malformed one is left to
  /// the read that follows, which reports it with its line).
  /// - Complexity: O(file bytes) for the scan, plus the transfer lines' parsing.
  package static func scan(path: String) throws(Diagnostic) -> ShardGroups {
    let file = try PlatformFile(path: path, mode: .read)
    let size = try file.size()
    let needle = Array(#""transfer""#.utf8)
    var parent: [String: String] = [:]
    func find(_ x: String) -> String {
      var x = x
      while let p = parent[x], p != x { x = p }
      return x
    }
    var offset: Int64 = 0
    var carry: [UInt8] = []
    while offset < size {
      let block = try file.readBytes(count: Int(min(Int64(1 << 23), size - offset)), at: offset)
      offset += Int64(block.count)
      carry += block
      guard let lastNewline = carry.lastIndex(of: 10) else { continue }
      for line in carry[..<lastNewline].split(separator: 10) where Self.contains(line, needle) {
        guard let value = try? JSONValue.parse(String(decoding: line, as: UTF8.self)),
          value["type"]?.stringValue == "transfer", let from = value["subject"]?.stringValue,
          let to = value["to"]?.stringValue
        else { continue }
        for name in [from, to] where parent[name] == nil { parent[name] = name }
        let (a, b) = (find(from), find(to))
        if a != b { a.utf8.lexicographicallyPrecedes(b.utf8) ? (parent[b] = a) : (parent[a] = b) }
      }
      carry.removeSubrange(...lastNewline)
    }
    var groups = ShardGroups()
    for name in parent.keys { groups.keys[name] = find(name) }
    return groups
  }

  /// Whether `line` holds `needle`.
  static func contains<Line: Collection<UInt8>>(_ line: Line, _ needle: [UInt8]) -> Bool where Line.SubSequence: Collection<UInt8>, Line.Index == Int {
    guard line.count >= needle.count else { return false }
    var start = line.startIndex
    while let first = line[start...].firstIndex(of: needle[0]), first + needle.count <= line.endIndex {
      if line[first..<(first + needle.count)].elementsEqual(needle) { return true }
      start = first + 1
    }
    return false
  }
}
