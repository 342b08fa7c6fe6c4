import StoreLedger

/// Generates deterministic, production-like logs (Docs/log-format.md) for tests and benchmarks.
///
/// Subjects are simulated in batches of about `subjectsPerBatch`; each batch's
/// lines are written in delivery order (the order the ledger learned of them),
/// so a log is a sequence of batches, each interleaving its subjects in time.
/// Faults of real pipelines are part of the story: some lines arrive late with
/// `recorded` (seconds late, or days to weeks for late knowledge), so a subject's
/// lines are not in `at` order, and a few are redelivered later as exact
/// duplicates. Every line is valid under Docs/log-format.md with `catalogJSON`: ids and
/// transactions are unique, every expiry follows its `at`, spending never
/// overdraws, and no event names a transaction its subject does not have yet.
///
/// With usage (`options.usage`), most lines are `usage` events of the policy in
/// `policyCatalogJSON`: sessions of uses, releases of held items, limits reached by free
/// users and a few leaks; they go through the same pipeline faults.
///
/// Memory is bounded by one batch (about 12,000 events without usage, at most
/// `eventsPerBatchMax` plus one household), never by the log.
package struct LogGenerator: Sendable {
  /// What to generate.
  package let options: GeneratorOptions

  /// Subjects simulated before a batch is sorted and written; a household is never split.
  package static let subjectsPerBatch = 1024
  /// A batch ends early once it holds this many events (heavy usage fills batches fast).
  package static let eventsPerBatchMax = 1 << 20
  /// Most bytes passed to the sink in one call.
  package static let chunkBytesMax = 1 << 20

  /// A generator for `options`, which must be valid (`options.problem == nil`).
  package init(options: GeneratorOptions) {
    if let problem = options.problem { preconditionFailure("invalid GeneratorOptions: \(problem)") }
    self.options = options
  }

  /// Writes the log to `sink` and returns what was written.
  ///
  /// Each call of `sink` receives one or more complete lines, each ending in
  /// `\n`, at most `chunkBytesMax` bytes in all; the bytes are valid only during
  /// the call. Calling `generate` again writes the same bytes.
  /// - Complexity: O(n log b) for n events and batches of b events; memory O(b).
  @discardableResult
  package func generate<Failure: Error>(
    _ sink: (UnsafeRawBufferPointer) throws(Failure) -> Void
  ) throws(Failure) -> GeneratorStats {
    let encoder = LineEncoder(seed: options.seed)
    let buffer = UnsafeMutableRawBufferPointer.allocate(
      byteCount: Self.chunkBytesMax, alignment: MemoryLayout<UInt64>.alignment)
    defer { buffer.deallocate() }
    let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
    let flushAt = Self.chunkBytesMax - LineEncoder.lineBytesMax
    var used = 0
    var stats = GeneratorStats()
    try forEachDelivered { (event, batchFirst, latestAt) throws(Failure) in
      if used > flushAt {
        try sink(UnsafeRawBufferPointer(rebasing: buffer[0..<used]))
        used = 0
      }
      let written = encoder.write(event, to: base + used)
      used += written
      stats.count(event, bytes: written, latestAt: &latestAt, batchFirst: batchFirst)
    }
    if used > 0 { try sink(UnsafeRawBufferPointer(rebasing: buffer[0..<used])) }
    return stats
  }

  /// The same log as typed events (`NewEvent`), in the order `generate` writes their lines,
  /// redeliveries included: what each line holds, for a caller that wants values, not bytes.
  /// - Complexity: as `generate`, plus a `NewEvent` per event.
  package func forEachEvent<Failure: Error>(_ body: (NewEvent) throws(Failure) -> Void) throws(Failure) {
    let encoder = LineEncoder(seed: options.seed)
    try forEachDelivered { (event, _, _) throws(Failure) in try body(encoder.newEvent(event)) }
  }

  /// Simulates the households batch by batch and hands each event to `body` in delivery order,
  /// with its batch's first subject and the latest `at` seen per subject of the batch.
  /// - Complexity: O(n log b) for n events and batches of b events; memory O(b).
  private func forEachDelivered<Failure: Error>(
    _ body: (GeneratedEvent, _ batchFirst: Int, _ latestAt: inout [Int64]) throws(Failure) -> Void
  ) throws(Failure) {
    let endAt = ISODuration("P\(options.months)M")!.added(to: options.start).millisecondsSinceEpoch
    var simulator = HouseholdSimulator(options: options, endAt: endAt)
    // Sort keys: delivery time above the event's index in the batch, so that
    // equal delivery times keep generation order (a redelivery after its original).
    let indexBits: UInt64 = 22
    let origin = options.start.millisecondsSinceEpoch - 30 * Span.day
    var keys: [UInt64] = []
    var latestAt: [Int64] = []
    var next = 0
    while next < options.subjects {
      let batchFirst = next
      simulator.beginBatch()
      while next < options.subjects, next - batchFirst < Self.subjectsPerBatch,
        simulator.events.count < Self.eventsPerBatchMax
      {
        next += simulator.simulateHousehold(
          firstSubject: UInt32(next), subjectsLeft: options.subjects - next)
      }
      let events = simulator.events
      precondition(
        events.count < 1 << indexBits, "batch of \(events.count) events exceeds the sort key")
      keys.removeAll(keepingCapacity: true)
      for index in events.indices {
        let delivery = events[index].deliveredAt - origin
        precondition(delivery >= 0, "delivery \(delivery) before the key origin")
        keys.append(UInt64(delivery) << indexBits | UInt64(index))
      }
      keys.sort()
      latestAt.removeAll(keepingCapacity: true)
      latestAt.append(contentsOf: repeatElement(Int64.min, count: next - batchFirst))
      for key in keys {
        try body(events[Int(key & (1 << indexBits - 1))], batchFirst, &latestAt)
      }
    }
  }
}
