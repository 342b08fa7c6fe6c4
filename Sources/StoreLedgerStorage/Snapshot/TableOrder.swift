import StoreLedgerCore

/// The order of a snapshot section's ids and transactions tables (format 7): by
/// `SymbolTable.hash` of each string, strings of one hash by their bytes.
///
/// The order is strict, so a table in order holds no string twice, and checking it is one
/// sequential pass over neighbours that splits into ranges for every core: no look-up slots, no
/// filter, no random access. Strings crafted onto one hash fall in one run that the writer sorts
/// by bytes, so the reader's pass stays linear whatever the strings (Docs/decisions.md,
/// "Snapshot format 7: tables in hash order").
enum TableOrder {
  /// A table's strings in the section's order: `symbols` lists them as written, `rank` gives
  /// each symbol's place there (what the records name).
  struct Placement {
    var symbols: [UInt32]
    var rank: [UInt32]

    /// The place of `symbol`; `.none` stays `.none`.
    @inline(__always)
    func placed(_ symbol: Symbol) -> Symbol {
      symbol.isSome ? Symbol(rawValue: rank[Int(symbol.rawValue)]) : symbol
    }
  }

  /// Whether `a` (hashed to `hashA`) comes strictly before `b` (hashed to `hashB`).
  @inline(__always)
  static func precedes(
    _ a: UnsafeBufferPointer<UInt8>, _ hashA: UInt64, _ b: UnsafeBufferPointer<UInt8>, _ hashB: UInt64
  ) -> Bool {
    hashA != hashB ? hashA < hashB : a.lexicographicallyPrecedes(b)
  }

  /// Where each string of `table` goes in the section's order: each symbol packed under the top 32
  /// bits of its hash into one word, the words radix-sorted by those bits (stable, so symbols of
  /// one hash keep their order), then each run that shares them (a few hundred pairs in millions
  /// of random hashes) sorted by the whole hash and the bytes. It keeps 8 bytes per string (the
  /// order and its inverse) and needs 16 more while sorting, and no copy of the strings: a
  /// snapshot of millions of ids is written beside the whole ledger.
  /// - Complexity: O(strings + bytes), and O(k log k) comparisons for a run of k strings.
  static func placement(of table: SymbolTable) -> Placement {
    let count = table.count
    let low: UInt64 = 0xFFFF_FFFF
    var packed = [UInt64](repeating: 0, count: count)
    // A table of log spans reads the log once, in order; a span it cannot read hashes as empty,
    // and the caller refuses to keep the file (`LedgerSymbols.readFailure`).
    packed.withUnsafeMutableBufferPointer { packed in
      _ = table.forEachString { index, bytes in packed[index] = SymbolTable.hash(bytes) & ~low | UInt64(index) }
    }
    radixSort(&packed, fromBit: 32)
    var symbols = packed.map { UInt32(truncatingIfNeeded: $0) }
    var start = 0
    while start < count {
      var end = start + 1
      while end < count && packed[end] & ~low == packed[start] & ~low { end += 1 }
      if end - start > 1 {
        symbols[start..<end].sort { a, b in
          table.withBytes(Symbol(rawValue: a)) { bytesA in
            table.withBytes(Symbol(rawValue: b)) { precedes(bytesA, SymbolTable.hash(bytesA), $0, SymbolTable.hash($0)) }
          }
        }
      }
      start = end
    }
    packed = []
    var rank = [UInt32](repeating: 0, count: count)
    for (place, symbol) in symbols.enumerated() { rank[Int(symbol)] = UInt32(place) }
    return Placement(symbols: symbols, rank: rank)
  }

  /// Bits of the key sorted per pass of `radixSort`.
  static let radixBits = 11

  /// Sorts `keys` by their bits from `lowBit` up (`key >> lowBit`); stable.
  /// - Complexity: O(count × (64 - lowBit) / `radixBits`).
  static func radixSort(_ keys: inout [UInt64], fromBit lowBit: Int = 0) {
    precondition((0..<64).contains(lowBit), "a bit of the key")
    var sorted = keys
    var counts = [Int](repeating: 0, count: 1 << radixBits)
    let mask = UInt64((1 << radixBits) - 1)
    var shift = UInt64(lowBit)
    while shift < 64 {
      for k in counts.indices { counts[k] = 0 }
      for key in keys { counts[Int((key >> shift) & mask)] += 1 }
      // A digit every key shares moves nothing.
      if counts.contains(keys.count) {
        shift += UInt64(radixBits)
        continue
      }
      var total = 0
      for k in counts.indices { (counts[k], total) = (total, total + counts[k]) }
      for key in keys {
        let digit = Int((key >> shift) & mask)
        sorted[counts[digit]] = key
        counts[digit] += 1
      }
      swap(&keys, &sorted)
      shift += UInt64(radixBits)
    }
  }

  /// The first string among `range` of a table (`string(k)` gives the k-th) that does not come
  /// strictly after the one before it (string 0 has none), or nil when each does: the reader's check,
  /// run over ranges at once on several cores, that together cover every neighbouring pair.
  /// - Complexity: O(bytes of the range's strings).
  static func firstOutOfOrder(in range: Range<Int>, string: (Int) -> UnsafeBufferPointer<UInt8>) -> Int? {
    guard !range.isEmpty else { return nil }
    var previous = range.lowerBound > 0 ? string(range.lowerBound - 1) : nil
    var previousHash = previous.map { SymbolTable.hash($0) } ?? 0
    for index in range {
      let current = string(index)
      let hash = SymbolTable.hash(current)
      if let before = previous, !precedes(before, previousHash, current, hash) { return index }
      (previous, previousHash) = (current, hash)
    }
    return nil
  }
}
