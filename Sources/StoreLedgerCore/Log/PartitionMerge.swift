import Dispatch

/// A transaction two partitions interned: `partition`'s `local` symbol stands for the same
/// string as `target`'s `targetLocal`, which appeared first in the log.
struct TransactionAlias {
  var partition: Int
  var local: UInt32
  var target: Int
  var targetLocal: UInt32
}

/// The log-wide keys of partitions, compared at the end of a load by merging sorted runs of
/// fingerprints (one run per partition, sorted on its own core) rather than probing one shared
/// table per line.
enum PartitionKeys {
  /// A string's 64-bit fingerprint (`SymbolTable.hash`), its symbol in its partition, and
  /// whether a charge claimed it there.
  struct Print {
    var hash: UInt64
    var local: UInt32
    var charged: Bool
  }

  /// Nil when two partitions share an event id or a charged transaction (equal fingerprints
  /// suffice: the single path then decides, exactly); otherwise the transactions several
  /// partitions interned (referenced across subjects), each aliased to its first appearance.
  /// - Complexity: O(strings × partitions).
  static func transactionAliases(_ partitions: [LedgerBuilder]) -> [TransactionAlias]? {
    let count = partitions.count
    var idRuns = [[Print]](repeating: [], count: count)
    var transactionRuns = [[Print]](repeating: [], count: count)
    idRuns.withUnsafeMutableBufferPointer { ids in
      transactionRuns.withUnsafeMutableBufferPointer { transactions in
        nonisolated(unsafe) let ids = ids
        nonisolated(unsafe) let transactions = transactions
        DispatchQueue.concurrentPerform(iterations: count) { p in
          ids[p] = sortedPrints(partitions[p].symbols.ids, charged: [])
          transactions[p] = sortedPrints(
            partitions[p].symbols.transactions, charged: partitions[p].chargeLineByTransaction)
        }
      }
    }
    guard crossGroups(idRuns).isEmpty else { return nil }
    var aliases: [TransactionAlias] = []
    for group in crossGroups(transactionRuns) {
      // A string is interned once per partition: more members than partitions are unequal strings
      // on one 64-bit hash (crafted, or a rare collision), which the single path decides exactly.
      guard group.count <= count else { return nil }
      let chargedIn = Set(group.filter(\.print.charged).map(\.partition))
      guard chargedIn.count < 2 else { return nil }
      // In order of first appearance: each string stands for the first equal one.
      let ordered = group.sorted { a, b in
        let lineA = partitions[a.partition].firstLines.transactions[Int(a.print.local)]
        let lineB = partitions[b.partition].firstLines.transactions[Int(b.print.local)]
        return lineA != lineB ? lineA < lineB : a.partition < b.partition
      }
      for (index, member) in ordered.enumerated() {
        let text = partitions[member.partition].symbols.transactions.string(Symbol(rawValue: member.print.local))
        guard
          let first = ordered[..<index].first(where: {
            partitions[$0.partition].symbols.transactions.string(Symbol(rawValue: $0.print.local)) == text
          })
        else { continue }
        aliases.append(
          TransactionAlias(
            partition: member.partition, local: member.print.local, target: first.partition,
            targetLocal: first.print.local))
      }
    }
    return aliases
  }

  /// The fingerprints of a table's strings, sorted by fingerprint: placed in buckets of their
  /// top bits (hashing each string twice rather than holding a second array), then each small
  /// bucket sorted.
  /// - Complexity: O(n) expected, O(n log n) at worst.
  static func sortedPrints(_ table: SymbolTable, charged: [UInt32]) -> [Print] {
    let n = table.count
    // An empty `unsafeUninitializedCapacity` array writes its count into the one shared empty
    // storage: harmless, but a race to TSan when partitions without strings run at once.
    guard n > 0 else { return [] }
    var bits = 1
    while bits < 16 && (1 << bits) < n { bits += 1 }
    let shift = UInt64(64 - bits)
    // Kept by a partition's tables (`keepHashes`): no span is read back from the log.
    let kept = table.keptHashes ?? []
    func hash(_ local: Int) -> UInt64 {
      kept.count == n ? kept[local] : table.withBytes(Symbol(rawValue: UInt32(local))) { SymbolTable.hash($0) }
    }
    var bucketEnds = [Int](repeating: 0, count: (1 << bits) + 1)
    for local in 0..<n { bucketEnds[Int(hash(local) >> shift) + 1] += 1 }
    for b in 0..<(1 << bits) { bucketEnds[b + 1] += bucketEnds[b] }
    var next = bucketEnds
    var sorted = [Print](unsafeUninitializedCapacity: n) { prints, initialized in
      for local in 0..<n {
        let h = hash(local)
        let b = Int(h >> shift)
        let print = Print(hash: h, local: UInt32(local), charged: local < charged.count && charged[local] != 0)
        (prints.baseAddress! + next[b]).initialize(to: print)
        next[b] += 1
      }
      initialized = n
    }
    for b in 0..<(1 << bits) where bucketEnds[b + 1] - bucketEnds[b] > 1 {
      sorted[bucketEnds[b]..<bucketEnds[b + 1]].sort { $0.hash < $1.hash }
    }
    return sorted
  }

  /// The fingerprints found in two runs or more, each with its members, by merging the sorted runs.
  /// - Complexity: O(total × runs).
  static func crossGroups(_ runs: [[Print]]) -> [[(partition: Int, print: Print)]] {
    var heads = [Int](repeating: 0, count: runs.count)
    var groups: [[(partition: Int, print: Print)]] = []
    while true {
      var lowest: UInt64? = nil
      for p in runs.indices where heads[p] < runs[p].count {
        let hash = runs[p][heads[p]].hash
        if lowest.map({ hash < $0 }) ?? true { lowest = hash }
      }
      guard let hash = lowest else { return groups }
      var members: [(partition: Int, print: Print)] = []
      var runsHolding = 0
      for p in runs.indices where heads[p] < runs[p].count && runs[p][heads[p]].hash == hash {
        runsHolding += 1
        while heads[p] < runs[p].count && runs[p][heads[p]].hash == hash {
          members.append((p, runs[p][heads[p]]))
          heads[p] += 1
        }
      }
      if runsHolding > 1 { groups.append(members) }
    }
  }
}

/// How one partition's symbols map to the merged tables'.
struct SymbolRemap {
  var ids: [UInt32] = []
  var subjects: [UInt32] = []
  var transactions: [UInt32] = []
  var currencies: [UInt32] = []

  /// Rewrites an event's symbols into the merged tables', its `loadingSubject` too when
  /// `loading` (not yet grouped).
  @inline(__always)
  func apply(_ event: inout Event, loading: Bool) {
    event.id = Symbol(rawValue: ids[Int(event.id.rawValue)])
    if loading { event.loadingSubject = Symbol(rawValue: subjects[Int(event.loadingSubject.rawValue)]) }
    if event.transaction.isSome { event.transaction = Symbol(rawValue: transactions[Int(event.transaction.rawValue)]) }
    if event.originalTransaction.isSome {
      event.originalTransaction = Symbol(rawValue: transactions[Int(event.originalTransaction.rawValue)])
    }
    if event.balanceCurrency.isSome {
      event.balanceCurrency = Symbol(rawValue: currencies[Int(event.balanceCurrency.rawValue)])
    }
  }
}

/// The partitions' strings in one set of tables, each string where the single path would have
/// interned it (first appearance in the log), and their events grouped by subject in one array.
struct PartitionMerge {
  /// The merged tables: ids and transactions without look-up slots (a loaded ledger drops them).
  let symbols: LedgerSymbols
  /// Per partition, its symbols in `symbols`.
  let remaps: [SymbolRemap]
  /// Events of merged subject `s` at `s + 1` (0 at 0).
  let subjectCounts: [Int]

  /// Merges the tables of `partitions` (concluded: no id or charged transaction in two of them).
  /// - Complexity: O(strings × partitions + events).
  init(_ partitions: [LedgerBuilder], aliases: [TransactionAlias]) {
    var remaps = [SymbolRemap](repeating: SymbolRemap(), count: partitions.count)
    var symbols = LedgerSymbols(expectedStrings: 16)
    let ids = Self.concatenated(partitions.map(\.symbols.ids), partitions.map(\.firstLines.ids), aliases: [])
    symbols.ids = ids.table
    // Subjects are disjoint: equal strings hash alike and so go to one partition.
    let subjects = Self.concatenated(
      partitions.map(\.symbols.subjects), partitions.map(\.firstLines.subjects), aliases: [])
    guard let subjectTable = SymbolTable.distinct(subjects.table) else {
      preconditionFailure("a subject in two partitions")
    }
    symbols.subjects = subjectTable
    var byPartition = [[UInt32: (Int, UInt32)]](repeating: [:], count: partitions.count)
    for alias in aliases { byPartition[alias.partition][alias.local] = (alias.target, alias.targetLocal) }
    let transactions = Self.concatenated(
      partitions.map(\.symbols.transactions), partitions.map(\.firstLines.transactions), aliases: byPartition)
    symbols.transactions = transactions.table
    var currencyRemaps = partitions.map { [UInt32](repeating: 0, count: $0.symbols.currencies.count) }
    for packed in Self.logOrder(partitions.map(\.firstLines.currencies)) {
      let (p, local) = (Int(packed >> 32), UInt32(truncatingIfNeeded: packed))
      let symbol = partitions[p].symbols.currencies.withBytes(Symbol(rawValue: local)) { symbols.currencies.intern($0) }
      currencyRemaps[p][Int(local)] = symbol.rawValue
    }
    for p in partitions.indices {
      remaps[p] = SymbolRemap(
        ids: ids.remaps[p], subjects: subjects.remaps[p], transactions: transactions.remaps[p],
        currencies: currencyRemaps[p])
    }
    self.symbols = symbols
    self.remaps = remaps
    subjectCounts = Self.subjectCounts(partitions, remaps: remaps, subjects: symbols.subjects.count)
  }

  /// Events per merged subject (at `s + 1`), each partition counting its own subjects.
  private static func subjectCounts(_ partitions: [LedgerBuilder], remaps: [SymbolRemap], subjects: Int) -> [Int] {
    var counts = [Int](repeating: 0, count: subjects + 1)
    counts.withUnsafeMutableBufferPointer { counts in
      // Partitions' subjects are disjoint: each writes its own entries.
      nonisolated(unsafe) let counts = counts
      DispatchQueue.concurrentPerform(iterations: partitions.count) { p in
        let map = remaps[p].subjects
        for event in partitions[p].events { counts[Int(map[Int(event.loadingSubject.rawValue)]) + 1] += 1 }
      }
    }
    return counts
  }

  /// Every partition's events in one array, subject `s`'s from `starts[s]` in line order, in
  /// the merged symbols. Each partition groups its own events in place on its own core (its
  /// subjects' order is their merged order: both are first appearance); then, subject by subject
  /// from the last, each run moves to its place in the first partition's array (reserved for
  /// all), which never overwrites a run not yet moved, as its runs only move right.
  /// - Complexity: O(events).
  func grouped(_ partitions: inout [LedgerBuilder], starts: [Int]) -> [Event] {
    let remaps = remaps
    var owner = [UInt8](repeating: 0, count: starts.count - 1)
    for (p, remap) in remaps.enumerated() { for global in remap.subjects { owner[Int(global)] = UInt8(p) } }
    partitions.withUnsafeMutableBufferPointer { all in
      nonisolated(unsafe) let all = all
      DispatchQueue.concurrentPerform(iterations: all.count) { p in
        let remap = remaps[p]
        var localStarts = [Int](repeating: 0, count: remap.subjects.count + 1)
        for event in all[p].events { localStarts[Int(event.loadingSubject.rawValue) + 1] += 1 }
        for s in 0..<remap.subjects.count { localStarts[s + 1] += localStarts[s] }
        LedgerBuilder.groupBySubject(&all[p].events, starts: localStarts)
        all[p].events.withUnsafeMutableBufferPointer { events in
          for index in events.indices { remap.apply(&events[index], loading: false) }
        }
      }
    }
    var events: [Event] = []
    swap(&events, &partitions[0].events)
    var ends = partitions.map(\.events.count)
    ends[0] = events.count
    events.append(contentsOf: repeatElement(Event(kind: .purchase), count: (starts.last ?? 0) - events.count))
    events.withUnsafeMutableBufferPointer { all in
      for s in stride(from: starts.count - 2, through: 0, by: -1) {
        let p = Int(owner[s])
        let count = starts[s + 1] - starts[s]
        ends[p] -= count
        if p == 0 {
          // Right to left: the run's new place is never left of its old one.
          for k in stride(from: count - 1, through: 0, by: -1) { all[starts[s] + k] = all[ends[0] + k] }
        } else {
          partitions[p].events.withUnsafeBufferPointer { from in
            for k in 0..<count { all[starts[s] + k] = from[ends[p] + k] }
          }
        }
      }
    }
    return events
  }

  /// The partitions' redeliveries that made an event known earlier, in the merged symbols, in line order.
  /// - Complexity: O(k log k) for k such lines.
  func learnedEarlier(_ partitions: [LedgerBuilder]) -> [Event] {
    var lines: [Event] = []
    for p in partitions.indices {
      for var event in partitions[p].learnedEarlier {
        remaps[p].apply(&event, loading: true)
        lines.append(event)
      }
    }
    return lines.sorted { $0.line < $1.line }
  }

  /// The partitions' event details in one table, price currencies in the merged symbols.
  /// - Complexity: O(entries), O(n log n) for n entries when partitions interleave lines.
  func details(_ partitions: [LedgerBuilder]) -> EventDetailTable {
    EventDetailTable.merged(
      partitions.indices.map { p in
        var table = partitions[p].eventDetails
        let map = remaps[p].currencies
        table.remapCurrencies { Symbol(rawValue: map[Int($0.rawValue)]) }
        return table
      })
  }

  /// Every partition's events in one array in the merged symbols, partition after partition
  /// (each in line order), each array let go of once appended.
  /// - Complexity: O(events).
  func combined(_ partitions: inout [LedgerBuilder]) -> [Event] {
    var events: [Event] = []
    events.reserveCapacity(partitions.reduce(0) { $0 + $1.events.count })
    for p in partitions.indices {
      for var event in partitions[p].events {
        remaps[p].apply(&event, loading: true)
        events.append(event)
      }
      partitions[p].events = []
    }
    return events
  }

  /// Every partition's strings in log order (by first line, then partition, then symbol), each
  /// as `partition << 32 | symbol`.
  /// - Complexity: O(strings × partitions).
  static func logOrder(_ firstLines: [[UInt32]]) -> [UInt64] {
    var heads = [Int](repeating: 0, count: firstLines.count)
    var order: [UInt64] = []
    order.reserveCapacity(firstLines.reduce(0) { $0 + $1.count })
    for _ in 0..<order.capacity {
      var best = -1
      var bestLine = UInt32.max
      for p in firstLines.indices where heads[p] < firstLines[p].count {
        let line = firstLines[p][heads[p]]
        if best < 0 || line < bestLine {
          best = p
          bestLine = line
        }
      }
      guard best >= 0 else { break }
      order.append(UInt64(best) << 32 | UInt64(heads[best]))
      heads[best] += 1
    }
    return order
  }

  /// The strings of `tables` in one table without look-up slots, in log order (an aliased string
  /// only once, at its target), with each partition's symbol map. Log spans are copied as spans
  /// (8 bytes each), text as text.
  /// - Complexity: O(strings × partitions + text bytes).
  private static func concatenated(
    _ tables: [SymbolTable], _ firstLines: [[UInt32]], aliases: [[UInt32: (Int, UInt32)]]
  ) -> (table: SymbolTable, remaps: [[UInt32]]) {
    var table = SymbolTable(capacity: 0)
    table.dropIndex()
    if let source = tables.lazy.compactMap(\.logSource).first { table.attach(source) }
    var remaps = tables.map { [UInt32](repeating: 0, count: $0.count) }
    for packed in logOrder(firstLines) {
      let p = Int(packed >> 32)
      let local = UInt32(truncatingIfNeeded: packed)
      if !aliases.isEmpty && !aliases[p].isEmpty, let (target, targetLocal) = aliases[p][local] {
        remaps[p][Int(local)] = remaps[target][Int(targetLocal)]
        continue
      }
      remaps[p][Int(local)] = UInt32(table.count)
      table.appendUnindexed(from: tables[p], Symbol(rawValue: local))
    }
    return (table, remaps)
  }
}
