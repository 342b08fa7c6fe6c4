/// A dense integer standing for an interned string (a subject, id, transaction, currency).
///
/// Symbols are assigned 0, 1, 2, … in first-seen order, so they double as array
/// indices and a log always interns to the same symbols.
public struct Symbol: Hashable, Comparable, Sendable {
  /// The dense index of the string in its table.
  public var rawValue: UInt32

  /// Wraps a dense index.
  @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// The marker for "no value" in compact records.
  public static let none = Symbol(rawValue: UInt32.max)

  /// Whether this is a real symbol rather than `none`.
  @inlinable public var isSome: Bool { rawValue != UInt32.max }

  @inlinable public static func < (a: Symbol, b: Symbol) -> Bool { a.rawValue < b.rawValue }
}

/// Interns byte strings so that each distinct string is stored once.
///
/// Open addressing over one byte arena: no allocation per lookup and none per
/// insert beyond amortised arena growth, which keeps the log reader's hot path
/// free of `String` and `Dictionary` traffic.
public struct SymbolTable: Sendable {
  private var arena: [UInt8] = []
  private var starts: [UInt32] = [0]
  private var hashes: [UInt64] = []
  private var slots: [UInt32]
  private var mask: Int

  /// Creates an empty table with room for `capacity` strings before rehashing.
  public init(capacity: Int = 1024) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = Array(repeating: UInt32.max, count: size)
    mask = size - 1
  }

  /// The number of distinct strings interned.
  public var count: Int { hashes.count }

  /// The bytes of the arena, for sizing reports.
  public var arenaBytes: Int { arena.count }

  /// Returns the symbol for `bytes`, interning it if new.
  /// - Complexity: O(`bytes.count`) expected.
  public mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> Symbol {
    let hash = SymbolTable.hash(bytes)
    let (slot, found) = find(bytes, hash: hash)
    if found.isSome { return found }
    precondition(hashes.count < Int(UInt32.max - 1), "symbol table full")
    let symbol = UInt32(hashes.count)
    arena.append(contentsOf: bytes)
    precondition(arena.count < Int(UInt32.max), "symbol arena exceeds 4 GiB")
    starts.append(UInt32(truncatingIfNeeded: arena.count))
    hashes.append(hash)
    slots[slot] = symbol
    if hashes.count * 2 > slots.count { grow() }
    return Symbol(rawValue: symbol)
  }

  /// Returns the symbol for `bytes` if interned, without inserting.
  /// - Complexity: O(`bytes.count`) expected.
  public func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Symbol? {
    let symbol = find(bytes, hash: SymbolTable.hash(bytes)).symbol
    return symbol.isSome ? symbol : nil
  }

  /// Interns a `String`.
  public mutating func intern(_ text: String) -> Symbol {
    var text = text
    return text.withUTF8 { intern($0) }
  }

  /// Looks up a `String` without inserting.
  public func lookup(_ text: String) -> Symbol? {
    var text = text
    return text.withUTF8 { lookup($0) }
  }

  private func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (slot: Int, symbol: Symbol) {
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let existing = slots[slot]
      if existing == UInt32.max { return (slot, .none) }
      let index = Int(existing)
      if hashes[index] == hash && equals(index, bytes) { return (slot, Symbol(rawValue: existing)) }
      slot = (slot + 1) & mask
    }
  }

  private func equals(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = Int(starts[index])
    let end = Int(starts[index + 1])
    guard end - start == bytes.count else { return false }
    return arena.withUnsafeBufferPointer { all in
      var i = 0
      while i < bytes.count {
        if all[start + i] != bytes[i] { return false }
        i += 1
      }
      return true
    }
  }

  private mutating func grow() {
    let size = slots.count * 2
    var newSlots = Array(repeating: UInt32.max, count: size)
    let newMask = size - 1
    for (index, hash) in hashes.enumerated() {
      var slot = Int(truncatingIfNeeded: hash) & newMask
      while newSlots[slot] != UInt32.max { slot = (slot + 1) & newMask }
      newSlots[slot] = UInt32(index)
    }
    slots = newSlots
    mask = newMask
  }

  /// The string for a symbol.
  public func string(_ symbol: Symbol) -> String {
    precondition(symbol.isSome && Int(symbol.rawValue) < hashes.count, "unknown symbol \(symbol.rawValue)")
    let start = Int(starts[Int(symbol.rawValue)])
    let end = Int(starts[Int(symbol.rawValue) + 1])
    return String(decoding: arena[start..<end], as: UTF8.self)
  }

  /// Calls `body` with the bytes of a symbol.
  public func withBytes<R>(_ symbol: Symbol, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let start = Int(starts[Int(symbol.rawValue)])
    let end = Int(starts[Int(symbol.rawValue) + 1])
    return arena.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
  }

  /// A fast 64-bit hash of bytes (FNV-1a over 8-byte words with a final mix).
  @inlinable
  public static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
    guard let base = bytes.baseAddress else { return mix(h) }
    let raw = UnsafeRawPointer(base)
    var i = 0
    let n = bytes.count
    while i + 8 <= n {
      let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      h = (h ^ word) &* 0x0000_0100_0000_01b3
      h ^= h >> 29
      i += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while i < n {
      tail |= UInt64(base[i]) << shift
      shift += 8
      i += 1
    }
    h = (h ^ tail) &* 0x0000_0100_0000_01b3
    return mix(h)
  }

  /// A finaliser that spreads every input bit over the output (from splitmix64).
  @inlinable
  public static func mix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9e37_79b9_7f4a_7c15
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}
