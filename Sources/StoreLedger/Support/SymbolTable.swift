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
package struct SymbolTable: Sendable {
  private var arena: [UInt8] = []
  private var starts: [UInt32] = [0]
  /// 0 = empty; otherwise `fingerprint << 32 | (symbol + 1)`.
  private var slots: [UInt64]
  private var mask: Int
  private var used = 0

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
  /// (a damaged snapshot), which costs a comparison only when 32 hash bits collide.
  /// - Complexity: O(total bytes).
  package static func distinct(arena: [UInt8], starts: [UInt32]) -> SymbolTable? {
    let count = starts.count - 1
    var table = SymbolTable(capacity: max(16, count))
    table.arena = arena
    table.starts = starts
    let mask = table.mask
    var filled = table.slots
    table.slots = []
    // Hashes run `distance` strings ahead of the slots they fill, so each slot is prefetched
    // before it is probed; a ring holds the hashes in flight (no array of every hash).
    let distance = 8
    var ring = [UInt64](repeating: 0, count: distance)
    let ok = arena.withUnsafeBufferPointer { all in
      func hashOf(_ index: Int) -> UInt64 {
        SymbolTable.hash(UnsafeBufferPointer(rebasing: all[Int(starts[index])..<Int(starts[index + 1])]))
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
          while slots[slot] != 0 {
            if slots[slot] >> 32 == hash >> 32 {
              if equalStrings(arena, starts, Int(slots[slot] & 0xFFFF_FFFF) - 1, index) { return false }
            }
            slot = (slot + 1) & mask
          }
          slots[slot] = (hash >> 32) << 32 | UInt64(index + 1)
        }
        return true
      }
    }
    guard ok else { return nil }
    table.slots = filled
    table.used = count
    return table
  }

  /// A table of strings known to be distinct, in symbol order, without look-up slots (as after
  /// `dropIndex()`): `string` and `withBytes` work at once, `intern` and `rebuildIndex()` index it.
  /// - Complexity: O(1) beyond taking the arrays.
  package static func unindexed(arena: [UInt8], starts: [UInt32]) -> SymbolTable {
    var table = SymbolTable(capacity: 0)
    table.dropIndex()
    table.arena = arena
    table.starts = starts
    table.used = starts.count - 1
    return table
  }

  /// Reserves room for `count` more strings totalling about `bytes` bytes.
  package mutating func reserve(count: Int, bytes: Int) {
    if slots.isEmpty { rebuildIndex() }
    arena.reserveCapacity(arena.count + bytes)
    starts.reserveCapacity(starts.count + count)
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

  /// The bytes of the arena, for sizing reports.
  package var arenaBytes: Int { arena.count }

  /// Returns the symbol for `bytes`, interning it if new.
  /// - Complexity: O(`bytes.count`) expected.
  package mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> Symbol {
    intern(bytes, hash: SymbolTable.hash(bytes))
  }

  /// Interns `bytes` whose `SymbolTable.hash` the caller already computed.
  /// - Complexity: O(`bytes.count`) expected.
  package mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Symbol {
    if slots.isEmpty { rebuildIndex() }
    let (slot, found) = find(bytes, hash: hash)
    if found.isSome { return found }
    precondition(used < Int(UInt32.max - 1), "symbol table full")
    let symbol = UInt32(used)
    arena.append(contentsOf: bytes)
    precondition(arena.count < Int(UInt32.max), "symbol arena exceeds 4 GiB")
    starts.append(UInt32(truncatingIfNeeded: arena.count))
    slots[slot] = (hash >> 32) << 32 | UInt64(symbol + 1)
    used += 1
    if used * 4 > slots.count * 3 { rehash(size: slots.count * 2) }
    return Symbol(rawValue: symbol)
  }

  /// Returns the symbol for `bytes` if interned, without inserting.
  package func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Symbol? {
    precondition(isIndexed, "look-up in a symbol table whose index was dropped (call rebuildIndex)")
    let symbol = find(bytes, hash: SymbolTable.hash(bytes)).symbol
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
    guard !slots.isEmpty else { return }
    slots.withUnsafeBufferPointer { table in
      storeledger_prefetch(table.baseAddress! + (Int(truncatingIfNeeded: hash) & mask))
    }
  }

  @inline(__always)
  private func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (slot: Int, symbol: Symbol) {
    let fingerprint = hash >> 32
    return slots.withUnsafeBufferPointer { table in
      var slot = Int(truncatingIfNeeded: hash) & mask
      while true {
        let entry = table[slot]
        if entry == 0 { return (slot, .none) }
        if entry >> 32 == fingerprint {
          let index = Int(entry & 0xFFFF_FFFF) - 1
          if equals(index, bytes) { return (slot, Symbol(rawValue: UInt32(index))) }
        }
        slot = (slot + 1) & mask
      }
    }
  }

  @inline(__always)
  private func equals(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    starts.withUnsafeBufferPointer { starts in
      let start = Int(starts[index])
      let end = Int(starts[index + 1])
      guard end - start == bytes.count else { return false }
      return arena.withUnsafeBufferPointer { all in
        bytes.count == 0 || memoryEquals(all.baseAddress! + start, bytes.baseAddress!, bytes.count)
      }
    }
  }

  private mutating func rehash(size: Int) {
    var newSlots = PageAdvice.zeroedWords(count: size)
    let newMask = size - 1
    arena.withUnsafeBufferPointer { all in
      for index in 0..<used {
        let start = Int(starts[index])
        let end = Int(starts[index + 1])
        let hash = SymbolTable.hash(UnsafeBufferPointer(rebasing: all[start..<end]))
        var slot = Int(truncatingIfNeeded: hash) & newMask
        while newSlots[slot] != 0 { slot = (slot + 1) & newMask }
        newSlots[slot] = (hash >> 32) << 32 | UInt64(index + 1)
      }
    }
    slots = newSlots
    mask = newMask
  }

  /// The string for a symbol.
  package func string(_ symbol: Symbol) -> String {
    precondition(symbol.isSome && Int(symbol.rawValue) < used, "unknown symbol \(symbol.rawValue)")
    let start = Int(starts[Int(symbol.rawValue)])
    let end = Int(starts[Int(symbol.rawValue) + 1])
    return String(decoding: arena[start..<end], as: UTF8.self)
  }

  /// Calls `body` with the bytes of a symbol.
  package func withBytes<R>(_ symbol: Symbol, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let start = Int(starts[Int(symbol.rawValue)])
    let end = Int(starts[Int(symbol.rawValue) + 1])
    return arena.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
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

  /// A finaliser that spreads every input bit over the output (from splitmix64).
  @inlinable
  package static func mix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9e37_79b9_7f4a_7c15
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
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
