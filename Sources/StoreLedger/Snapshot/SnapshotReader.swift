import StoreLedgerCore
import Dispatch

/// Restores a `Ledger` from snapshot bytes written by `SnapshotWriter`.
///
/// A small pull parser over our own format: the event records are integer
/// columns and the strings come as tables in symbol order, so restoring does no
/// field matching, no timestamp parsing and no interning look-ups. The readable
/// timeline is skipped. Every index is range-checked, so a damaged snapshot is an
/// error, never a crash.
package enum SnapshotReader {
  /// Reads only the header (the sections before `state`), to start digesting the log early;
  /// also returns how many leading bytes of the file restoring needs.
  package static func header(_ bytes: [UInt8], file: String) throws(Diagnostic) -> (
    header: SnapshotHeader, restoreBytes: Int64
  ) {
    try bytes.withUnsafeBufferPointer { (buffer) throws(Diagnostic) in
      var parser = SnapshotParser(p: buffer, file: file, catalog: Catalog(products: []))
      let leading = try parser.headerOnly()
      return (leading.header, leading.restoreBytes)
    }
  }

  /// Reads a snapshot; `file` names it in errors.
  /// - Complexity: O(snapshot size).
  package static func read(_ bytes: [UInt8], file: String, catalog: Catalog) throws(Diagnostic) -> (
    ledger: Ledger, header: SnapshotHeader
  ) {
    try bytes.withUnsafeBufferPointer { (buffer) throws(Diagnostic) in try read(buffer, file: file, catalog: catalog) }
  }

  /// Reads a snapshot from bytes in memory (for example a mapped file).
  ///
  /// The string tables are parsed on a second thread while the records are decoded:
  /// a raw `\n  "strings": {` can only appear where that section begins, because JSON
  /// strings cannot hold a raw newline.
  ///
  /// `release` (given for a mapped file) is told of byte ranges the reader is done with, about
  /// every `releaseStepBytes`, so a mapped snapshot never counts whole as resident memory.
  /// `spareEvents` reserves room for that many events after the restored ones (a log's tail),
  /// so extending the ledger does not regrow its event array.
  package static func read(
    _ buffer: UnsafeBufferPointer<UInt8>, file: String, catalog: Catalog, spareEvents: Int = 0,
    release: (@Sendable (Range<Int>) -> Void)? = nil
  ) throws(Diagnostic) -> (ledger: Ledger, header: SnapshotHeader) {
    var peek = SnapshotParser(p: buffer, file: file, catalog: catalog)
    let leading = try peek.headerOnly()
    // Nothing the prefix says is trusted before its digest matches.
    guard leading.restoreBytes <= Int64(buffer.count), leading.contentDigestAt >= 0,
      leading.contentDigestAt + SnapshotSeal.hexDigits <= Int(leading.restoreBytes)
    else { throw peek.fail("shorter than its 'restore_bytes' says") }
    let buffer = UnsafeBufferPointer(rebasing: buffer[0..<Int(leading.restoreBytes)])
    guard digest(buffer, digestAt: leading.contentDigestAt, release: release) == leading.contentDigest
    else {
      throw Diagnostic(
        file: file,
        .snapshotMismatch(
          "not a valid snapshot: its content does not match its 'restore_sha256' (the file was damaged or edited); make a new snapshot"))
    }
    let stringsAt = leading.stringsAt
    guard stringsAt > 0, stringsAt < buffer.count, buffer[stringsAt] == 32 else {
      throw peek.fail("'restore_strings_at' does not point at the strings section")
    }
    final class TablesBox: @unchecked Sendable {
      var result: Result<LedgerSymbols, Diagnostic> = .success(LedgerSymbols())
    }
    let box = TablesBox()
    let group = DispatchGroup()
    nonisolated(unsafe) let shared = buffer
    DispatchQueue.global().async(group: group) {
      var parser = SnapshotParser(p: shared, file: file, catalog: catalog)
      parser.i = stringsAt
      parser.release = release
      parser.releasedUpTo = stringsAt
      do throws(Diagnostic) {
        parser.skipWhitespace()
        _ = try parser.text()
        try parser.expect(58)
        try parser.stringsSection()
        box.result = .success(parser.symbols)
      } catch {
        box.result = .failure(error)
      }
    }
    var parser = SnapshotParser(p: buffer, file: file, catalog: catalog)
    parser.stringsElsewhere = true
    parser.release = release
    parser.spareEvents = max(0, spareEvents)
    let outcome = Result { () throws(Diagnostic) in try parser.document() }
    group.wait()
    let tables = try box.result.get()
    _ = try outcome.get()
    parser.symbols.ids = tables.ids
    parser.symbols.transactions = tables.transactions
    parser.symbols.currencies = tables.currencies
    return try parser.finish()
  }

  /// Bytes read between two calls of a reader's `release`.
  static let releaseStepBytes = 8 << 20

  /// `SnapshotSeal.digest` of the restore prefix, read in steps that are released once hashed.
  /// - Complexity: O(buffer.count).
  static func digest(
    _ buffer: UnsafeBufferPointer<UInt8>, digestAt: Int, release: (@Sendable (Range<Int>) -> Void)?
  ) -> SHA256Digest {
    guard let release else { return SnapshotSeal.digest(UnsafeRawBufferPointer(buffer), digestAt: digestAt) }
    let raw = UnsafeRawBufferPointer(buffer)
    var hasher = SHA256()
    var from = 0
    // The digest's own hex digits are left out (`SnapshotSeal`).
    for (lower, upper) in [(0, digestAt), (digestAt + SnapshotSeal.hexDigits, raw.count)] {
      from = lower
      while from < upper {
        let to = min(upper, from + releaseStepBytes)
        hasher.update(UnsafeRawBufferPointer(rebasing: raw[from..<to]))
        release(from..<to)
        from = to
      }
    }
    return hasher.finalize()
  }
}

private struct SnapshotParser {
  let p: UnsafeBufferPointer<UInt8>
  let file: String
  let catalog: Catalog
  var i = 0
  var symbols = LedgerSymbols()
  var events: [Event] = []
  var subjectStarts: [UInt32] = [0]
  var subscriptionCounts: [UInt32] = []
  var latest = Timestamp.distantPast
  var scratch: [UInt8] = []
  var decoded: [UInt8] = []
  /// Set when another thread parses `strings`: stop there.
  var stringsElsewhere = false
  /// Told of ranges of `p` this parser is done with (see `SnapshotReader.read`).
  var release: (@Sendable (Range<Int>) -> Void)? = nil
  /// Where the range not yet released begins.
  var releasedUpTo = 0
  /// Events to reserve room for beyond the snapshot's (see `SnapshotReader.read`).
  var spareEvents = 0

  /// Releases what was read since the last release, once a step's worth has been read.
  mutating func releaseRead() {
    guard let release, i - releasedUpTo >= SnapshotReader.releaseStepBytes else { return }
    release(releasedUpTo..<i)
    releasedUpTo = i
  }
  var header: SnapshotHeader? = nil

  init(p: UnsafeBufferPointer<UInt8>, file: String, catalog: Catalog) {
    self.p = p
    self.file = file
    self.catalog = catalog
  }

  func fail(_ detail: String) -> Diagnostic {
    var line = 1
    for k in 0..<min(i, p.count) where p[k] == 10 { line += 1 }
    return Diagnostic(file: file, line: line, .snapshotMismatch("not a valid snapshot: \(detail)"))
  }

  mutating func skipWhitespace() {
    while i < p.count, p[i] == 32 || p[i] == 10 || p[i] == 13 || p[i] == 9 { i += 1 }
  }

  mutating func expect(_ c: UInt8) throws(Diagnostic) {
    skipWhitespace()
    guard i < p.count, p[i] == c else { throw fail("expected '\(Character(Unicode.Scalar(c)))'") }
    i += 1
  }

  /// True when the next token is `c` (consumed).
  mutating func take(_ c: UInt8) -> Bool {
    skipWhitespace()
    if i < p.count, p[i] == c {
      i += 1
      return true
    }
    return false
  }

  mutating func string() throws(Diagnostic) -> [UInt8] {
    try expect(34)
    scratch.removeAll(keepingCapacity: true)
    switch JSONScan.string(p, from: i, end: p.count, into: &scratch) {
    case .success(let end): i = end
    case .failure(let failure):
      i = failure.offset
      throw fail(failure.detail)
    }
    return scratch
  }

  mutating func text() throws(Diagnostic) -> String {
    String(decoding: try string(), as: UTF8.self)
  }

  mutating func integer() throws(Diagnostic) -> Int64 {
    skipWhitespace()
    var negative = false
    if i < p.count, p[i] == 45 {
      negative = true
      i += 1
    }
    var value: Int64 = 0
    var digits = 0
    while i < p.count, p[i] &- 48 < 10 {
      let (tens, overTens) = value.multipliedReportingOverflow(by: 10)
      let (next, overNext) = tens.addingReportingOverflow(Int64(p[i] &- 48))
      guard digits < 19, !overTens, !overNext else { throw fail("number too long") }
      value = next
      digits += 1
      i += 1
    }
    guard digits > 0 else { throw fail("expected an integer") }
    return negative ? -value : value
  }

  mutating func skipValue() throws(Diagnostic) {
    skipWhitespace()
    guard i < p.count else { throw fail("unexpected end") }
    switch p[i] {
    case 123, 91:
      let close: UInt8 = p[i] == 123 ? 125 : 93
      i += 1
      if take(close) { return }
      repeat {
        if close == 125 {
          _ = try string()
          try expect(58)
        }
        try skipValue()
      } while take(44)
      try expect(close)
    case 34:
      _ = try string()
    default:
      while i < p.count, !(p[i] == 44 || p[i] == 125 || p[i] == 93 || p[i] == 32 || p[i] == 10) { i += 1 }
    }
  }

  /// Iterates object members, calling `body` with each key.
  mutating func members(_ body: (inout SnapshotParser, String) throws(Diagnostic) -> Void) throws(Diagnostic) {
    try expect(123)
    if take(125) { return }
    repeat {
      let key = try text()
      try expect(58)
      try body(&self, key)
    } while take(44)
    try expect(125)
  }

  /// Appends the next JSON string's bytes to `arena`: plain ASCII is copied, anything else decoded.
  mutating func appendString(to arena: inout [UInt8]) throws(Diagnostic) {
    try expect(34)
    let start = i
    while i < p.count, p[i] != 34, p[i] != 92, p[i] >= 0x20, p[i] < 0x80 { i += 1 }
    if i < p.count, p[i] == 34 {
      arena.append(contentsOf: UnsafeBufferPointer(rebasing: p[start..<i]))
      i += 1
    } else {
      i = start - 1
      arena.append(contentsOf: try string())
    }
  }

  /// A table of distinct strings in symbol order, built without look-ups.
  mutating func stringTable(_ path: WritableKeyPath<LedgerSymbols, SymbolTable>) throws(Diagnostic) {
    var arena: [UInt8] = []
    arena.reserveCapacity(p.count - i)
    var starts: [UInt32] = [0]
    try expect(91)
    if !take(93) {
      repeat {
        try appendString(to: &arena)
        guard arena.count < Int(UInt32.max) else { throw fail("string table too large") }
        starts.append(UInt32(arena.count))
        if starts.count & 4095 == 0 { releaseRead() }
      } while take(44)
      try expect(93)
    }
    guard let table = SymbolTable.distinct(arena: arena, starts: starts) else {
      throw fail("repeated string in a string table")
    }
    symbols[keyPath: path] = table
  }

  /// Parses the leading sections (sorted keys put `catalog`, `format`, `log` and
  /// `restore_bytes` first).
  mutating func headerOnly() throws(Diagnostic) -> LeadingSections {
    var fields = HeaderFields()
    try expect(123)
    while true {
      let key = try text()
      try expect(58)
      if try !headerField(key, into: &fields) { try skipValue() }
      if key == "format" && fields.format != SnapshotHeader.format {
        throw fail("format is '\(fields.format)', expected '\(SnapshotHeader.format)': make a new snapshot")
      }
      if fields.format == SnapshotHeader.format, let catalogDigest = fields.catalogDigest,
        let logDigest = fields.logDigest, let contentDigest = fields.contentDigest, fields.lines >= 0,
        fields.bytes >= 0, fields.restoreBytes > 0, fields.stringsAt > 0
      {
        return LeadingSections(
          header: SnapshotHeader(
            lines: Int(fields.lines), bytes: fields.bytes, logDigest: logDigest, catalogDigest: catalogDigest,
            events: 0, duplicatesSkipped: 0),
          restoreBytes: fields.restoreBytes, stringsAt: Int(clamping: fields.stringsAt),
          contentDigest: contentDigest, contentDigestAt: fields.contentDigestAt)
      }
      guard take(44) else {
        throw fail("missing 'catalog', 'format', 'log', 'restore_bytes', 'restore_sha256' or 'restore_strings_at'")
      }
    }
  }

  /// What the sections before `state` say, and where the content digest's hex digits are.
  struct LeadingSections {
    var header: SnapshotHeader
    var restoreBytes: Int64
    var stringsAt: Int
    var contentDigest: SHA256Digest
    var contentDigestAt: Int
  }

  /// The values of the leading sections.
  struct HeaderFields {
    var format = ""
    var catalogDigest: SHA256Digest? = nil
    var logDigest: SHA256Digest? = nil
    var lines: Int64 = -1
    var bytes: Int64 = -1
    var events: Int64 = -1
    var duplicates: Int64 = -1
    var restoreBytes: Int64 = -1
    var stringsAt: Int64 = -1
    var contentDigest: SHA256Digest? = nil
    var contentDigestAt = -1
  }

  /// Parses the value of `key` if it is a header section; false for any other key.
  mutating func headerField(_ key: String, into fields: inout HeaderFields) throws(Diagnostic) -> Bool {
    switch key {
    case "format": fields.format = try text()
    case "restore_bytes": fields.restoreBytes = try integer()
    case "restore_strings_at": fields.stringsAt = try integer()
    case "restore_sha256":
      try expect(34)
      fields.contentDigestAt = i
      i -= 1
      let hex = try text()
      guard hex.utf8.count == SnapshotSeal.hexDigits else { throw fail("'restore_sha256' is not a SHA-256") }
      fields.contentDigest = SHA256Digest(hex: hex)
    case "catalog":
      try members { (this, key) throws(Diagnostic) in
        if key == "sha256" { fields.catalogDigest = SHA256Digest(hex: try this.text()) } else { try this.skipValue() }
      }
    case "log":
      try members { (this, key) throws(Diagnostic) in
        switch key {
        case "sha256": fields.logDigest = SHA256Digest(hex: try this.text())
        case "lines": fields.lines = try this.integer()
        case "bytes": fields.bytes = try this.integer()
        case "events": fields.events = try this.integer()
        case "duplicates_skipped": fields.duplicates = try this.integer()
        default: try this.skipValue()
        }
      }
    default:
      return false
    }
    return true
  }

  mutating func document() throws(Diagnostic) -> (ledger: Ledger, header: SnapshotHeader) {
    var fields = HeaderFields()
    var sawState = false
    var sawStrings = false
    try expect(123)
    members: while true {
      let key = try text()
      try expect(58)
      switch key {
      case "state":
        sawState = true
        if fields.events > 0 && fields.events < Int64(Limits.linesMax) { events.reserveCapacity(Int(fields.events) + spareEvents) }
        try stateSection()
      case "strings":
        sawStrings = true
        if stringsElsewhere { break members }
        try stringsSection()
      case "subjects":
        // The readable timeline: restoring does not need it.
        break members
      default:
        if try !headerField(key, into: &fields) { try skipValue() }
      }
      if take(125) { break }
      try expect(44)
      skipWhitespace()
      if i == p.count { break }  // the restore prefix ends where `subjects` begins
    }
    let format = fields.format
    let lines = fields.lines
    let bytes = fields.bytes
    let duplicates = fields.duplicates
    let eventCount = fields.events
    let catalogDigest = fields.catalogDigest
    let logDigest = fields.logDigest
    guard format == SnapshotHeader.format else {
      throw fail("format is '\(format)', expected '\(SnapshotHeader.format)'")
    }
    guard sawState, sawStrings, let catalogDigest, let logDigest, lines >= 0, bytes >= 0, duplicates >= 0,
      eventCount == Int64(events.count)
    else { throw fail("incomplete sections, or an event count that does not match") }
    header = SnapshotHeader(
      lines: Int(lines), bytes: bytes, logDigest: logDigest, catalogDigest: catalogDigest,
      events: events.count, duplicatesSkipped: Int(duplicates))
    if stringsElsewhere { return (Ledger.empty, header!) }
    return try finish()
  }

  /// Checks every string index now that the tables are known, and builds the ledger.
  mutating func finish() throws(Diagnostic) -> (ledger: Ledger, header: SnapshotHeader) {
    guard let header else { throw fail("missing header") }
    // Each id once: restoring indexes events by id.
    var seenIDs = [Bool](repeating: false, count: symbols.ids.count)
    for event in events {
      func check(_ symbol: Symbol, _ table: SymbolTable) throws(Diagnostic) {
        guard !symbol.isSome || Int(symbol.rawValue) < table.count else { throw fail("string index out of range") }
      }
      guard event.id.isSome else { throw fail("event without id") }
      try check(event.id, symbols.ids)
      guard !seenIDs[Int(event.id.rawValue)] else { throw fail("an event id appears twice") }
      seenIDs[Int(event.id.rawValue)] = true
      try check(event.transaction, symbols.transactions)
      try check(event.originalTransaction, symbols.transactions)
      try check(event.currency, symbols.currencies)
    }
    var context = symbols
    let fold = FoldContext(catalog: catalog, symbols: &context)
    guard context.currencies.count == symbols.currencies.count else {
      throw fail("the currencies table does not match the catalog")
    }
    let ledger = Ledger(
      context: fold, symbols: symbols, events: events, subjectStarts: subjectStarts,
      subscriptionCounts: subscriptionCounts, linesRead: header.lines, duplicatesSkipped: header.duplicatesSkipped,
      latestEffective: latest, warnings: [])
    return (ledger, header)
  }

  /// The `strings` object: currencies, ids and transactions.
  mutating func stringsSection() throws(Diagnostic) {
    try members { (this, key) throws(Diagnostic) in
      switch key {
      case "currencies": try this.stringTable(\.currencies)
      case "ids": try this.stringTable(\.ids)
      case "transactions": try this.stringTable(\.transactions)
      default: try this.skipValue()
      }
    }
  }

  /// The `state` object: subject names (distinct, built into a table at the end) and records.
  mutating func stateSection() throws(Diagnostic) {
    var arena: [UInt8] = []
    arena.reserveCapacity(p.count - i)
    var starts: [UInt32] = [0]
    try expect(123)
    if !take(125) {
      repeat {
        try appendString(to: &arena)
        starts.append(UInt32(truncatingIfNeeded: arena.count))
        try expect(58)
        let nameRange = Int(starts[starts.count - 2])..<arena.count
        try subjectState(Symbol(rawValue: UInt32(starts.count - 2))) {
          String(decoding: arena[nameRange], as: UTF8.self)
        }
        releaseRead()
      } while take(44)
      try expect(125)
    }
    guard arena.count < Int(UInt32.max), let table = SymbolTable.distinct(arena: arena, starts: starts) else {
      throw fail("a subject appears twice in 'state'")
    }
    symbols.subjects = table
  }

  /// One subject's event records: base64 of `RecordCoding`.
  mutating func subjectState(_ symbol: Symbol, name: () -> String) throws(Diagnostic) {
    try expect(34)
    let start = i
    while i < p.count, p[i] != 34 { i += 1 }
    guard i < p.count else { throw fail("unterminated records of '\(name())'") }
    decoded.removeAll(keepingCapacity: true)
    guard Base64.decode(UnsafeBufferPointer(rebasing: p[start..<i]), into: &decoded) else {
      throw fail("records of '\(name())' are not base64")
    }
    i += 1
    let first = events.count
    var subscriptions: UInt32 = 0
    try decoded.withUnsafeBufferPointer { (bytes) throws(Diagnostic) in
      var decoder = RecordCoding.Decoder(bytes)
      var line: Int64 = 0
      var at: Int64 = 0
      while !decoder.isAtEnd {
        guard let e = record(&decoder, line: &line, at: &at, position: events.count - first), e.hasRequiredValues else {
          throw fail("records of '\(name())' are damaged")
        }
        var event = e
        event.subject = symbol
        if event.at > latest { latest = event.at }
        if isSubscriptionEvent(event) { subscriptions = max(subscriptions, event.slot &+ 1) }
        events.append(event)
      }
    }
    let count = events.count - first
    guard count <= Limits.eventsPerSubjectMax, subscriptions <= UInt32(count) else {
      throw fail("subject '\(name())': bad subscription numbers")
    }
    for position in first..<events.count
    where events[position].kind.isRefund {
      let e = events[position]
      guard e.targetProduct.isSome else { continue }
      let bound = catalog.kind(e.targetProduct) == .autoRenewable ? Int(subscriptions) : count
      guard Int(e.slot) < bound else { throw fail("subject '\(name())': bad refund target") }
    }
    subjectStarts.append(UInt32(events.count))
    subscriptionCounts.append(subscriptions)
  }

  func isSubscriptionEvent(_ e: Event) -> Bool {
    if e.kind.scope.contains(.subscription) { return true }
    return e.kind.isCharge && catalog.kind(e.product) == .autoRenewable
  }

  /// Decodes one record and checks the fields the fold indexes by, so damage cannot crash it.
  func record(_ d: inout RecordCoding.Decoder, line: inout Int64, at: inout Int64, position: Int) -> Event? {
    guard let lineDelta = d.signed(), let flags = d.unsigned(), let atDelta = d.signed(),
      let recordedDelta = d.signed()
    else { return nil }
    var e = Event(kind: .purchase)
    guard flags < 1 << 19, EventFlags.unpack(Int64(flags) & ~RecordCoding.hasMetaFlag, into: &e) else { return nil }
    line += lineDelta
    at &+= atDelta
    guard line >= 1, line <= Int64(Limits.linesMax) else { return nil }
    e.line = UInt32(line)
    e.at = Timestamp(millisecondsSinceEpoch: at)
    e.recorded = Timestamp(millisecondsSinceEpoch: at &+ recordedDelta)
    if e.hasExpires {
      guard let delta = d.signed() else { return nil }
      e.expires = Timestamp(millisecondsSinceEpoch: at &+ delta)
    } else {
      // As the line parser leaves it, so a redelivery in the tail compares equal.
      e.expires = Timestamp(millisecondsSinceEpoch: 0)
    }
    guard let quantity = d.signed() else { return nil }
    e.quantity = quantity
    if e.hasPrice {
      guard let price = d.signed() else { return nil }
      e.price = price
    }
    if Int64(flags) & RecordCoding.hasMetaFlag != 0 {
      guard let hash = d.raw64() else { return nil }
      e.metaHash = hash
    }
    guard let id = d.unsigned(), id < UInt64(UInt32.max), let transaction = d.unsigned(),
      let original = d.unsigned(), let currency = d.unsigned(), let product = d.unsigned(),
      let target = d.unsigned(), let slot = d.unsigned(),
      transaction <= UInt64(UInt32.max), original <= UInt64(UInt32.max), currency <= UInt64(UInt32.max),
      slot <= UInt64(Limits.eventsPerSubjectMax) + 1
    else { return nil }
    let productCount = UInt64(catalog.products.count)
    guard product <= productCount, target <= productCount else { return nil }
    e.id = Symbol(rawValue: UInt32(id))
    e.transaction = transaction == 0 ? .none : Symbol(rawValue: UInt32(transaction - 1))
    e.originalTransaction = original == 0 ? .none : Symbol(rawValue: UInt32(original - 1))
    e.currency = currency == 0 ? .none : Symbol(rawValue: UInt32(currency - 1))
    e.product = product == 0 ? .none : ProductIndex(rawValue: UInt32(product - 1))
    e.targetProduct = target == 0 ? .none : ProductIndex(rawValue: UInt32(target - 1))
    e.slot = slot == 0 ? UInt32.max : UInt32(slot - 1)
    guard checkKind(&e, &d, position: position) else { return nil }
    return e
  }

  /// Checks what the fold of `e`'s kind relies on, reading a use's feature from `d`.
  private func checkKind(_ e: inout Event, _ d: inout RecordCoding.Decoder, position: Int) -> Bool {
    switch e.kind {
    case .purchase:
      guard e.product.isSome, e.transaction.isSome else { return false }
      if catalog.kind(e.product) != .autoRenewable {
        guard Int(e.slot) == position else { return false }
      } else {
        guard e.slot != UInt32.max, e.hasExpires else { return false }
      }
      if catalog.kind(e.product) == .consumable && e.quantity < 1 { return false }
    case .renewal:
      guard e.product.isSome, catalog.kind(e.product) == .autoRenewable, e.slot != UInt32.max, e.transaction.isSome,
        e.originalTransaction.isSome, e.hasExpires
      else { return false }
    case .planChanged:
      guard e.product.isSome, catalog.kind(e.product) == .autoRenewable, e.slot != UInt32.max,
        e.originalTransaction.isSome
      else { return false }
    case .graceEntered, .renewalExtended:
      guard e.slot != UInt32.max, e.originalTransaction.isSome, e.hasExpires else { return false }
    case .billingRetry, .expiration, .autoRenewChanged:
      guard e.slot != UInt32.max, e.originalTransaction.isSome else { return false }
    case .revocation, .refundReversed:
      guard e.transaction.isSome else { return false }
    case .consumption:
      guard e.currency.isSome, e.quantity >= 1 else { return false }
    case .purchasePending:
      guard e.product.isSome else { return false }
    case .usage:
      // Usage records carry the feature's index in the catalog policy after the slot.
      guard let feature = d.unsigned(), let policy = catalog.policy, feature < UInt64(policy.features.count),
        e.quantity != 0
      else { return false }
      e.feature = UInt16(feature)
    }
    return true
  }
}
