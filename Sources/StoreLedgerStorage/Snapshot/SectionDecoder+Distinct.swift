import StoreLedgerCore

extension SectionDecoder {
  /// Filter bits per string (rounded up to a power of two) in `hasRepeated`.
  static let filterBitsPerString = 8
  /// Strings keyed before their filter bits are touched, so the bits' cache misses overlap.
  static let keyBatch = 32

  /// Whether a string of `arena` (strings back to back, `starts` their `count + 1` boundaries)
  /// equals another: the check `SymbolTable.distinct` makes, without its look-up slots. With
  /// `parts` (a power of two), only the strings whose filter key falls in part `part` are
  /// compared, so the parts can be checked at once on several cores and together answer the same.
  /// - Complexity: O(total bytes) expected.
  static func hasRepeated(arena: [UInt8], starts: [UInt32], part: Int = 0, of parts: Int = 1) -> Bool {
    arena.withUnsafeBufferPointer { all in
      starts.withUnsafeBufferPointer { starts in
        hasRepeated(count: starts.count - 1, part: part, of: parts) { k in
          UnsafeBufferPointer(rebasing: all[Int(starts[k])..<Int(starts[k + 1])])
        }
      }
    }
  }

  /// `hasRepeated` of the table whose ends start at `endsAt` and whose strings are `arena`, read
  /// in place in the section (both checked by `layout`).
  /// - Complexity: O(string bytes) expected.
  func hasRepeated(count: Int, endsAt: Int, arena: Range<Int>, part: Int, of parts: Int) -> Bool {
    guard let base = bytes.baseAddress?.advanced(by: arena.lowerBound).assumingMemoryBound(to: UInt8.self) else {
      return false
    }
    return Self.hasRepeated(count: count, part: part, of: parts) { k in
      let start = k == 0 ? 0 : Int(load(endsAt + 4 * (k - 1), as: UInt32.self))
      return UnsafeBufferPointer(start: base + start, count: Int(load(endsAt + 4 * k, as: UInt32.self)) - start)
    }
  }

  /// Each string's `filterKey` picks one bit of a filter of 8 to 16 bits per string; a string
  /// whose bit an earlier one set marks it shared. Only strings on a shared bit (a few percent)
  /// are hashed in full into a dictionary and compared byte for byte, so equal strings are always
  /// found and unequal ones never reported. Two filters of 1 to 2 bytes per string replace 8 to 16
  /// bytes of slots. Equal strings have equal keys, so they fall in one part (the key's low bits).
  /// - Complexity: O(total bytes) expected.
  private static func hasRepeated(
    count: Int, part: Int, of parts: Int, string: (Int) -> UnsafeBufferPointer<UInt8>
  ) -> Bool {
    precondition(parts > 0 && parts & (parts - 1) == 0 && (0..<parts).contains(part), "parts must be a power of two")
    guard count > 1 else { return false }
    let (partMask, partKey) = (UInt64(parts - 1), UInt64(part))
    var bits = 64
    while bits < (count / parts + 1) * filterBitsPerString { bits <<= 1 }
    let shift = UInt64(64 - bits.trailingZeroBitCount)
    var seen = [UInt64](repeating: 0, count: bits / 64)
    var shared = [UInt64](repeating: 0, count: bits / 64)
    // First pass: the bits two or more strings pick.
    var any = false
    seen.withUnsafeMutableBufferPointer { seen in
      shared.withUnsafeMutableBufferPointer { shared in
        forEachKey(count: count, string: string) { _, key in
          guard key & partMask == partKey else { return }
          let bit = Int(key >> shift)
          let mask = UInt64(1) << UInt64(bit & 63)
          if seen[bit >> 6] & mask != 0 {
            shared[bit >> 6] |= mask
            any = true
          } else {
            seen[bit >> 6] |= mask
          }
        }
      }
    }
    guard any else { return false }
    // Second pass: strings on a shared bit, by full hash (equal strings have equal hashes),
    // keyed so that strings crafted onto one hash do not make this pass quadratic.
    var firstByHash: [UInt64: Int] = [:]
    firstByHash.reserveCapacity(count / parts / 8)
    var sameHash: [Int] = []
    var repeated = false
    shared.withUnsafeBufferPointer { shared in
      forEachKey(count: count, string: string) { k, key in
        let bit = Int(key >> shift)
        guard !repeated, key & partMask == partKey, shared[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { return }
        let full = SymbolTable.keyedHash(string(k))
        guard let first = firstByHash[full] else {
          firstByHash[full] = k
          return
        }
        // Unequal strings with one 64-bit hash are kept too, so a later copy of either is found.
        repeated = ([first] + sameHash).contains { string($0).elementsEqual(string(k)) }
        sameHash.append(k)
      }
    }
    return repeated
  }

  /// A cheap key of a string for the filter: its length and its first and last 8 bytes, mixed.
  /// Equal strings have equal keys; strings that differ only in between share a bit and cost a
  /// full hash in the second pass, never a wrong answer.
  @inline(__always)
  static func filterKey(_ string: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let count = string.count
    var head: UInt64 = 0
    var tail: UInt64 = 0
    if count >= 8, let base = string.baseAddress {
      head = UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)
      tail = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    } else {
      for (k, byte) in string.enumerated() { head |= UInt64(byte) << UInt64(8 * k) }
    }
    var z = (head &* 0x9e37_79b9_7f4a_7c15) ^ (tail &* 0xc2b2_ae3d_27d4_eb4f) ^ UInt64(count)
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }

  /// Calls `body` with each string's index and `filterKey`, in order, keying `keyBatch` strings
  /// ahead of the calls so the memory `body` touches for them is fetched together.
  /// - Complexity: O(total bytes).
  private static func forEachKey(
    count: Int, string: (Int) -> UnsafeBufferPointer<UInt8>, _ body: (Int, UInt64) -> Void
  ) {
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: keyBatch) { keys in
      var start = 0
      while start < count {
        let end = min(start + keyBatch, count)
        for k in start..<end { keys[k - start] = filterKey(string(k)) }
        for k in start..<end { body(k, keys[k - start]) }
        start = end
      }
    }
  }
}
