/// Restores a `Ledger` from snapshot bytes written by `SnapshotWriter`.
///
/// A small pull parser over our own format: the event records are integer
/// columns and the strings come as tables in symbol order, so restoring does no
/// field matching, no timestamp parsing and no interning look-ups. The readable
/// timeline is skipped. Every index is range-checked, so a damaged snapshot is an
/// error, never a crash.
public enum SnapshotReader {
  /// Reads only the header (the sections before `strings`), to start digesting the log early.
  public static func header(_ bytes: [UInt8], file: String) throws(Diagnostic) -> SnapshotHeader {
    try bytes.withUnsafeBufferPointer { (buffer) throws(Diagnostic) in
      var parser = SnapshotParser(p: buffer, file: file, catalog: Catalog(products: []))
      return try parser.headerOnly()
    }
  }

  /// Reads a snapshot; `file` names it in errors.
  /// - Complexity: O(snapshot size).
  public static func read(_ bytes: [UInt8], file: String, catalog: Catalog) throws(Diagnostic) -> (
    ledger: Ledger, header: SnapshotHeader
  ) {
    try bytes.withUnsafeBufferPointer { (buffer) throws(Diagnostic) in
      var parser = SnapshotParser(p: buffer, file: file, catalog: catalog)
      return try parser.document()
    }
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
      guard digits < 19 else { throw fail("number too long") }
      value = value * 10 + Int64(p[i] &- 48)
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

  mutating func stringTable(_ path: WritableKeyPath<LedgerSymbols, SymbolTable>) throws(Diagnostic) {
    // Moved out and back so the table stays uniquely referenced while it grows.
    var table = symbols[keyPath: path]
    symbols[keyPath: path] = SymbolTable(capacity: 16)
    defer { symbols[keyPath: path] = table }
    try expect(91)
    if take(93) { return }
    repeat {
      let bytes = try string()
      let expected = table.count
      let symbol = bytes.withUnsafeBufferPointer { table.intern($0) }
      guard Int(symbol.rawValue) == expected else { throw fail("repeated string in a string table") }
    } while take(44)
    try expect(93)
  }

  /// Parses the leading sections up to `strings` (sorted keys put `catalog`, `columns`,
  /// `format` and `log` first).
  mutating func headerOnly() throws(Diagnostic) -> SnapshotHeader {
    var catalogDigest: SHA256Digest? = nil
    var logDigest: SHA256Digest? = nil
    var lines: Int64 = -1
    var bytes: Int64 = -1
    try expect(123)
    while true {
      let key = try text()
      try expect(58)
      switch key {
      case "catalog":
        try members { (this, key) throws(Diagnostic) in
          if key == "sha256" { catalogDigest = SHA256Digest(hex: try this.text()) } else { try this.skipValue() }
        }
      case "log":
        try members { (this, key) throws(Diagnostic) in
          switch key {
          case "sha256": logDigest = SHA256Digest(hex: try this.text())
          case "lines": lines = try this.integer()
          case "bytes": bytes = try this.integer()
          default: try this.skipValue()
          }
        }
      default:
        try skipValue()
      }
      if let catalogDigest, let logDigest, lines >= 0, bytes >= 0 {
        return SnapshotHeader(
          lines: Int(lines), bytes: bytes, logDigest: logDigest, catalogDigest: catalogDigest, events: 0,
          duplicatesSkipped: 0)
      }
      guard take(44) else { throw fail("missing 'log' or 'catalog' section") }
    }
  }

  mutating func document() throws(Diagnostic) -> (ledger: Ledger, header: SnapshotHeader) {
    var format = ""
    var columns: [String] = []
    var catalogDigest: SHA256Digest? = nil
    var logDigest: SHA256Digest? = nil
    var lines: Int64 = -1
    var bytes: Int64 = -1
    var eventCount: Int64 = -1
    var duplicates: Int64 = -1
    var sawSubjects = false
    try members { (this, key) throws(Diagnostic) in
      switch key {
      case "format": format = try this.text()
      case "columns":
        try this.expect(91)
        if !this.take(93) {
          repeat { columns.append(try this.text()) } while this.take(44)
          try this.expect(93)
        }
      case "catalog":
        try this.members { (this, key) throws(Diagnostic) in
          if key == "sha256" { catalogDigest = SHA256Digest(hex: try this.text()) } else { try this.skipValue() }
        }
      case "log":
        try this.members { (this, key) throws(Diagnostic) in
          switch key {
          case "sha256": logDigest = SHA256Digest(hex: try this.text())
          case "lines": lines = try this.integer()
          case "bytes": bytes = try this.integer()
          case "events": eventCount = try this.integer()
          case "duplicates_skipped": duplicates = try this.integer()
          default: try this.skipValue()
          }
        }
      case "strings":
        guard !sawSubjects else { throw this.fail("'strings' must come before 'subjects'") }
        try this.members { (this, key) throws(Diagnostic) in
          switch key {
          case "currencies": try this.stringTable(\.currencies)
          case "ids": try this.stringTable(\.ids)
          case "transactions": try this.stringTable(\.transactions)
          default: try this.skipValue()
          }
        }
      case "subjects":
        sawSubjects = true
        try this.members { (this, name) throws(Diagnostic) in
          try this.subject(name)
        }
      default:
        try this.skipValue()
      }
    }
    skipWhitespace()
    guard i == p.count else { throw fail("unexpected data after the snapshot") }
    guard format == SnapshotHeader.format else {
      throw fail("format is '\(format)', expected '\(SnapshotHeader.format)'")
    }
    guard columns == SnapshotWriter.eventColumns else { throw fail("unexpected event columns") }
    guard let catalogDigest, let logDigest, lines >= 0, bytes >= 0, duplicates >= 0,
      eventCount == Int64(events.count)
    else { throw fail("incomplete 'log' or 'catalog' section, or an event count that does not match") }
    var context = symbols
    let fold = FoldContext(catalog: catalog, symbols: &context)
    guard context.currencies.count == symbols.currencies.count else {
      throw fail("the currencies table does not match the catalog")
    }
    let header = SnapshotHeader(
      lines: Int(lines), bytes: bytes, logDigest: logDigest, catalogDigest: catalogDigest,
      events: events.count, duplicatesSkipped: Int(duplicates))
    let ledger = Ledger(
      context: fold, symbols: symbols, events: events, subjectStarts: subjectStarts,
      subscriptionCounts: subscriptionCounts, linesRead: Int(lines), duplicatesSkipped: Int(duplicates),
      latestEffective: latest, warnings: [])
    return (ledger, header)
  }

  mutating func subject(_ name: String) throws(Diagnostic) {
    let before = symbols.subjects.count
    let symbol = symbols.subjects.intern(name)
    guard Int(symbol.rawValue) == before else { throw fail("subject '\(name)' appears twice") }
    let start = events.count
    var subscriptions: UInt32 = 0
    try members { (this, key) throws(Diagnostic) in
      guard key == "events" else {
        try this.skipValue()
        return
      }
      try this.expect(91)
      if this.take(93) { return }
      repeat {
        var event = try this.record(subject: symbol, position: this.events.count - start)
        event.subject = symbol
        if event.at > this.latest { this.latest = event.at }
        if this.isSubscriptionEvent(event) { subscriptions = max(subscriptions, event.slot + 1) }
        this.events.append(event)
      } while this.take(44)
      try this.expect(93)
    }
    let count = events.count - start
    guard subscriptions <= UInt32(count) else { throw fail("subject '\(name)': bad subscription numbers") }
    for position in start..<events.count where events[position].kind == .revocation || events[position].kind == .refundReversed {
      let e = events[position]
      guard e.targetProduct.isSome else { continue }
      let bound = catalog[e.targetProduct].kind == .autoRenewable ? Int(subscriptions) : count
      guard Int(e.slot) < bound else { throw fail("subject '\(name)': bad refund target") }
    }
    subjectStarts.append(UInt32(events.count))
    subscriptionCounts.append(subscriptions)
  }

  func isSubscriptionEvent(_ e: Event) -> Bool {
    switch e.kind {
    case .purchase: return catalog[e.product].kind == .autoRenewable
    case .renewal, .billingRetry, .graceEntered, .expiration, .autoRenewChanged, .planChanged,
      .renewalExtended:
      return true
    default: return false
    }
  }

  mutating func record(subject: Symbol, position: Int) throws(Diagnostic) -> Event {
    try expect(91)
    var values: (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    try withUnsafeMutableBytes(of: &values) { (raw) throws(Diagnostic) in
      let columns = raw.bindMemory(to: Int64.self)
      for c in 0..<16 {
        if c > 0 { try expect(44) }
        columns[c] = try integer()
      }
    }
    try expect(93)
    var e = Event(kind: .purchase)
    guard values.0 >= 1, values.0 <= Int64(Limits.linesMax), EventFlags.unpack(values.1, into: &e) else {
      throw fail("bad line number or flags")
    }
    e.line = UInt32(values.0)
    e.at = Timestamp(millisecondsSinceEpoch: values.2)
    e.recorded = Timestamp(millisecondsSinceEpoch: values.3)
    e.expires = Timestamp(millisecondsSinceEpoch: values.4)
    e.quantity = values.5
    e.price = values.6
    guard values.7 >= 0, values.7 <= 0xFFFF_FFFF, values.8 >= 0, values.8 <= 0xFFFF_FFFF else {
      throw fail("bad meta hash")
    }
    e.metaHash = UInt64(values.7) << 32 | UInt64(values.8)
    func symbol(_ value: Int64, _ table: SymbolTable, required: Bool) throws(Diagnostic) -> Symbol {
      if value == -1 && !required { return .none }
      guard value >= 0, value < Int64(table.count) else { throw fail("string index \(value) out of range") }
      return Symbol(rawValue: UInt32(value))
    }
    func product(_ value: Int64) throws(Diagnostic) -> ProductIndex {
      if value == -1 { return .none }
      guard value >= 0, value < Int64(catalog.products.count) else { throw fail("product index out of range") }
      return ProductIndex(rawValue: UInt32(value))
    }
    e.id = try symbol(values.9, symbols.ids, required: true)
    e.transaction = try symbol(values.10, symbols.transactions, required: false)
    e.originalTransaction = try symbol(values.11, symbols.transactions, required: false)
    e.currency = try symbol(values.12, symbols.currencies, required: false)
    e.product = try product(values.13)
    e.targetProduct = try product(values.15)
    guard values.14 >= -1, values.14 <= Int64(Limits.eventsPerSubjectMax) else { throw fail("bad slot") }
    e.slot = values.14 == -1 ? UInt32.max : UInt32(values.14)
    // The fold indexes by these fields: check them so a damaged file cannot crash it.
    switch e.kind {
    case .purchase:
      guard e.product.isSome, e.transaction.isSome else { throw fail("purchase without product") }
      if catalog[e.product].kind != .autoRenewable {
        guard Int(e.slot) == position else { throw fail("bad grant position") }
      } else {
        guard e.slot != UInt32.max, e.hasExpires else { throw fail("bad subscription number") }
      }
      if catalog[e.product].kind == .consumable && e.quantity < 1 { throw fail("bad quantity") }
    case .renewal, .planChanged:
      guard e.product.isSome, catalog[e.product].kind == .autoRenewable, e.slot != UInt32.max else {
        throw fail("bad subscription event")
      }
    case .billingRetry, .graceEntered, .expiration, .autoRenewChanged, .renewalExtended:
      guard e.slot != UInt32.max else { throw fail("bad subscription number") }
    case .revocation, .refundReversed:
      guard e.transaction.isSome else { throw fail("refund without transaction") }
    case .consumption:
      guard e.currency.isSome, e.quantity >= 1 else { throw fail("bad consumption") }
    case .purchasePending:
      guard e.product.isSome else { throw fail("pending purchase without product") }
    }
    return e
  }
}
