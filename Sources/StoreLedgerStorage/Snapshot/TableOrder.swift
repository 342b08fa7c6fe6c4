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
  /// A table's strings back to back, in symbol order, with their `count + 1` boundaries.
  struct Strings {
    var arena: [UInt8]
    var starts: [UInt32]

    /// Strings `arena` with boundaries `starts` (`count + 1` of them, from 0, not decreasing).
    init(arena: [UInt8], starts: [UInt32]) {
      precondition(starts.first == 0 && Int(starts.last ?? 0) == arena.count, "boundaries of the arena")
      (self.arena, self.starts) = (arena, starts)
    }

    /// The strings of `table`, read once in symbol order (a table of log spans reads the log
    /// sequentially). A span the log no longer holds leaves zero bytes, as the section's
    /// writer does: the caller refuses to keep the file (`LedgerSymbols.readFailure`).
    /// - Complexity: O(strings + bytes).
    init(_ table: SymbolTable) {
      var starts = [UInt32](repeating: 0, count: table.count + 1)
      for index in 0..<table.count {
        starts[index + 1] = starts[index] + UInt32(table.byteCount(of: Symbol(rawValue: UInt32(index))))
      }
      var arena = [UInt8](repeating: 0, count: Int(starts[table.count]))
      arena.withUnsafeMutableBufferPointer { out in
        _ = table.forEachString { index, bytes in
          _ = UnsafeMutableBufferPointer(rebasing: out[Int(starts[index])..<Int(starts[index + 1])]).update(fromContentsOf: bytes)
        }
      }
      (self.arena, self.starts) = (arena, starts)
    }

    /// The number of strings.
    var count: Int { starts.count - 1 }

    /// Calls `body` with the bytes of string `index`.
    func withString<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
      arena.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[Int(starts[index])..<Int(starts[index + 1])])) }
    }
  }

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

  /// Where each of `strings` goes in the section's order: a radix sort of the hashes' top
  /// `sortedBits` (stable, so symbols of one hash keep their order), then each run that shares
  /// them sorted by the whole hash and the bytes (a few pairs in a million random hashes).
  /// - Complexity: O(strings + bytes), and O(k log k) comparisons for a run of k strings.
  static func placement(of strings: Strings) -> Placement {
    let count = strings.count
    var hashes = (0..<count).map { index in strings.withString(index) { SymbolTable.hash($0) } }
    var symbols = (0..<count).map { UInt32($0) }
    let lowBit = 64 - sortedBits
    radixSort(&hashes, carrying: &symbols, fromBit: lowBit)
    var start = 0
    while start < count {
      var end = start + 1
      while end < count && hashes[end] >> lowBit == hashes[start] >> lowBit { end += 1 }
      if end - start > 1 {
        var run = Array(zip(hashes[start..<end], symbols[start..<end]))
        run.sort { a, b in
          strings.withString(Int(a.1)) { bytesA in strings.withString(Int(b.1)) { precedes(bytesA, a.0, $0, b.0) } }
        }
        for (offset, (hash, symbol)) in run.enumerated() { (hashes[start + offset], symbols[start + offset]) = (hash, symbol) }
      }
      start = end
    }
    var rank = [UInt32](repeating: 0, count: count)
    for (place, symbol) in symbols.enumerated() { rank[Int(symbol)] = UInt32(place) }
    return Placement(symbols: symbols, rank: rank)
  }

  /// The hash bits `placement` radix-sorts by: three passes of `radixBits`.
  static let sortedBits = 33

  /// Bits of the key sorted per pass of `radixSort`.
  static let radixBits = 11

  /// Sorts `keys` by their bits from `lowBit` up (`key >> lowBit`), moving `values` along; stable.
  /// - Complexity: O(count × (64 - lowBit) / `radixBits`).
  static func radixSort(_ keys: inout [UInt64], carrying values: inout [UInt32], fromBit lowBit: Int = 0) {
    precondition(keys.count == values.count && (0..<64).contains(lowBit), "a value per key, bits of a key")
    var (keysOut, valuesOut) = (keys, values)
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
      for index in keys.indices {
        let digit = Int((keys[index] >> shift) & mask)
        keysOut[counts[digit]] = keys[index]
        valuesOut[counts[digit]] = values[index]
        counts[digit] += 1
      }
      swap(&keys, &keysOut)
      swap(&values, &valuesOut)
      shift += UInt64(radixBits)
    }
  }

  /// The first string among `range` of a table of `count` strings that does not come strictly
  /// after the one before it (string 0 has none), or nil when each does: the reader's check,
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
