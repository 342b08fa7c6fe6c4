import Dispatch

// The partitioned load (issue 25): a file's lines go to partitions by subject hash, each
// interning and admitting its own subjects' lines in line order on its own core. Answers depend
// on one subject's events only, so a partition decides its lines as the single path would,
// unless two partitions share a key of a log-wide rule: an event id (any id used by two subjects)
// or a transaction charged in both. Those are found at the end by merging sorted runs of
// fingerprints (`PartitionKeys`); only an invalid log has one, and it is then loaded again on
// the single path, which words and orders its errors as always. Otherwise the partitions'
// errors join in line order and `PartitionMerge` puts their strings and events in the single
// path's order, so the ledger is the same value whatever the number of partitions.

extension LedgerBuilder {
  /// The most partitions a load uses.
  package static let partitionsMax = 8
  /// Partitions when `partitionCount` is nil: `STORELEDGER_PARTITIONS` if set, else 1 (the single path).
  ///
  /// Opt-in: on 2 processors the partitioned load measured 1.28× the single path's CPU and wall
  /// time (Docs/performance.md, "The partitioned builder"), as the parse workers already keep most
  /// of both busy; on more processors it is not measured yet, so it is not a default anywhere.
  static var defaultPartitionCount: Int {
    guard let text = PlatformFile.environment("STORELEDGER_PARTITIONS"), let count = Int(text) else { return 1 }
    return count
  }

  /// The partitions a file load uses: `partitionCount`, or `defaultPartitionCount`; 1 when this builder
  /// already holds anything (a restored base, a shard, lines or strings), which only the single path extends.
  var partitionsWanted: Int {
    let fresh =
      base == nil && shard == nil && linesRead == 0 && events.isEmpty && errorCount == 0
      && symbols.ids.count == 0 && symbols.subjects.count == 0 && symbols.transactions.count == 0
    guard fresh else { return 1 }
    return min(Self.partitionsMax, max(1, partitionCount ?? Self.defaultPartitionCount))
  }

  /// Whether lines go to partitions.
  var isPartitioned: Bool { !partitions.isEmpty }

  /// Ids of lines added next from the log `source` are kept as spans of it (`SymbolTable.attach`),
  /// in this builder and its partitions. Transactions stay text: answers (a status's plans) and
  /// the snapshot's readable timeline print them per subscription, in no log order, which would
  /// cost a read each (Docs/decisions.md, "Ids as references into the log").
  mutating func attach(_ source: LogSource) {
    symbols.ids.attach(source)
    for p in partitions.indices { partitions[p].attach(source) }
  }

  /// Sends the lines fed next to `count` partitions by subject hash.
  mutating func startPartitions(count: Int) {
    precondition(count > 1 && partitions.isEmpty && partitionsWanted > 1, "partitions start on a fresh builder")
    partitions = (0..<count).map { _ in
      var partition = LedgerBuilder(catalog: catalog, file: file)
      // Their id fingerprints are merged at the end without reading spans back from the log.
      partition.symbols.ids.keepHashes()
      // The catalog's currencies are interned before any line (line 0).
      partition.firstLines.note(partition.symbols, line: 0)
      return partition
    }
  }

  /// Adds a parsed block: its failures here, its events by the partitions of their subjects, in parallel.
  mutating func add(
    partitioning lines: ParsedLines, owners: [LineOwner], buffer: UnsafeBufferPointer<UInt8>,
    scratch: UnsafeBufferPointer<UInt8>
  ) {
    precondition(owners.count == lines.events.count, "one owner per event")
    linesRead += lines.count
    for (_, line) in lines.others {
      if case .failure(var diagnostic) = line {
        diagnostic.file = file
        record(diagnostic)
      }
    }
    let count = partitions.count
    let blockOffset = blockOffset
    nonisolated(unsafe) let buffer = buffer
    nonisolated(unsafe) let scratch = scratch
    lines.events.withUnsafeBufferPointer { events in
      nonisolated(unsafe) let events = events
      partitions.withUnsafeMutableBufferPointer { all in
        // Each worker touches only its own partition.
        nonisolated(unsafe) let all = all
        DispatchQueue.concurrentPerform(iterations: count) { p in
          all[p].blockOffset = blockOffset
          all[p].admit(events, owners: owners, partition: p, of: count, buffer: buffer, scratch: scratch)
        }
      }
    }
  }

  /// In a partition: interns and admits the events of its subjects, in line order, prefetching
  /// the table slots of its own events 6 of them ahead.
  private mutating func admit(
    _ events: UnsafeBufferPointer<PendingEvent>, owners: [LineOwner], partition: Int, of count: Int,
    buffer: UnsafeBufferPointer<UInt8>, scratch: UnsafeBufferPointer<UInt8>
  ) {
    let mine = UInt8(partition)
    // The next event the look-ahead inspects, and how many of this partition's events it prefetched
    // that are still ahead.
    var ahead = 0
    var prefetched = 0
    for index in owners.indices where owners[index].partition == mine {
      if ahead <= index {
        ahead = index + 1
        prefetched = 0
      } else if prefetched > 0 {
        prefetched -= 1
      }
      while prefetched < 6 && ahead < owners.count {
        if owners[ahead].partition == mine {
          symbols.ids.prefetch(hash: owners[ahead].idHash)
          if owners[ahead].transactionHash != 0 { symbols.transactions.prefetch(hash: owners[ahead].transactionHash) }
          prefetched += 1
        }
        ahead += 1
      }
      let interned = events[index].interned(into: &symbols, buffer: buffer, scratch: scratch, blockOffset: blockOffset)
      firstLines.note(symbols, line: interned.event.line)
      _ = admit(interned.event, details: interned.details)
    }
  }

  /// After the last line: false when two partitions share an event id or a charged transaction
  /// (the log must be loaded on the single path); otherwise the partitions' errors join this
  /// builder's in line order, with their counts.
  /// - Complexity: O(strings interned), on every core.
  mutating func concludePartitions() -> Bool {
    guard let aliases = PartitionKeys.transactionAliases(partitions) else { return false }
    transactionAliases = aliases
    var all = errors
    for p in partitions.indices {
      all += partitions[p].errors
      errorCount += partitions[p].errorCount
      duplicatesSkipped += partitions[p].duplicatesSkipped
      warnings += partitions[p].warnings
      partitions[p].errors = []
      partitions[p].warnings = []
    }
    // One error per line at most at this point (a line fails to parse or is refused, once).
    errors = Array(all.sorted { ($0.line ?? Int.max) < ($1.line ?? Int.max) }.prefix(Limits.diagnosticsShownMax))
    return true
  }
}

extension LedgerBuilder {
  /// Takes a partitioned load's results back into this builder, so lines added next (an append
  /// after its log was loaded) are admitted here: the merged tables (with look-up slots), every
  /// event, and which event holds each id and which line charged each transaction.
  /// - Complexity: O(strings × partitions + events); nothing when not partitioned.
  mutating func unpartition() {
    guard !partitions.isEmpty else { return }
    precondition(partitions.allSatisfy { $0.errors.isEmpty }, "partitions are merged once concluded")
    let merge = PartitionMerge(partitions, aliases: transactionAliases)
    symbols = merge.symbols
    learnedEarlier = merge.learnedEarlier(partitions)
    eventDetails = merge.details(partitions)
    symbols.ids.rebuildIndex()
    symbols.transactions.rebuildIndex()
    events = merge.combined(&partitions)
    partitions = []
    eventIndexByID = [UInt32](repeating: UInt32.max, count: symbols.ids.count)
    chargeLineByTransaction = [UInt32](repeating: 0, count: symbols.transactions.count)
    for (index, event) in events.enumerated() {
      eventIndexByID[Int(event.id.rawValue)] = UInt32(index)
      if event.kind.isCharge { chargeLineByTransaction[Int(event.transaction.rawValue)] = event.line }
    }
  }
}

/// Where each interned string of a partition first appeared, so the merge puts strings in log order.
struct SymbolFirstLines {
  var ids: [UInt32] = []
  var subjects: [UInt32] = []
  var transactions: [UInt32] = []
  var currencies: [UInt32] = []

  /// Gives every string interned since the last call the line `line` (0: before any line).
  @inline(__always)
  mutating func note(_ symbols: LedgerSymbols, line: UInt32) {
    Self.extend(&ids, to: symbols.ids.count, line)
    Self.extend(&subjects, to: symbols.subjects.count, line)
    Self.extend(&transactions, to: symbols.transactions.count, line)
    Self.extend(&currencies, to: symbols.currencies.count, line)
  }

  @inline(__always)
  private static func extend(_ lines: inout [UInt32], to count: Int, _ line: UInt32) {
    while lines.count < count { lines.append(line) }
  }
}

/// Where a parsed event goes when a load is partitioned, and the slots its partition prefetches.
struct LineOwner {
  /// The partition of its subject.
  var partition: UInt8
  /// `SymbolTable.hash` of its id.
  var idHash: UInt64
  /// `SymbolTable.hash` of its transaction (0: none).
  var transactionHash: UInt64

  /// The owner of an event line among `partitionCount` partitions.
  init(_ pending: PendingEvent, partitionCount: Int) {
    partition = UInt8(LedgerBuilder.partition(ofSubjectHash: pending.subject.hash, count: partitionCount))
    idHash = pending.id.hash
    transactionHash = pending.transaction.ref.isPresent ? pending.transaction.hash : 0
  }
}

extension LedgerBuilder {
  /// The partition (of `count`) of a subject with this `SymbolTable.hash`: from the hash's high
  /// half, so each partition's tables, indexed by the low bits, still spread over all their slots.
  @inline(__always)
  static func partition(ofSubjectHash hash: UInt64, count: Int) -> Int {
    Int(truncatingIfNeeded: ((hash >> 32) &* UInt64(count)) >> 32)
  }
}
