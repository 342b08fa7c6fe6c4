import StoreLedgerCore

extension SectionDecoder {
  /// Filter bits per string (rounded up to a power of two) in `hasRepeated`.
  static let filterBitsPerString = 8

  /// Whether a string of `arena` (strings back to back, `starts` their `count + 1` boundaries)
  /// equals another: the check `SymbolTable.distinct` makes, without its look-up slots.
  ///
  /// Each string's hash picks one bit of a filter of 8 to 16 bits per string; a string whose bit
  /// an earlier one set marks it shared. Only strings on a shared bit (a few percent) are hashed
  /// into a dictionary and compared byte for byte, so equal strings are always found and unequal
  /// ones never reported. Two filters of 1 to 2 bits per string replace 8 to 16 bytes of slots.
  /// - Complexity: O(total bytes) expected.
  static func hasRepeated(arena: [UInt8], starts: [UInt32]) -> Bool {
    let count = starts.count - 1
    guard count > 1 else { return false }
    var bits = 64
    while bits < count * filterBitsPerString { bits <<= 1 }
    let shift = UInt64(64 - bits.trailingZeroBitCount)
    return arena.withUnsafeBufferPointer { all in
      starts.withUnsafeBufferPointer { starts in
        func string(_ k: Int) -> UnsafeBufferPointer<UInt8> {
          UnsafeBufferPointer(rebasing: all[Int(starts[k])..<Int(starts[k + 1])])
        }
        var shared = [UInt64](repeating: 0, count: bits / 64)
        guard markShared(count: count, shift: shift, into: &shared, hash: { SymbolTable.hash(string($0)) }) else {
          return false
        }
        // Strings on a shared bit, by full hash: equal strings have equal hashes.
        var firstByHash: [UInt64: Int] = [:]
        var sameHash: [Int] = []
        for k in 0..<count {
          let hash = SymbolTable.hash(string(k))
          let bit = Int(hash >> shift)
          guard shared[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { continue }
          guard let first = firstByHash[hash] else {
            firstByHash[hash] = k
            continue
          }
          // Unequal strings with one 64-bit hash are kept too, so a later copy of either is found.
          for earlier in [first] + sameHash where string(earlier).elementsEqual(string(k)) { return true }
          sameHash.append(k)
        }
        return false
      }
    }
  }

  /// Sets in `shared` the filter bits (a string's hash shifted right by `shift`) that two or
  /// more of the `count` strings pick; whether any did.
  /// - Complexity: O(count) hashes.
  private static func markShared(
    count: Int, shift: UInt64, into shared: inout [UInt64], hash: (Int) -> UInt64
  ) -> Bool {
    var seen = [UInt64](repeating: 0, count: shared.count)
    var any = false
    seen.withUnsafeMutableBufferPointer { seen in
      shared.withUnsafeMutableBufferPointer { shared in
        for k in 0..<count {
          let bit = Int(hash(k) >> shift)
          let word = bit >> 6
          let mask = UInt64(1) << UInt64(bit & 63)
          if seen[word] & mask != 0 {
            shared[word] |= mask
            any = true
          } else {
            seen[word] |= mask
          }
        }
      }
    }
    return any
  }
}
