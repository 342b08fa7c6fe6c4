/// Decodes a snapshot restore section's records (`RecordCoding`) subject by subject and checks
/// what the fold relies on, so a damaged (but digested) record is an error, never a crash:
/// indices inside their tables, instants a log can hold, slots and kinds as the loader leaves them.
///
/// In the core beside `Event`, not in `Snapshot/`, so `Event`'s accessors inline into this loop
/// (`@inlinable package` ones are not inlined across targets; Docs/performance.md, "Restore, round 3").
package struct RecordChecks {
  /// The restore section's bytes (records, extras), read in place.
  let bytes: UnsafeRawBufferPointer
  /// The snapshot's name in errors.
  let file: String
  let catalog: Catalog
  /// Strings in the ids, transactions and currencies tables.
  let idCount: Int
  let transactionCount: Int
  let currencyCount: Int
  let productCount: UInt32
  /// The value rules each record must keep, as the parser keeps them.
  let rules: ValueRules

  /// Checks against `catalog` and the section's table sizes `counts` (subjects, ids, transactions, currencies).
  package init(section bytes: UnsafeRawBufferPointer, file: String, catalog: Catalog, counts: [Int]) {
    self.bytes = bytes
    self.file = file
    self.catalog = catalog
    idCount = counts[1]
    transactionCount = counts[2]
    currencyCount = counts[3]
    productCount = UInt32(catalog.products.count)
    rules = ValueRules(catalog: catalog)
  }

  /// The error for a restore section that is not what its writer makes, with `detail` saying what.
  package static func damaged(file: String, _ detail: String) -> Diagnostic {
    Diagnostic(file: file, .snapshotMismatch("not a valid snapshot: restore section: \(detail)"))
  }

  private func fail(_ detail: String) -> Diagnostic { Self.damaged(file: file, detail) }

  /// What a run of subjects decodes to besides its events.
  package struct Part {
    /// Each subject's subscription count.
    package var subscriptions: [UInt32] = []
    /// The latest `at` of the run.
    package var latest = Timestamp.distantPast
    /// The run's prices and meta hashes, by line (in record order until merged).
    package var details = EventDetailTable()
    /// One bit per id of the ids table, set for each id a record of the run holds: a bit set
    /// twice is refused in the run, and runs' sets that overlap are refused by the caller.
    package var idsSeen: [UInt64] = []
    /// The run's subjects with a `transfer` among their records, ascending: settling the owners
    /// then reads only these subjects' events, not every event (`Ledger.settleOwners`).
    package var transferSubjects: [Symbol] = []
  }

  /// Decodes the records of `subjects` into their places in `out`: records start at `recordsAt`
  /// and extras at `extrasAt` of the section, each subject's ends (record, extras byte) in `ends`.
  /// - Complexity: O(records).
  package func decode(
    subjects: Range<Int>, ends: [(records: Int, extras: Int)], recordsAt: Int, extrasAt: Int,
    into out: UnsafeMutableBufferPointer<Event>
  ) throws(Diagnostic) -> Part {
    var part = Part()
    part.subscriptions.reserveCapacity(subjects.count)
    // A bit per id (a few hundred KB for millions) stays in cache, unlike a byte per id.
    part.idsSeen = [UInt64](repeating: 0, count: (idCount + 63) / 64)
    for subject in subjects {
      let start = subject == 0 ? (records: 0, extras: 0) : ends[subject - 1]
      var extras = extrasAt + start.extras
      let symbol = Symbol(rawValue: UInt32(subject))
      let records = start.records..<ends[subject].records
      part.subscriptions.append(
        try self.subject(
          symbol, records: records, recordsAt: recordsAt, extras: &extras, extrasEnd: extrasAt + ends[subject].extras,
          latest: &part.latest, details: &part.details, idsSeen: &part.idsSeen, into: out))
      // The subject's records were just written, so this reads them from cache.
      if out[records].contains(where: { $0.kind == .transfer }) { part.transferSubjects.append(symbol) }
    }
    return part
  }

  /// Decodes `subject`'s `records` into `out` and returns its subscription count.
  /// - Complexity: O(records).
  func subject(
    _ subject: Symbol, records: Range<Int>, recordsAt: Int, extras: inout Int, extrasEnd: Int,
    latest: inout Timestamp, details: inout EventDetailTable, idsSeen: inout [UInt64],
    into out: UnsafeMutableBufferPointer<Event>
  ) throws(Diagnostic) -> UInt32 {
    var subscriptions: UInt32 = 0
    for index in records {
      let position = index - records.lowerBound
      guard
        let (e, d) = RecordCoding.decode(
          bytes, at: recordsAt + index * RecordCoding.recordBytes, extras: &extras, extrasEnd: extrasEnd),
        check(e, d, position: position), !d.priceCurrency.isSome || Int(d.priceCurrency.rawValue) < currencyCount
      else { throw fail("record \(index) (subject \(subject.rawValue), event \(position + 1)) is damaged") }
      // `check` keeps the id inside the table.
      let (word, bit) = (Int(e.id.rawValue) >> 6, UInt64(1) << UInt64(e.id.rawValue & 63))
      guard idsSeen[word] & bit == 0 else { throw fail("record \(index) repeats the id of an earlier record") }
      idsSeen[word] |= bit
      if e.at > latest { latest = e.at }
      if isSubscriptionEvent(e) { subscriptions = max(subscriptions, e.slot &+ 1) }
      out[index] = e
      if !d.isEmpty { details.set(d, line: e.line) }
    }
    guard extras == extrasEnd else {
      throw fail("subject \(subject.rawValue): its records use \(extrasEnd - extras) bytes of extras fewer than it says")
    }
    let count = records.count
    guard count <= Limits.eventsPerSubjectMax, subscriptions <= UInt32(count) else {
      throw fail("subject \(subject.rawValue): \(count) events and \(subscriptions) subscriptions, expected at most \(Limits.eventsPerSubjectMax) events and no more subscriptions than events")
    }
    for index in records where out[index].kind.isRefund {
      let e = out[index]
      guard e.targetProduct.isSome else { continue }
      let bound = catalog.kind(e.targetProduct) == .autoRenewable ? Int(subscriptions) : count
      guard Int(e.slot) < bound else { throw fail("subject \(subject.rawValue): a refund targets a purchase it does not have") }
    }
    return subscriptions
  }

  /// Whether `e` counts toward its subject's subscriptions (its slot is a subscription's).
  func isSubscriptionEvent(_ e: Event) -> Bool {
    if e.kind.scope.contains(.subscription) { return true }
    return e.kind.isCharge && catalog.kind(e.product) == .autoRenewable
  }

  /// Whether the record's indices, instants and numbers are ones the loader could have made.
  func check(_ e: Event, _ details: EventDetails, position: Int) -> Bool {
    func inside(_ symbol: Symbol, _ count: Int) -> Bool { !symbol.isSome || Int(symbol.rawValue) < count }
    func inside(_ product: ProductIndex) -> Bool { !product.isSome || product.rawValue < productCount }
    guard e.id.isSome, Int(e.id.rawValue) < idCount,
      inside(e.transaction, transactionCount), inside(e.originalTransaction, transactionCount),
      inside(e.balanceCurrency, currencyCount), inside(e.product), inside(e.targetProduct),
      e.line >= 1, Int(e.line) <= Limits.linesMax,
      e.slot == UInt32.max || e.slot <= UInt32(Limits.eventsPerSubjectMax),
      e.at.isReadable, e.recorded.isReadable, e.expires.isReadable,
      e.hasRequiredValues
    else { return false }
    return checkKind(e, details, position: position)
  }

  /// Checks what the fold of `e`'s kind relies on: its kind's value rules (`ValueRules`, as the
  /// parser checks them), the references its kind keeps, and its slot as `Resolver` leaves it.
  @inline(__always)
  private func checkKind(_ e: Event, _ details: EventDetails, position: Int) -> Bool {
    if e.isAccess || e.isTransfer {
      guard e.transaction.isSome, !e.isTransfer || e.originalTransaction.isSome else { return false }
    }
    guard Resolver.isResolved(e, position: position, catalog: catalog) else { return false }
    return rules.problem(e, details, present: ValueRules.storedFields(e, details)) == nil
  }
}
