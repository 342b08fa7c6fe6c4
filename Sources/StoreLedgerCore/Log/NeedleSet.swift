/// Many byte strings searched for in one pass: each position's next 8 bytes are hashed into a
/// bitmap of the strings' first 8 bytes, and only a position whose bit is set is compared with
/// the strings that begin so. Used by an erasure of many subjects at once, where a scan per
/// subject would cost the log's size times their number.
struct NeedleSet {
  /// The bytes of a key: strings shorter than this are searched for one by one.
  static let keyBytes = 8
  /// Bits of the bitmap's index.
  static let bitmapBits = 20

  /// The strings, by their first 8 bytes.
  private var byKey: [UInt64: [[UInt8]]] = [:]
  /// One bit per hashed key.
  private var bitmap = [UInt64](repeating: 0, count: (1 << bitmapBits) / 64)

  /// A set of `needles`, each at least `keyBytes` long.
  init(_ needles: [[UInt8]]) {
    for needle in needles {
      precondition(needle.count >= Self.keyBytes, "a needle of \(needle.count) bytes is shorter than a key")
      let key = needle.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
      byKey[key, default: []].append(needle)
      let slot = Self.slot(key)
      bitmap[slot >> 6] |= 1 << UInt64(slot & 63)
    }
  }

  /// The bitmap index of a key.
  @inline(__always)
  static func slot(_ key: UInt64) -> Int { Int((key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bitmapBits)) }

  /// The needles that occur in `bytes`.
  /// - Complexity: O(n) plus a comparison per position whose key is some needle's.
  func occurring(in bytes: [UInt8]) -> [[UInt8]] {
    var found: [[UInt8]] = []
    bytes.withUnsafeBufferPointer { buffer in
      scan(buffer) { at in
        let key = UnsafeRawPointer(buffer.baseAddress!).loadUnaligned(fromByteOffset: at, as: UInt64.self)
        for needle in byKey[key] ?? []
        where at + needle.count <= buffer.count && !found.contains(needle)
          && needle.indices.allSatisfy({ buffer[at + $0] == needle[$0] })
        {
          found.append(needle)
        }
        return at
      }
    }
    return found
  }

  /// Calls `found` with the offset of each match in `buffer`; it returns where to go on from
  /// (the end of the match's line: one match per line is enough).
  /// - Complexity: O(n) plus a comparison per position whose key is some needle's.
  func scan(_ buffer: UnsafeBufferPointer<UInt8>, _ found: (Int) -> Int) {
    guard buffer.count >= Self.keyBytes, let base = buffer.baseAddress else { return }
    let raw = UnsafeRawPointer(base)
    var at = 0
    let last = buffer.count - Self.keyBytes
    while at <= last {
      let key = raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)
      let slot = Self.slot(key)
      if bitmap[slot >> 6] & (1 << UInt64(slot & 63)) != 0, let candidates = byKey[key],
        candidates.contains(where: { needle in
          at + needle.count <= buffer.count && needle.indices.allSatisfy { base[at + $0] == needle[$0] }
        })
      {
        at = found(at)
      }
      at += 1
    }
  }
}
