import StoreLedger

/// Rewrites a valid log into the shape production pipelines write, with the same answers.
///
/// The generator writes every line with its keys in one order, timestamps in UTC and no
/// `meta`. Logs from real pipelines differ in ways a reader must not care about but a fast
/// reader can be tuned to miss, so the benchmark measures both shapes (Docs/performance.md):
///
/// - the keys of each line in a random order;
/// - `meta` on one line in `metaOneIn`: an object of mixed values (strings, numbers,
///   booleans, null, an array, a nested object) in place of any `meta` the line had; the
///   other lines carry none (`meta` is opaque: no answer depends on it, Docs/log-format.md);
/// - every top-level timestamp (`at`, `recorded`, `expires`, `grace_expires`, `respond_by`) written with a
///   non-zero UTC offset from `offsetsMinutes`, one per line: the same instant, other digits;
/// - `redeliveryPerMille` of the lines delivered a second time, an exact copy placed 1 to
///   `redeliveryDelayLinesMax` lines later (or at the end), as an at-least-once queue does.
///
/// Offset and `meta` are drawn from the seed and the line's event id, so every delivery of an
/// event the input holds (its redeliveries may add `recorded`) gets the same `meta` and stays
/// the same event. Redeliveries are drawn from a stream seeded by the seed alone. The folded
/// ledger equals the input's: same events, subjects and answers; the duplicates skipped grow
/// by exactly `Stats.redeliveriesAdded`.
///
/// Memory is bounded by the redeliveries waiting to be written (about `redeliveryPerMille` ×
/// `redeliveryDelayLinesMax` / 2000 lines), never by the log.
package struct ProductionShape {
  /// What the rewriting did.
  package struct Stats: Sendable, Equatable {
    /// Lines read (each non-blank line is an event or a redelivery).
    package var linesRead = 0
    /// Lines written: the lines read plus the redeliveries added.
    package var linesWritten = 0
    /// Exact copies added later in the log.
    package var redeliveriesAdded = 0
    /// Lines written with a `meta` object (this shape's, in place of any the line had).
    package var metaWritten = 0
    /// Lines whose own `meta` was left out (they are not among the fifth that carry one).
    package var metaDropped = 0
    /// Timestamps rewritten with an offset.
    package var timestampsRewritten = 0
    /// Bytes written.
    package var bytesWritten = 0
  }

  /// Offsets, in minutes east of UTC, of zones real producers write in (none is zero).
  package static let offsetsMinutes: [Int64] = [120, -300, 330, 60, -480, 540, -180, 345, 600, -420]
  /// Redeliveries added per thousand lines (2%).
  package static let redeliveryPerMille: UInt64 = 20
  /// One line in this many carries `meta` (a fifth).
  package static let metaOneIn: UInt64 = 5
  /// The farthest a redelivery lands after its original, in input lines.
  package static let redeliveryDelayLinesMax: UInt64 = 100_000
  /// The most top-level members a line may have (the format has 19 fields; more is malformed).
  package static let membersMax = 64

  /// The top-level keys whose values are RFC 3339 timestamps (`respond_by`: v1.3's refund
  /// requests; the contract allows an offset on every timestamp).
  private static let timestampKeys: [[UInt8]] = ["at", "recorded", "expires", "grace_expires", "respond_by"].map {
    Array("\"\($0)\"".utf8)
  }
  private static let metaKey = Array("\"meta\"".utf8)
  private static let idKey = Array("\"id\"".utf8)

  private let seed: UInt64
  private var redeliveries: Xoshiro256StarStar
  /// Copies waiting to be written, by the input line after which they are due.
  private var pending: [Int: [[UInt8]]] = [:]
  /// What was done so far.
  package private(set) var stats = Stats()
  /// Member spans of the current line (reused).
  private var members: [(key: Range<Int>, value: Range<Int>)] = []
  private var line: [UInt8] = []

  /// A rewriter; the same seed and input give the same output bytes.
  package init(seed: UInt64) {
    self.seed = seed
    redeliveries = Xoshiro256StarStar(seed: seed ^ 0x7265_6465_6c69_7665)
  }

  /// Rewrites one line (without its `\n`) and appends it, and any redelivery now due, to `out`.
  /// - Complexity: O(line length).
  package mutating func rewrite(line input: UnsafeRawBufferPointer, into out: inout [UInt8]) throws(TopLevelMembers.Malformed) {
    stats.linesRead += 1
    let start = out.count
    if input.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) {
      // A blank line stays as it is (the reader skips it).
      out.append(contentsOf: input)
      out.append(10)
    } else {
      try rewriteObject(input, into: &out)
      let written = Array(out[start...])
      if redeliveries.below(1000) < Self.redeliveryPerMille {
        let due = stats.linesRead + 1 + Int(redeliveries.below(Self.redeliveryDelayLinesMax))
        pending[due, default: []].append(written)
      }
    }
    stats.linesWritten += 1
    if let due = pending.removeValue(forKey: stats.linesRead) {
      for copy in due {
        out.append(contentsOf: copy)
        stats.linesWritten += 1
        stats.redeliveriesAdded += 1
      }
    }
    stats.bytesWritten += out.count - start
  }

  /// Appends the redeliveries still waiting (their originals were near the end), in due order.
  /// - Complexity: O(p log p) for p waiting copies.
  package mutating func finish(into out: inout [UInt8]) {
    let start = out.count
    for due in pending.keys.sorted() {
      for copy in pending[due]! {
        out.append(contentsOf: copy)
        stats.linesWritten += 1
        stats.redeliveriesAdded += 1
      }
    }
    pending.removeAll()
    stats.bytesWritten += out.count - start
  }

  private mutating func rewriteObject(_ input: UnsafeRawBufferPointer, into out: inout [UInt8]) throws(TopLevelMembers.Malformed) {
    members.removeAll(keepingCapacity: true)
    try TopLevelMembers.scan(input, line: stats.linesRead) { key, value throws(TopLevelMembers.Malformed) in
      guard members.count < Self.membersMax else {
        throw TopLevelMembers.Malformed(line: stats.linesRead, expected: "at most \(Self.membersMax) fields", column: key.lowerBound)
      }
      members.append((key, value))
    }
    // Decisions are drawn from the event id, so every delivery of an event (its redeliveries
    // may differ in `recorded`) gets the same `meta`: it stays the same event.
    let idMember = members.first { Self.equals(input[$0.key], Self.idKey) }
    let identity = UnsafeRawBufferPointer(rebasing: input[idMember?.value ?? 0..<input.count])
    var random = Xoshiro256StarStar(seed: seed ^ SymbolTable.hash(identity.assumingMemoryBound(to: UInt8.self)))
    let offset = Self.offsetsMinutes[Int(random.below(UInt64(Self.offsetsMinutes.count)))]
    let carriesMeta = random.below(Self.metaOneIn) == 0
    // Drawn before the shuffle, whose draws depend on the number of members.
    var meta: [UInt8] = []
    if carriesMeta { Self.appendMeta(&random, to: &meta) }
    var kept = members.indices.filter { !Self.equals(input[members[$0].key], Self.metaKey) }
    if kept.count < members.count { stats.metaDropped += 1 }
    if carriesMeta { kept.append(members.count) }
    // Fisher–Yates over the members kept, plus the slot of the `meta` written.
    for i in stride(from: kept.count - 1, to: 0, by: -1) {
      kept.swapAt(i, Int(random.below(UInt64(i + 1))))
    }
    out.append(123)  // '{'
    for (position, index) in kept.enumerated() {
      if position > 0 { out.append(44) }  // ','
      guard index < members.count else {
        out.append(contentsOf: Self.metaKey)
        out.append(58)
        out.append(contentsOf: meta)
        stats.metaWritten += 1
        continue
      }
      let (key, value) = members[index]
      out.append(contentsOf: input[key])
      out.append(58)  // ':'
      if Self.timestampKeys.contains(where: { Self.equals(input[key], $0) }),
        let rewritten = Self.withOffset(input[value], minutes: offset)
      {
        out.append(contentsOf: rewritten)
        stats.timestampsRewritten += 1
      } else {
        out.append(contentsOf: input[value])
      }
    }
    out.append(125)  // '}'
    out.append(10)
  }

  private static func equals(_ bytes: Slice<UnsafeRawBufferPointer>, _ name: [UInt8]) -> Bool {
    bytes.elementsEqual(name)
  }

  /// `"2026-03-01T12:00:00Z"` as `"2026-03-01T17:30:00+05:30"`: nil for a value that is not a
  /// timestamp string, or whose local time would leave the four-digit years.
  static func withOffset(_ value: Slice<UnsafeRawBufferPointer>, minutes: Int64) -> [UInt8]? {
    guard value.count >= 22, value.first == 34, value.last == 34 else { return nil }
    let text = UnsafeRawBufferPointer(rebasing: value.dropFirst().dropLast())
    guard let instant = Timestamp.parseRFC3339(text.assumingMemoryBound(to: UInt8.self)) else { return nil }
    let local = Timestamp(millisecondsSinceEpoch: instant.millisecondsSinceEpoch + minutes * 60_000)
    guard local.millisecondsSinceEpoch >= Timestamp.earliestMilliseconds,
      local.millisecondsSinceEpoch <= Timestamp.latestMilliseconds
    else { return nil }
    var bytes: [UInt8] = [34]
    local.appendRFC3339(to: &bytes)
    bytes.removeLast()  // 'Z'
    let magnitude = abs(minutes)
    bytes.append(minutes < 0 ? 45 : 43)
    for digit in [magnitude / 600, magnitude / 60 % 10, 58, magnitude % 60 / 10, magnitude % 10] {
      bytes.append(digit == 58 ? 58 : UInt8(48 + digit))
    }
    bytes.append(34)
    return bytes
  }

  /// A `meta` object as webhook relays attach: ids, a nested object, an array, mixed scalars.
  private static func appendMeta(_ random: inout Xoshiro256StarStar, to out: inout [UInt8]) {
    let sources = ["app_store_notification", "play_rtdn", "reconciliation", "client_receipt"]
    let countries = ["US", "DE", "IN", "BR", "JP", "FR"]
    var text = #"{"source":""# + sources[Int(random.below(UInt64(sources.count)))] + #"","#
    text += #""delivery_id":"\#(String(random.next(), radix: 16))","#
    text += #""attempt":\#(1 + random.below(3)),"#
    switch random.below(3) {
    case 0:
      text += #""request":{"country":"\#(countries[Int(random.below(6))])","sdk":"4.\#(random.below(9)).\#(random.below(20))"},"#
      text += #""sampled":\#(random.below(2) == 0),"ratio":0.\#(1 + random.below(99))"#
    case 1:
      text += #""tags":["webhook","v2",\#(random.below(1000))],"note":null"#
    default:
      text += #""latency_ms":\#(random.below(5000)),"signed":true"#
    }
    text += "}"
    out.append(contentsOf: text.utf8)
  }
}

/// The top-level members of one JSON object line, as byte ranges, without decoding anything.
package enum TopLevelMembers {
  /// A line that is not a flat JSON object as Docs/log-format.md requires.
  package struct Malformed: Error, CustomStringConvertible, Equatable {
    /// The 1-based line number in the input.
    package var line: Int
    /// What was expected where the line went wrong.
    package var expected: String
    /// The byte offset in the line where it went wrong.
    package var column: Int

    /// "line 12, byte 40: expected ':' after a key".
    package var description: String { "line \(line), byte \(column + 1): expected \(expected)" }
  }

  /// Calls `member` with the range of each key (quotes included) and of its value; throws at
  /// the first byte that cannot continue a JSON object (nested values are skipped by bracket
  /// depth, strings by their escapes; their contents are not checked).
  /// - Complexity: O(line length).
  package static func scan(
    _ bytes: UnsafeRawBufferPointer, line: Int,
    _ member: (_ key: Range<Int>, _ value: Range<Int>) throws(TopLevelMembers.Malformed) -> Void
  ) throws(TopLevelMembers.Malformed) {
    var i = 0
    let n = bytes.count
    func malformed(_ expected: String) -> Malformed { Malformed(line: line, expected: expected, column: i) }
    func skipSpace() {
      while i < n, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 13 { i += 1 }
    }
    /// After the closing '}': only blanks may follow.
    func end() throws(TopLevelMembers.Malformed) {
      i += 1
      skipSpace()
      guard i == n else { throw malformed("the end of the line after '}'") }
    }
    skipSpace()
    guard i < n, bytes[i] == 123 else { throw malformed("'{' at the start of the line") }
    i += 1
    skipSpace()
    if i < n, bytes[i] == 125 { return try end() }
    while true {
      skipSpace()
      guard i < n, bytes[i] == 34, let keyEnd = stringEnd(bytes, i) else { throw malformed("a quoted key") }
      let key = i..<keyEnd
      i = keyEnd
      skipSpace()
      guard i < n, bytes[i] == 58 else { throw malformed("':' after a key") }
      i += 1
      skipSpace()
      let valueStart = i
      guard i < n else { throw malformed("a value") }
      i = try valueEnd(bytes, from: i, line: line)
      try member(key, valueStart..<i)
      skipSpace()
      guard i < n else { throw malformed("',' or '}'") }
      if bytes[i] == 44 {
        i += 1
        continue
      }
      guard bytes[i] == 125 else { throw malformed("',' or '}'") }
      return try end()
    }
  }

  /// The end of the string starting at `from` (after its closing quote), or nil.
  private static func stringEnd(_ bytes: UnsafeRawBufferPointer, _ from: Int) -> Int? {
    var k = from + 1
    while k < bytes.count {
      if bytes[k] == 92 {
        k += 2
      } else if bytes[k] == 34 {
        return k + 1
      } else {
        k += 1
      }
    }
    return nil
  }

  /// The end of the value starting at `from` (a string, a nested object or array skipped by
  /// depth, or a bare literal).
  private static func valueEnd(
    _ bytes: UnsafeRawBufferPointer, from valueStart: Int, line: Int
  ) throws(TopLevelMembers.Malformed) -> Int {
    var i = valueStart
    let n = bytes.count
    func malformed(_ expected: String) -> Malformed { Malformed(line: line, expected: expected, column: i) }
    switch bytes[i] {
    case 34:
      guard let end = stringEnd(bytes, i) else { throw malformed("the end of a string") }
      return end
    case 123, 91:
      var depth = 0
      repeat {
        switch bytes[i] {
        case 34:
          guard let end = stringEnd(bytes, i) else { throw malformed("the end of a string") }
          i = end
          continue
        case 123, 91: depth += 1
        case 125, 93: depth -= 1
        default: break
        }
        i += 1
      } while depth > 0 && i < n
      guard depth == 0 else { throw malformed("the end of a nested value") }
      return i
    default:
      while i < n, bytes[i] != 44, bytes[i] != 125, bytes[i] != 32, bytes[i] != 9, bytes[i] != 13 { i += 1 }
      guard i > valueStart else { throw malformed("a value") }
      return i
    }
  }
}
