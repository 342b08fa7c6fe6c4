/// One shard of a log partitioned by subject: `index` of `count`, numbered from 0.
///
/// Every answer depends on one subject's events (Docs/semantics.md), so a log split by subject
/// gives exact answers shard by shard. The subject of an event belongs to shard
/// `fnv1a64(subject) % count`, where the hash runs over the subject's UTF-8 bytes as decoded from
/// JSON (`"a\u0062"` and `"ab"` are one subject and land together). Docs/scale-out.md gives test
/// vectors and the same function in Python, so other engines can partition the same way.
package struct Shard: Sendable, Equatable, CustomStringConvertible {
  /// The shard's number, `0..<count`.
  package let index: Int
  /// How many shards the log is cut into.
  package let count: Int
  /// The subjects transfers join, placed together (contract v1.3, section 9); empty without transfers.
  package var groups = ShardGroups()

  /// Most shards a log may be cut into (one file per shard for `split`).
  package static let countMax = 4096

  /// A shard; `index` must be in `0..<count` and `count` in `1...countMax`.
  package init(index: Int, of count: Int) {
    precondition(count >= 1 && count <= Self.countMax && index >= 0 && index < count, "shard out of range")
    self.index = index
    self.count = count
  }

  /// `i/n`, as `--shard` takes it.
  package var description: String { "\(index)/\(count)" }

  /// Parses `i/n` (`0 ≤ i < n ≤ countMax`); the error says what was expected.
  package static func parse(_ text: String) -> Result<Shard, ShardSpecError> {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = decimal(parts[0]), let count = decimal(parts[1]) else {
      return .failure(ShardSpecError(text: text, reason: "expected i/n with whole numbers, such as 0/16"))
    }
    guard count >= 1 else { return .failure(ShardSpecError(text: text, reason: "n must be at least 1")) }
    guard count <= countMax else {
      return .failure(ShardSpecError(text: text, reason: "n must be at most \(countMax)"))
    }
    guard index < count else {
      return .failure(ShardSpecError(text: text, reason: "i must be below n (shards are numbered 0..<\(count))"))
    }
    return .success(Shard(index: index, of: count))
  }

  private static func decimal(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ $0 &- 48 < 10 }) else { return nil }
    return Int(text)
  }

  /// FNV-1a, 64 bits: offset basis 0xcbf29ce484222325, prime 0x100000001b3, one byte at a time.
  /// - Complexity: O(bytes).
  @inline(__always)
  package static func fnv1a64(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
  }

  /// The shard (of `count`) a decoded subject belongs to.
  /// - Complexity: O(subject bytes).
  @inline(__always)
  package static func index(ofSubject subject: UnsafeBufferPointer<UInt8>, count: Int) -> Int {
    Int(fnv1a64(subject) % UInt64(count))
  }

  /// The shard of a subject given as a string (tests, tools).
  package static func index(ofSubject subject: String, count: Int) -> Int {
    var copy = subject
    return copy.withUTF8 { index(ofSubject: $0, count: count) }
  }

  /// Whether the decoded subject belongs to this shard.
  @inline(__always)
  package func contains(subject: UnsafeBufferPointer<UInt8>) -> Bool {
    groups.placing(subject) { Self.index(ofSubject: $0, count: count) } == index
  }
}

/// A `--shard` value that is not `i/n` with `0 ≤ i < n ≤ Shard.countMax`.
package struct ShardSpecError: Error, Equatable {
  /// The text given.
  package let text: String
  /// What was expected.
  package let reason: String

  /// The usage message for option `option`.
  package func message(option: String) -> String {
    "Invalid value for '--\(option)': '\(text)': \(reason)."
  }
}

extension PendingEvent {
  /// Whether the parsed line's subject belongs to `shard` (the builder drops other shards' lines
  /// before interning anything: they cost a parse, no memory).
  @inline(__always)
  func belongs(to shard: Shard, buffer: UnsafeBufferPointer<UInt8>, scratch: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = Int(subject.ref.start)
    let end = start + Int(subject.ref.count)
    if subject.ref.inScratch { return shard.contains(subject: UnsafeBufferPointer(rebasing: scratch[start..<end])) }
    let line = Int(lineStart)
    return shard.contains(subject: UnsafeBufferPointer(rebasing: buffer[(line + start)..<(line + end)]))
  }
}

extension Shard {
  /// Refuses (exit 65) a restored snapshot holding a subject of another shard: it was made
  /// without `--shard` or with another one, and its tail would be folded with the wrong subjects.
  /// - Complexity: O(subjects).
  package static func checkRestored(_ ledger: Ledger, shard: Shard, snapshotPath: String) throws(Diagnostic) {
    for raw in 0..<ledger.symbols.subjects.count {
      let symbol = Symbol(rawValue: UInt32(raw))
      guard ledger.symbols.subjects.withBytes(symbol, { shard.contains(subject: $0) }) else {
        let subject = ledger.symbols.subjects.string(symbol)
        throw Diagnostic(
          file: snapshotPath,
          .snapshotMismatch(
            "the snapshot holds subject \(JSONWriter.compact(.string(subject))) of shard \(Shard.index(ofSubject: subject, count: shard.count))/\(shard.count), not of --shard \(shard): restore a shard's snapshot with the --shard it was made with"
          ))
      }
    }
  }
}
