import Dispatch

/// The `EventDetails` of a ledger's events, by line: only lines that have a price or a meta
/// hash take room (a charge's price in one column, meta hashes in another), so the `Event`
/// array stays 64 bytes per event. Keyed by line, the table never follows events when they are
/// grouped, sorted or moved: a line is one event for the whole life of a ledger.
package struct EventDetailTable: Sendable {
  /// A price and its currency.
  private struct Price: Sendable {
    var amount: Int64
    var currency: Symbol
  }

  private var prices = LineColumn<Price>()
  private var metaHashes = LineColumn<UInt64>()
  private var factsHashes = LineColumn<UInt64>()

  /// An empty table.
  package init() {}

  /// The details of the event on `line` (empty when it has none).
  /// - Complexity: O(log n).
  package func details(line: UInt32) -> EventDetails {
    var details = EventDetails()
    if let price = prices.value(line: line) {
      details.price = price.amount
      details.priceCurrency = price.currency
    }
    if let hash = metaHashes.value(line: line) { details.metaHash = hash }
    // Only v1.3 charges with store, country or proceeds have one: an empty column costs nothing.
    if !factsHashes.isEmpty, let hash = factsHashes.value(line: line) { details.factsHash = hash }
    return details
  }

  /// Keeps the details of the event on `line`; lines given in increasing order append, others
  /// wait for `sortByLine()` (a restored snapshot gives them subject by subject).
  /// - Complexity: O(1) amortized.
  package mutating func set(_ details: EventDetails, line: UInt32) {
    if details.hasPrice || details.price != 0 {
      prices.append(Price(amount: details.price, currency: details.priceCurrency), line: line)
    }
    if details.metaHash != 0 { metaHashes.append(details.metaHash, line: line) }
    if details.factsHash != 0 { factsHashes.append(details.factsHash, line: line) }
  }

  /// Orders entries given out of line order; a line given twice keeps its last details.
  /// - Complexity: O(n log n) when out of order, O(1) otherwise.
  package mutating func sortByLine() {
    prices.sortByLine()
    metaHashes.sortByLine()
    factsHashes.sortByLine()
  }

  /// Whether look-ups work: false after lines given out of order, until `sortByLine()`.
  package var isSorted: Bool { prices.isSorted && metaHashes.isSorted && factsHashes.isSorted }

  /// Lines with a price or a meta hash kept (a line with both counts twice).
  package var entryCount: Int { prices.count + metaHashes.count + factsHashes.count }

  /// Bytes held, for sizing reports.
  package var bytes: Int { prices.bytes + metaHashes.bytes + factsHashes.bytes }

  /// Rewrites price currencies through `map` (old symbol → new), as when tables merge.
  /// - Complexity: O(priced lines).
  package mutating func remapCurrencies(_ map: (Symbol) -> Symbol) {
    prices.mapValues { Price(amount: $0.amount, currency: $0.currency.isSome ? map($0.currency) : .none) }
  }

  /// The tables' entries in one table (each table's lines its own; a line in two keeps the last).
  /// From `concurrentMergeEntries` entries, the three columns are merged at once.
  /// - Complexity: O(n + lines spanned / 64) for n entries when the rank index fits (a restore's
  ///   parts, given subject by subject), O(n log n) otherwise.
  package static func merged(_ tables: [EventDetailTable]) -> EventDetailTable {
    // One stored property per task: no task touches another's, so no access overlaps.
    final class Columns: @unchecked Sendable {
      var prices = LineColumn<Price>()
      var metaHashes = LineColumn<UInt64>()
      var factsHashes = LineColumn<UInt64>()
    }
    let columns = Columns()
    let merge: @Sendable (Int) -> Void = { column in
      switch column {
      case 0: columns.prices = LineColumn.merged(tables.map(\.prices))
      case 1: columns.metaHashes = LineColumn.merged(tables.map(\.metaHashes))
      default: columns.factsHashes = LineColumn.merged(tables.map(\.factsHashes))
      }
    }
    // A restore merges its runs' columns while the other cores are idle.
    if tables.reduce(0, { $0 + $1.entryCount }) >= concurrentMergeEntries {
      DispatchQueue.concurrentPerform(iterations: 3, execute: merge)
    } else {
      (0..<3).forEach(merge)
    }
    var result = EventDetailTable()
    (result.prices, result.metaHashes, result.factsHashes) = (columns.prices, columns.metaHashes, columns.factsHashes)
    return result
  }

  /// Entries from which `merged` merges its three columns concurrently.
  static let concurrentMergeEntries = 1 << 16
}

/// Values by line, in line order once sorted. Look-ups go through a rank index (a bit per line
/// from the first, and the number of lines before each 64) while the lines are dense enough
/// for it to be small (at most about one word per line kept), otherwise a binary search.
private struct LineColumn<Value: Sendable>: Sendable {
  private(set) var lines: [UInt32] = []
  private(set) var values: [Value] = []
  private var sorted = true
  /// Bit `line - indexBase` set for each line kept, while `indexed`.
  private var words: [UInt64] = []
  /// The lines kept before each word of `words`.
  private var ranks: [UInt32] = []
  /// The first line `words` covers (a multiple of 64).
  private var indexBase: UInt32 = 0
  private var indexed = true
  /// Whether the index was dropped by lines out of order and is to be built again when sorted.
  private var indexStale = false

  var count: Int { lines.count }
  var isEmpty: Bool { lines.isEmpty }
  var isSorted: Bool { sorted }
  /// Bytes held: the lines, the values and the index.
  var bytes: Int {
    lines.count * (4 + MemoryLayout<Value>.stride) + words.count * 8 + ranks.count * 4
  }

  /// Whether an index of `wordCount` words is worth keeping for `lineCount` lines: at most
  /// about one word per line kept.
  private static func indexFits(wordCount: Int, lineCount: Int) -> Bool { wordCount <= lineCount + 64 }

  /// The bitmap of `lines` (a bit per line from `base`, `wordCount` words) and the lines before
  /// each word. - Complexity: O(lines + wordCount).
  private static func rankIndex(
    of lines: some Sequence<UInt32>, base: UInt32, wordCount: Int
  ) -> (words: [UInt64], ranks: [UInt32], distinct: Int) {
    var words = [UInt64](repeating: 0, count: wordCount)
    for line in lines { words[Int((line - base) >> 6)] |= UInt64(1) << UInt64((line - base) & 63) }
    var ranks = [UInt32](repeating: 0, count: wordCount)
    var before = 0
    for w in 0..<wordCount {
      ranks[w] = UInt32(before)
      before += words[w].nonzeroBitCount
    }
    return (words, ranks, before)
  }

  func value(line: UInt32) -> Value? {
    precondition(sorted, "an event detail table read before sortByLine()")
    if indexed {
      guard line >= indexBase else { return nil }
      let offset = line - indexBase
      let w = Int(offset >> 6)
      guard w < words.count else { return nil }
      let bit = UInt64(1) << UInt64(offset & 63)
      let word = words[w]
      guard word & bit != 0 else { return nil }
      return values[Int(ranks[w]) + (word & (bit &- 1)).nonzeroBitCount]
    }
    var low = 0
    var high = lines.count
    while low < high {
      let mid = (low + high) >> 1
      if lines[mid] < line { low = mid + 1 } else { high = mid }
    }
    return low < lines.count && lines[low] == line ? values[low] : nil
  }

  mutating func append(_ value: Value, line: UInt32) {
    if let last = lines.last {
      if last == line {
        values[values.count - 1] = value
        return
      }
      if last > line {
        sorted = false
        dropIndex(stale: true)
      }
    }
    lines.append(line)
    values.append(value)
    if indexed { extendIndex(line) }
  }

  /// Adds the line just appended (the last, in order) to the index; drops the index when it
  /// would be larger than the lines themselves.
  private mutating func extendIndex(_ line: UInt32) {
    if words.isEmpty { indexBase = line & ~63 }
    let w = Int((line - indexBase) >> 6)
    while words.count <= w {
      ranks.append(UInt32(lines.count - 1))
      words.append(0)
    }
    words[w] |= UInt64(1) << UInt64((line - indexBase) & 63)
    if !Self.indexFits(wordCount: words.count, lineCount: lines.count) { dropIndex(stale: false) }
  }

  private mutating func dropIndex(stale: Bool) {
    indexed = false
    indexStale = stale
    words = []
    ranks = []
  }

  /// Builds the index of sorted, distinct lines again, if they are dense enough.
  private mutating func rebuildIndex() {
    dropIndex(stale: false)
    guard let first = lines.first, let last = lines.last else {
      indexed = true
      return
    }
    let base = first & ~63
    let wordCount = Int((last - base) >> 6) + 1
    guard Self.indexFits(wordCount: wordCount, lineCount: lines.count) else { return }
    let index = Self.rankIndex(of: lines, base: base, wordCount: wordCount)
    (words, ranks, indexBase, indexed) = (index.words, index.ranks, base, true)
  }

  /// The entries of `columns` in line order, a line given twice keeping its last value. Lines
  /// out of order are placed without sorting when the rank index fits them: a bit per line
  /// first, then each value at its line's rank (a restore's details come subject by subject).
  /// - Complexity: O(n + lines spanned / 64) when it fits, O(n log n) otherwise.
  static func merged(_ columns: [LineColumn<Value>]) -> LineColumn<Value> {
    var inOrder = true
    var (lowest, highest, total) = (UInt32.max, UInt32(0), 0)
    for column in columns where !column.lines.isEmpty {
      if !column.sorted || column.lines[0] <= highest && total > 0 { inOrder = false }
      for line in column.lines {
        lowest = min(lowest, line)
        highest = max(highest, line)
      }
      total += column.count
    }
    let base = lowest & ~63
    // Out of order means some lines were given, so `highest` ≥ `base`.
    if !inOrder, case let wordCount = Int((highest - base) >> 6) + 1, indexFits(wordCount: wordCount, lineCount: total) {
      return placedByRank(columns, base: base, wordCount: wordCount)
    }
    var result = LineColumn()
    for column in columns { result.append(contentsOf: column) }
    result.sortByLine()
    return result
  }

  /// `columns`' entries placed by the rank of their line in a bitmap from `base` of `wordCount` words.
  /// - Complexity: O(n + wordCount).
  private static func placedByRank(_ columns: [LineColumn<Value>], base: UInt32, wordCount: Int) -> LineColumn<Value> {
    var result = LineColumn()
    let (words, ranks, distinct) = rankIndex(of: columns.lazy.flatMap(\.lines), base: base, wordCount: wordCount)
    // Every rank gets a value: each distinct line was given at least once. A line given again
    // overwrites in place, which only plain values allow.
    precondition(_isPOD(Value.self), "placing by rank needs values without references")
    result.values = [Value](unsafeUninitializedCapacity: distinct) { values, initialized in
      for column in columns {
        for (line, value) in zip(column.lines, column.values) {
          let offset = line - base
          let w = Int(offset >> 6)
          let below = words[w] & ((UInt64(1) << UInt64(offset & 63)) &- 1)
          (values.baseAddress! + Int(ranks[w]) + below.nonzeroBitCount).initialize(to: value)
        }
      }
      initialized = distinct
    }
    result.lines = [UInt32](unsafeUninitializedCapacity: distinct) { lines, initialized in
      var n = 0
      for w in 0..<wordCount {
        var word = words[w]
        while word != 0 {
          lines[n] = base + UInt32(w << 6 + word.trailingZeroBitCount)
          n += 1
          word &= word &- 1
        }
      }
      initialized = n
    }
    if indexFits(wordCount: wordCount, lineCount: distinct) {
      (result.words, result.ranks, result.indexBase) = (words, ranks, base)
    } else {
      result.dropIndex(stale: false)
    }
    return result
  }

  mutating func append(contentsOf other: LineColumn<Value>) {
    if !other.sorted { sorted = false }
    if let last = lines.last, let first = other.lines.first, first <= last { sorted = false }
    lines.append(contentsOf: other.lines)
    values.append(contentsOf: other.values)
    dropIndex(stale: true)
  }

  /// Orders `keys` by their high 32 bits, stably. - Complexity: O(n).
  private static func radixSortByHighHalf(_ keys: inout [UInt64]) {
    var other = [UInt64](repeating: 0, count: keys.count)
    for shift in [UInt64(32), 48] {
      var starts = [Int](repeating: 0, count: (1 << 16) + 1)
      for key in keys { starts[Int(truncatingIfNeeded: (key >> shift) & 0xFFFF) + 1] += 1 }
      // One bucket holding every key: this digit orders nothing.
      if starts.contains(keys.count) { continue }
      for digit in 0..<(1 << 16) { starts[digit + 1] += starts[digit] }
      for key in keys {
        let digit = Int(truncatingIfNeeded: (key >> shift) & 0xFFFF)
        other[starts[digit]] = key
        starts[digit] += 1
      }
      swap(&keys, &other)
    }
  }

  mutating func mapValues(_ transform: (Value) -> Value) {
    for index in values.indices { values[index] = transform(values[index]) }
  }

  mutating func sortByLine() {
    guard !sorted else {
      if indexStale { rebuildIndex() }
      return
    }
    // Line and position packed in one word, ordered by line with a stable radix sort (two
    // passes of 16 bits: a restore orders half a million of these), equal lines in the order
    // they were given, the last of them kept.
    var keys = [UInt64](unsafeUninitializedCapacity: lines.count) { keys, initialized in
      for index in lines.indices { keys[index] = UInt64(lines[index]) << 32 | UInt64(index) }
      initialized = lines.count
    }
    Self.radixSortByHighHalf(&keys)
    var newLines: [UInt32] = []
    var newValues: [Value] = []
    newLines.reserveCapacity(keys.count)
    newValues.reserveCapacity(keys.count)
    for key in keys {
      let line = UInt32(truncatingIfNeeded: key >> 32)
      let value = values[Int(truncatingIfNeeded: key & 0xFFFF_FFFF)]
      if let last = newLines.last, last == line {
        newValues[newValues.count - 1] = value
      } else {
        newLines.append(line)
        newValues.append(value)
      }
    }
    lines = newLines
    values = newValues
    sorted = true
    rebuildIndex()
  }
}
