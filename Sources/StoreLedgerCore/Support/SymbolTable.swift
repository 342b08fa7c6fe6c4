internal import CStoreLedgerSupport

/// A dense integer standing for an interned string (a subject, id, transaction, currency).
///
/// Symbols are assigned 0, 1, 2, … in first-seen order, so they double as array
/// indices and a log always interns to the same symbols.
package struct Symbol: Hashable, Comparable, Sendable {
  /// The dense index of the string in its table.
  package var rawValue: UInt32

  /// Wraps a dense index.
  @inlinable package init(rawValue: UInt32) { self.rawValue = rawValue }

  /// The marker for "no value" in compact records.
  package static let none = Symbol(rawValue: UInt32.max)

  /// Whether this is a real symbol rather than `none`.
  @inlinable package var isSome: Bool { rawValue != UInt32.max }

  @inlinable package static func < (a: Symbol, b: Symbol) -> Bool { a.rawValue < b.rawValue }
}

/// Interns byte strings so that each distinct string is stored once.
///
/// Open addressing over one byte arena. Each slot holds the symbol and 32 bits of
/// its hash, so a probe touches the arena only on a likely match: interning a new
/// string costs about one cache miss, and nothing is allocated per lookup.
///
/// Strings are placed by the callers' fast, unkeyed `hash` until a probe meets a flood (more than
/// `floodProbeStepsMax` slots, or more than `floodFingerprintMatchesMax` unequal strings with the
/// same fingerprint): strings crafted onto one hash (ids, subjects and snapshot strings are
/// attacker-chosen). The table then places every string by `keyedHash`, keyed per process, for
/// good, so crafted input costs what ordinary input does (Docs/decisions.md, "Hash flooding").
/// Symbols stay in first-seen order either way: no answer depends on the placement.
package struct SymbolTable: Sendable {
  private var arena: [UInt8] = []
  /// Text mode (`spans` empty): the boundaries of the strings in `arena`.
  private var starts: [UInt32] = [0]
  /// Span mode (once a string was interned as a span of a log): per symbol, where its bytes
  /// are (`SymbolSpan`): in the log `source` or in `arena`. `starts` is then unused.
  private var spans: [UInt64] = []
  /// The log that spans point into.
  private var source: (any SpanSource)? = nil
  /// Whether `source` is set: tested per string interned, without touching the existential.
  private var hasSource = false
  /// The bytes of all strings, wherever they are.
  private var totalBytes = 0
  /// Per symbol its full `SymbolTable.hash`, when `keepsHashes` (a partition's ids).
  private var hashes: [UInt64] = []
  private var keepsHashes = false
  /// 0 = empty; otherwise `fingerprint << 32 | (symbol + 1)`.
  private var slots: [UInt64]
  private var mask: Int
  private var used = 0
  /// Whether strings are placed by `keyedHash` rather than the callers' hash (after a flood).
  private var keyed = false

  /// Probe steps past which a probe is a flood. With a random hash at 75% load a probe this long
  /// has a chance near 1e-17; crafted strings reach it after about this many of them.
  package static let floodProbeStepsMax = 1024
  /// Unequal strings with the probed fingerprint past which a probe is a flood (each costs a
  /// comparison, a read of the log for a span); a random hash gives one in 2^32 probe steps.
  package static let floodFingerprintMatchesMax = 4

  /// Creates an empty table with room for `capacity` strings before rehashing.
  package init(capacity: Int = 1024) {
    var size = 16
    while size * 3 < capacity * 4 { size <<= 1 }
    slots = PageAdvice.zeroedWords(count: size)
    mask = size - 1
  }

  /// Builds a table from strings already known to be distinct, in symbol order (snapshot restore).
  ///
  /// `arena` holds the strings back to back and `starts` their `count + 1` boundaries.
  /// Slots are filled with prefetching and no look-ups; returns nil if two strings are equal
  /// (a damaged snapshot), which costs a comparison only when 32 hash bits collide. Strings
  /// crafted onto one hash are placed by `keyedHash` instead, as `intern` does.
  /// - Complexity: O(total bytes).
  package static func distinct(arena: [UInt8], starts: [UInt32]) -> SymbolTable? {
    var table = SymbolTable(capacity: max(16, starts.count - 1))
    table.arena = arena
    table.starts = starts
    table.totalBytes = arena.count
    var filled = table.slots
    switch fillDistinct(&filled, mask: table.mask, arena: arena, starts: starts, keyed: false) {
    case .repeated: return nil
    case .filled: break
    case .flooded:
      filled = PageAdvice.zeroedWords(count: filled.count)
      guard fillDistinct(&filled, mask: table.mask, arena: arena, starts: starts, keyed: true) != .repeated else { return nil }
      table.keyed = true
    }
    table.slots = filled
    table.used = starts.count - 1
    return table
  }

  /// How `fillDistinct` ended.
  private enum DistinctFill { case filled, repeated, flooded }

  /// Places `arena`'s strings in empty `slots` by `hash` (or `keyedHash`). Stops at two equal
  /// strings, or at a flood of unkeyed collisions (the caller refills with `keyed`).
  /// - Complexity: O(total bytes) expected.
  private static func fillDistinct(
    _ filled: inout [UInt64], mask: Int, arena: [UInt8], starts: [UInt32], keyed: Bool
  ) -> DistinctFill {
    let count = starts.count - 1
    // Hashes run `distance` strings ahead of the slots they fill, so each slot is prefetched
    // before it is probed; a ring holds the hashes in flight (no array of every hash).
    let distance = 8
    var ring = [UInt64](repeating: 0, count: distance)
    return arena.withUnsafeBufferPointer { all in
      func hashOf(_ index: Int) -> UInt64 {
        let bytes = UnsafeBufferPointer(rebasing: all[Int(starts[index])..<Int(starts[index + 1])])
        return keyed ? SymbolTable.keyedHash(bytes) : SymbolTable.hash(bytes)
      }
      for index in 0..<min(distance, count) { ring[index] = hashOf(index) }
      return filled.withUnsafeMutableBufferPointer { slots in
        for index in 0..<count {
          let hash = ring[index & (distance - 1)]
          if index + distance < count {
            let ahead = hashOf(index + distance)
            ring[index & (distance - 1)] = ahead
            storeledger_prefetch(slots.baseAddress! + (Int(truncatingIfNeeded: ahead) & mask))
          }
          var slot = Int(truncatingIfNeeded: hash) & mask
          var probe = FloodCount()
          while slots[slot] != 0 {
            if slots[slot] >> 32 == hash >> 32 {
              if equalStrings(arena, starts, Int(slots[slot] & 0xFFFF_FFFF) - 1, index) { return .repeated }
              probe.matches += 1
            }
            probe.steps += 1
            if !keyed && probe.isFlood { return .flooded }
            slot = (slot + 1) & mask
          }
          slots[slot] = (hash >> 32) << 32 | UInt64(index + 1)
        }
        return .filled
      }
    }
  }

  /// `table` indexed, when it holds text only and its strings are distinct (nil otherwise).
  /// - Complexity: O(total bytes).
  package static func distinct(_ table: SymbolTable) -> SymbolTable? {
    guard table.spans.isEmpty && table.source == nil else { return nil }
    return distinct(arena: table.arena, starts: table.starts)
  }

  /// A table of strings known to be distinct, in symbol order, without look-up slots (as after
  /// `dropIndex()`): `string` and `withBytes` work at once, `intern` and `rebuildIndex()` index it.
  /// - Complexity: O(1) beyond taking the arrays.
  package static func unindexed(arena: [UInt8], starts: [UInt32]) -> SymbolTable {
    var table = SymbolTable(capacity: 0)
    table.dropIndex()
    table.arena = arena
    table.starts = starts
    table.totalBytes = arena.count
    table.used = starts.count - 1
    return table
  }

  /// Reserves room for `count` more strings totalling about `bytes` bytes.
  package mutating func reserve(count: Int, bytes: Int) {
    if slots.isEmpty { rebuildIndex() }
    if hasSource {
      // Only strings a log cannot hold as they are (escaped) take arena bytes. Spans get twice
      // the room: untouched capacity is address space only, while growing at the end of a load
      // would hold the old and the new array at once, at the load's peak.
      spans.reserveCapacity(spans.count + 2 * count)
    } else {
      arena.reserveCapacity(arena.count + bytes)
      starts.reserveCapacity(starts.count + count)
    }
    while (used + count) * 4 > slots.count * 3 { rehash(size: slots.count * 2) }
  }

  /// Whether look-ups work: false after `dropIndex()` until the next `intern` or `rebuildIndex()`.
  package var isIndexed: Bool { !slots.isEmpty }

  /// Frees the hash slots (8 bytes per string at up to 75% load, 15 per string typically), keeping
  /// the strings: `string` and `withBytes` still work, `lookup` needs `rebuildIndex()` first, and
  /// `intern` rebuilds by itself. A loaded ledger's ids and transactions are only read after
  /// loading, unless a `LedgerStore` appends (Docs/performance.md, "Memory per event").
  package mutating func dropIndex() {
    slots = []
    mask = 0
  }

  /// Builds the hash slots again after `dropIndex()`; nothing to do when they are there.
  /// - Complexity: O(total bytes) when rebuilding.
  package mutating func rebuildIndex() {
    guard slots.isEmpty else { return }
    var size = 16
    while size * 3 < max(used, 1024) * 4 { size <<= 1 }
    rehash(size: size)
  }

  /// The number of distinct strings interned.
  package var count: Int { used }

  /// The bytes of the arena, for sizing reports (0 for a table of log spans only).
  package var arenaBytes: Int { arena.count }

  /// The bytes of all strings, in the arena or in the log.
  package var stringBytes: Int { totalBytes }

  /// The log this table's spans point into, if any.
  package var logSource: (any SpanSource)? { source }

  /// Strings interned next with a log offset (`intern(_:hash:logOffset:)`) are kept as spans of
  /// `log`. Spans of another log already in the table are read into the arena first.
  /// - Complexity: O(strings) when the table changes from text to spans or to another log.
  package mutating func attach(_ log: any SpanSource) {
    guard source !== log else { return }
    if source != nil { materialize() }
    if spans.isEmpty {
      spans.reserveCapacity(used)
      for index in 0..<used {
        spans.append(SymbolSpan.arena(offset: Int(starts[index]), count: Int(starts[index + 1] - starts[index])))
      }
      starts = [0]
    }
    source = log
    hasSource = true
  }

  /// Reads every log span into the arena (a table that outlives its log, or changes log).
  /// A span that cannot be read is kept as `unreadableSpanPlaceholder`.
  private mutating func materialize() {
    guard let log = source, !spans.isEmpty else { return }
    var copied = spans
    var window = SpanWindow(log)
    for index in 0..<used where copied[index] & SymbolSpan.inLog != 0 {
      let (offset, count) = SymbolSpan.place(copied[index])
      let start = arena.count
      if let bytes = window.bytes(at: Int64(offset), count: count) {
        arena.append(contentsOf: bytes)
      } else {
        arena.append(contentsOf: unreadableSpanPlaceholder.utf8)
      }
      copied[index] = SymbolSpan.arena(offset: start, count: arena.count - start)
    }
    spans = copied
    source = nil
    hasSource = false
  }

  /// Keeps each string's full hash from now on (8 bytes per string), so the merge's fingerprints read no log:
  /// a partition's tables, whose fingerprints are merged at the end of a load.
  package mutating func keepHashes() {
    precondition(used == 0, "hashes are kept from the first string")
    keepsHashes = true
  }

  /// Every string's full hash, by symbol, when `keepHashes()` asked for them.
  package var keptHashes: [UInt64]? { keepsHashes ? hashes : nil }

  /// Returns the symbol for `bytes`, interning it if new.
  /// - Complexity: O(`bytes.count`) expected.
  package mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> Symbol {
    intern(bytes, hash: SymbolTable.hash(bytes))
  }

  /// Interns `bytes` whose `SymbolTable.hash` the caller already computed.
  /// - Complexity: O(`bytes.count`) expected.
  package mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Symbol {
    intern(bytes, hash: hash, logOffset: -1)
  }

  /// Interns `bytes`, which are also the log's bytes at `logOffset` (between the quotes of a JSON
  /// string without escapes, so 1 or more) unless it is negative: a new string is then kept as
  /// that span of the attached log (8 bytes), not copied.
  /// - Complexity: O(`bytes.count`) expected; a read of the log when a stored span's hash matches.
  package mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64, logOffset: Int64) -> Symbol {
    if slots.isEmpty { rebuildIndex() }
    var placement = keyed ? SymbolTable.keyedHash(bytes) : hash
    var (slot, found, flooded) = find(bytes, hash: placement, stopAtFlood: true)
    if flooded && !keyed {
      placeByKeyedHash()
      placement = SymbolTable.keyedHash(bytes)
      (slot, found, _) = find(bytes, hash: placement)
    }
    if found.isSome { return found }
    precondition(used < Int(UInt32.max - 1), "symbol table full")
    let symbol = UInt32(used)
    append(bytes, logOffset: logOffset)
    // The callers' hash, whatever the placement: a partition merge compares these across tables.
    if keepsHashes { hashes.append(hash) }
    slots[slot] = (placement >> 32) << 32 | UInt64(symbol + 1)
    used += 1
    if used * 4 > slots.count * 3 { rehash(size: slots.count * 2) }
    return Symbol(rawValue: symbol)
  }

  /// Stores a new string's bytes: a span of the log when it has a log offset and the table a log,
  /// else in the arena.
  @inline(__always)
  private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, logOffset: Int64) {
    totalBytes += bytes.count
    if spans.isEmpty && !hasSource {
      arena.append(contentsOf: bytes)
      precondition(arena.count < Int(UInt32.max), "symbol arena exceeds 4 GiB")
      starts.append(UInt32(truncatingIfNeeded: arena.count))
      return
    }
    if logOffset >= 0 && hasSource {
      spans.append(SymbolSpan.log(offset: logOffset, count: bytes.count))
      return
    }
    spans.append(SymbolSpan.arena(offset: arena.count, count: bytes.count))
    arena.append(contentsOf: bytes)
  }

  /// Appends a string of `other` (which must be distinct from this table's) without indexing it:
  /// a log span is copied as a span (`attach` the same log first), text as text.
  /// - Complexity: O(1) for a span, O(bytes) for text.
  package mutating func appendUnindexed(from other: SymbolTable, _ symbol: Symbol) {
    precondition(slots.isEmpty, "appendUnindexed on an indexed table (dropIndex first)")
    let index = Int(symbol.rawValue)
    if !other.spans.isEmpty && other.spans[index] & SymbolSpan.inLog != 0 {
      precondition(source != nil && source === other.source, "a span of another log")
      let (offset, count) = SymbolSpan.place(other.spans[index])
      totalBytes += count
      spans.append(SymbolSpan.log(offset: Int64(offset), count: count))
    } else {
      other.withBytes(symbol) { append($0, logOffset: -1) }
    }
    used += 1
  }

  /// Returns the symbol for `bytes` if interned, without inserting.
  package func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Symbol? {
    precondition(isIndexed, "look-up in a symbol table whose index was dropped (call rebuildIndex)")
    let symbol = find(bytes, hash: keyed ? SymbolTable.keyedHash(bytes) : SymbolTable.hash(bytes)).symbol
    return symbol.isSome ? symbol : nil
  }

  /// Interns a `String`.
  package mutating func intern(_ text: String) -> Symbol {
    var text = text
    return text.withUTF8 { intern($0) }
  }

  /// Looks up a `String` without inserting.
  package func lookup(_ text: String) -> Symbol? {
    var text = text
    return text.withUTF8 { lookup($0) }
  }

  /// Starts loading the slot `hash` probes first, ahead of an `intern` of it.
  @inline(__always)
  package func prefetch(hash: UInt64) {
    guard !slots.isEmpty, !keyed else { return }
    slots.withUnsafeBufferPointer { table in
      storeledger_prefetch(table.baseAddress! + (Int(truncatingIfNeeded: hash) & mask))
    }
  }

  /// The slot of `bytes` (or the empty slot it would take), its symbol (`none` when absent), and
  /// whether the probe was a flood (`FloodCount`). With `stopAtFlood`, an unkeyed probe stops at
  /// the flood with no answer: the caller places by the keyed hash and probes again.
  @inline(__always)
  private func find(
    _ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64, stopAtFlood: Bool = false
  ) -> (slot: Int, symbol: Symbol, flooded: Bool) {
    let fingerprint = hash >> 32
    return slots.withUnsafeBufferPointer { table in
      var slot = Int(truncatingIfNeeded: hash) & mask
      var probe = FloodCount()
      while true {
        let entry = table[slot]
        if entry == 0 { return (slot, .none, probe.isFlood) }
        if entry >> 32 == fingerprint {
          let index = Int(entry & 0xFFFF_FFFF) - 1
          if equals(index, bytes) { return (slot, Symbol(rawValue: UInt32(index)), probe.isFlood) }
          probe.matches += 1
          if stopAtFlood && !keyed && probe.isFlood { return (slot, .none, true) }
        }
        probe.steps += 1
        slot = (slot + 1) & mask
      }
    }
  }

  /// Places every string by `keyedHash` from now on, in slots of the same size.
  /// - Complexity: O(strings + their bytes); spans are read back from the log.
  private mutating func placeByKeyedHash() {
    keyed = true
    rehash(size: slots.count)
  }

  /// Whether strings are placed by `keyedHash` (a flood was met).
  package var placesByKeyedHash: Bool { keyed }

  @inline(__always)
  private func equals(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    if !spans.isEmpty { return spanEquals(index, bytes) }
    return starts.withUnsafeBufferPointer { starts in
      let start = Int(starts[index])
      let end = Int(starts[index + 1])
      guard end - start == bytes.count else { return false }
      return arena.withUnsafeBufferPointer { all in
        bytes.count == 0 || memoryEquals(all.baseAddress! + start, bytes.baseAddress!, bytes.count)
      }
    }
  }

  /// Compares a span-mode string with `bytes`: from the arena, or read back from the log (only
  /// on a 32-bit hash match: a redelivery or a rare collision). A failed read is not equal, and
  /// kept by the source for the load to report.
  private func spanEquals(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let span = spans[index]
    let (offset, count) = SymbolSpan.place(span)
    guard count == bytes.count else { return false }
    guard count > 0 else { return true }
    if span & SymbolSpan.inLog == 0 {
      return arena.withUnsafeBufferPointer { memoryEquals($0.baseAddress! + offset, bytes.baseAddress!, count) }
    }
    return source!.withString(at: Int64(offset), count: count) { stored in
      stored.map { memoryEquals($0.baseAddress!, bytes.baseAddress!, count) } ?? false
    }
  }

  /// Places every string in `size` fresh slots, by `keyedHash` once the table is keyed or an
  /// unkeyed placement meets a flood. A span that cannot be read back leaves its string out of
  /// the slots; its source keeps the failure (`LedgerSymbols.readFailure`), which every caller
  /// that commits anything checks first (a load, an append, a snapshot, an index).
  private mutating func rehash(size: Int) {
    if !keyed, let placed = placeAll(size: size, keyed: false) {
      slots = placed
    } else {
      keyed = true
      slots = placeAll(size: size, keyed: true)!
    }
    mask = size - 1
  }

  /// Every string placed in `size` fresh slots; nil when an unkeyed placement walks past
  /// `floodProbeStepsMax` slots (strings crafted onto one hash).
  /// - Complexity: O(strings + their bytes); spans are read back from the log.
  private func placeAll(size: Int, keyed: Bool) -> [UInt64]? {
    var newSlots = PageAdvice.zeroedWords(count: size)
    let newMask = size - 1
    var flooded = false
    func place(_ index: Int, _ hash: UInt64) {
      var slot = Int(truncatingIfNeeded: hash) & newMask
      var probe = FloodCount()
      while newSlots[slot] != 0 && !flooded {
        slot = (slot + 1) & newMask
        probe.steps += 1
        flooded = !keyed && probe.isFlood
      }
      newSlots[slot] = (hash >> 32) << 32 | UInt64(index + 1)
    }
    if keyed {
      forEachString { index, bytes in place(index, SymbolTable.keyedHash(bytes)) }
    } else if keepsHashes {
      // A partition's spans lie all over the log: its kept hashes spare reading it again.
      for index in 0..<used where !flooded { place(index, hashes[index]) }
    } else {
      // Every string is hashed again: log spans are read in one sequential pass.
      forEachString { index, bytes in if !flooded { place(index, SymbolTable.hash(bytes)) } }
    }
    return flooded ? nil : newSlots
  }

  /// Calls `body` with every string in symbol order. Log spans are read through one large window
  /// (`SpanWindow`), sequentially, not one read per string. Returns the failure of a span that
  /// could not be read back as loaded (the walk stops there), nil when every string was seen.
  /// - Complexity: O(strings + bytes of the log the spans cover).
  @discardableResult
  package func forEachString(
    windowBytes: Int = 1 << 20, _ body: (Int, UnsafeBufferPointer<UInt8>) -> Void
  ) -> Diagnostic? {
    arena.withUnsafeBufferPointer { all in
      guard !spans.isEmpty else {
        for index in 0..<used { body(index, UnsafeBufferPointer(rebasing: all[Int(starts[index])..<Int(starts[index + 1])])) }
        return nil
      }
      var window = source.map { SpanWindow($0, blockBytes: windowBytes) }
      for index in 0..<used {
        let span = spans[index]
        let (offset, count) = SymbolSpan.place(span)
        if span & SymbolSpan.inLog == 0 {
          body(index, UnsafeBufferPointer(rebasing: all[offset..<(offset + count)]))
        } else if let bytes = window?.bytes(at: Int64(offset), count: count) {
          body(index, bytes)
        } else {
          return source?.failure ?? Diagnostic(.cannotRead(path: "log", reason: "a string of the log could not be read back"))
        }
      }
      return nil
    }
  }

  /// The length in bytes of a symbol's string (no log is read).
  package func byteCount(of symbol: Symbol) -> Int {
    let index = Int(symbol.rawValue)
    if spans.isEmpty { return Int(starts[index + 1] - starts[index]) }
    return SymbolSpan.place(spans[index]).count
  }

  /// The string for a symbol; `unreadableSpanPlaceholder` when it is a span of a log that
  /// changed since loading (callers that can fail use `forEachString` or the source's `failure`).
  package func string(_ symbol: Symbol) -> String {
    precondition(symbol.isSome && Int(symbol.rawValue) < used, "unknown symbol \(symbol.rawValue)")
    return withBytes(symbol) { String(decoding: $0, as: UTF8.self) }
  }

  /// Calls `body` with the bytes of a symbol (read from the log for a span; the bytes of
  /// `unreadableSpanPlaceholder` when it cannot be read as loaded).
  ///
  /// Always inlined: text is the answering loop's case (transactions, subjects), and a call
  /// that is not inlined makes its caller's closure context a copy of the caller.
  @inline(__always)
  package func withBytes<R>(_ symbol: Symbol, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if spans.isEmpty {
      let start = Int(starts[Int(symbol.rawValue)])
      let end = Int(starts[Int(symbol.rawValue) + 1])
      return arena.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }
    // No closure goes to a call that is not inlined: its context would copy the caller.
    return spanBytes(Int(symbol.rawValue)).withUnsafeBufferPointer { body($0) }
  }

  /// The bytes of a string of a table in span mode: from the arena, or one read of the log.
  @inline(never)
  private func spanBytes(_ index: Int) -> [UInt8] {
    let span = spans[index]
    let (offset, count) = SymbolSpan.place(span)
    guard span & SymbolSpan.inLog != 0, let source else { return Array(arena[offset..<(offset + count)]) }
    return source.withString(at: Int64(offset), count: count) { bytes in
      bytes.map { Array($0) } ?? Array(unreadableSpanPlaceholder.utf8)
    }
  }

  /// A fast 64-bit hash of bytes (word-wise multiply-xor with a final mix).
  @inlinable
  package static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
    guard let base = bytes.baseAddress else { return mix(h) }
    let raw = UnsafeRawPointer(base)
    var i = 0
    let n = bytes.count
    while i + 8 <= n {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
      h = (h ^ word) &* 0x0000_0100_0000_01b3
      h ^= h >> 29
      i += 8
    }
    if i < n {
      var tail: UInt64 = 0
      if n >= 8 {
        // The last eight bytes in one load, shifted so only the unhashed ones remain: the
        // same value as assembling them byte by byte (little-endian), without the loop.
        let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
        tail = last >> UInt64((8 - (n - i)) * 8)
      } else {
        var shift: UInt64 = 0
        while i < n {
          tail |= UInt64(base[i]) << shift
          shift += 8
          i += 1
        }
      }
      h = (h ^ tail) &* 0x0000_0100_0000_01b3
    }
    return mix(h)
  }

  /// A hash of bytes keyed per process (SipHash-1-3, through the standard library's `Hasher`):
  /// what strings are placed by once a flood of crafted collisions on `hash` was met. Slower
  /// than `hash`, and never stored: a new process places strings anew.
  @inlinable
  package static func keyedHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var hasher = Hasher()
    hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    return UInt64(truncatingIfNeeded: hasher.finalize())
  }

  /// A finaliser that spreads every input bit over the output (from splitmix64).
  @inlinable
  package static func mix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9e37_79b9_7f4a_7c15
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}

/// What one probe met: the slots it stepped over, and the unequal strings with its fingerprint.
struct FloodCount {
  var steps = 0
  var matches = 0

  /// Whether the probe is long enough to be crafted (`SymbolTable.floodProbeStepsMax`).
  @inline(__always)
  var isFlood: Bool {
    steps > SymbolTable.floodProbeStepsMax || matches > SymbolTable.floodFingerprintMatchesMax
  }
}

/// Where a span-mode string's bytes are, in 64 bits: the top bit says in the log (else in the
/// arena), the next 47 bits are the byte offset, the low 16 the length (ids and references are
/// far shorter than 64 KiB; `Limits.idLengthMax`, `Limits.referenceBytesMax`).
enum SymbolSpan {
  /// The flag of a span in the log.
  static let inLog: UInt64 = 1 << 63
  private static let offsetLimit: UInt64 = 1 << 47

  /// A span of the log: a string after its opening quote, so never at offset 0 (readers read
  /// the byte before it).
  @inline(__always)
  static func log(offset: Int64, count: Int) -> UInt64 {
    precondition(offset >= 1 && UInt64(offset) < offsetLimit && count <= Int(UInt16.max), "span out of range")
    return inLog | UInt64(offset) << 16 | UInt64(count)
  }

  /// A span of the arena.
  @inline(__always)
  static func arena(offset: Int, count: Int) -> UInt64 {
    precondition(UInt64(offset) < offsetLimit && count <= Int(UInt16.max), "symbol arena exceeds 128 TiB or string too long")
    return UInt64(offset) << 16 | UInt64(count)
  }

  /// The offset and length of a span.
  @inline(__always)
  static func place(_ span: UInt64) -> (offset: Int, count: Int) {
    (Int((span & ~inLog) >> 16), Int(span & 0xFFFF))
  }
}

/// Compares `count` bytes; a word at a time.
@inline(__always)
func memoryEquals(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
  var i = 0
  let ra = UnsafeRawPointer(a)
  let rb = UnsafeRawPointer(b)
  while i + 8 <= count {
    if ra.loadUnaligned(fromByteOffset: i, as: UInt64.self) != rb.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
      return false
    }
    i += 8
  }
  while i < count {
    if a[i] != b[i] { return false }
    i += 1
  }
  return true
}

private func equalStrings(_ arena: [UInt8], _ starts: [UInt32], _ a: Int, _ b: Int) -> Bool {
  arena[Int(starts[a])..<Int(starts[a + 1])].elementsEqual(arena[Int(starts[b])..<Int(starts[b + 1])])
}
