/// The checks every log line passes before it is parsed, shared by `LedgerBuilder.add(line:)`
/// and the pipelined reader so the two can never disagree.
package enum LineIntake {
  /// What to do with a line.
  package enum Verdict: Equatable {
    /// Only spaces, tabs and carriage returns: ignored.
    case empty
    /// Refused before parsing (too long, too many lines); the diagnostic has no file name.
    case refused(Diagnostic)
    /// To be parsed.
    case parse
  }

  /// The verdict on one line (without its newline). Length comes first, so a line of
  /// whitespace longer than the limit is an error on every path.
  /// - Complexity: O(line length) for lines within the limit.
  package static func check(
    _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, lineBytesMax: Int = Limits.lineBytesMax,
    linesMax: Int = Limits.linesMax
  ) -> Verdict {
    guard line.count <= lineBytesMax else {
      return .refused(Diagnostic(line: lineNumber, .lineTooLong(bytes: line.count, limit: lineBytesMax)))
    }
    guard lineNumber <= linesMax else {
      return .refused(Diagnostic(line: lineNumber, .tooManyLines(limit: linesMax)))
    }
    if line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { return .empty }
    return .parse
  }
}

/// A string value inside a line being parsed: bytes in the line or in the scratch buffer.
///
/// Eight bytes, because a pending event carries five of these from a parse worker to the
/// builder: the two flags live in the top bits of the count (a count is at most a line's
/// length, far below 2^30).
package struct StringRef {
  /// Offset of the first byte, in the line or in the scratch buffer.
  package var start: Int32 = 0
  private var countAndFlags: UInt32 = 0
  private static let scratchFlag: UInt32 = 1 << 31
  private static let presentFlag: UInt32 = 1 << 30

  /// Nothing: the field was absent.
  init() {}

  /// A string of `count` bytes at `start`.
  @inline(__always)
  init(start: Int32, count: Int32, inScratch: Bool, isPresent: Bool) {
    precondition(count >= 0 && UInt32(count) < StringRef.presentFlag, "string longer than any line")
    self.start = start
    countAndFlags = UInt32(count) | (inScratch ? StringRef.scratchFlag : 0) | (isPresent ? StringRef.presentFlag : 0)
  }

  /// The string's length in bytes.
  package var count: Int32 { Int32(bitPattern: countAndFlags & (StringRef.presentFlag - 1)) }
  /// Whether the bytes are in the parser's scratch buffer (the value had escapes).
  package var inScratch: Bool { countAndFlags & StringRef.scratchFlag != 0 }
  /// Whether the field was present on the line.
  var isPresent: Bool { countAndFlags & StringRef.presentFlag != 0 }
}

/// Parses one log line into an `Event`, checking every rule of Docs/log-format.md that a
/// single line can break.
///
/// Byte-level and allocation-free on the common path: no `JSONDecoder`, no
/// `String` per field, timestamps parsed arithmetically, strings interned as
/// bytes. Escaped or non-ASCII strings are decoded into a reused scratch buffer.
/// The same instance is reused for every line of a log.
package struct EventLineParser {
  /// The catalog products are resolved against.
  package let catalog: Catalog
  private var scratch: [UInt8] = []
  /// The date of the last timestamp parsed: consecutive lines mostly share it.
  private var dayCache = RFC3339DayCache()

  /// Creates a parser for a catalog.
  package init(catalog: Catalog) {
    self.catalog = catalog
    scratch.reserveCapacity(Limits.lineBytesMax)
  }

  /// Parses one line (without its newline), interning strings into `symbols`.
  ///
  /// The returned event's `line` is `lineNumber`. Errors carry line, column
  /// (for invalid JSON) and the field concerned, but no file name.
  /// - Complexity: O(line length).
  package mutating func parse(
    _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, symbols: inout LedgerSymbols
  ) -> Result<Event, Diagnostic> {
    parseDetailed(line, lineNumber: lineNumber, symbols: &symbols).map(\.event)
  }

  /// Parses, validates and interns one line: the event (its subject in `loadingSubject`) and
  /// its details (price, meta hash), which a ledger keeps beside its events.
  /// - Complexity: O(line length).
  package mutating func parseDetailed(
    _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, symbols: inout LedgerSymbols
  ) -> Result<(event: Event, details: EventDetails), Diagnostic> {
    LineParses.note()
    scratch.removeAll(keepingCapacity: true)
    switch parsePending(line, lineNumber: lineNumber, lineStart: 0) {
    case .failure(let diagnostic):
      return .failure(diagnostic)
    case .success(let pending):
      return scratch.withUnsafeBufferPointer {
        .success(pending.interned(into: &symbols, buffer: line, scratch: $0))
      }
    }
  }

  /// Parses and validates one line without interning; escaped strings accumulate in
  /// the scratch buffer until `takeScratch()`.
  /// - Complexity: O(line length).
  mutating func parsePending(
    _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, lineStart: Int
  ) -> Result<PendingEvent, Diagnostic> {
    var cursor = Cursor(line: line, lineNumber: lineNumber, dayCache: dayCache)
    var fields = RawFields()
    do {
      try cursor.readObject(into: &fields, scratch: &scratch, catalog: catalog)
      dayCache = cursor.dayCache
    } catch {
      return .failure(error)
    }
    return scratch.withUnsafeBufferPointer { scratchBytes in
      var validator = FieldValidator(
        line: line, scratch: scratchBytes, lineNumber: lineNumber, catalog: catalog)
      return validator.pending(from: fields, lineStart: lineStart)
    }
  }

  /// Hands over the decoded strings of the lines parsed since the last call.
  mutating func takeScratch() -> [UInt8] {
    let taken = scratch
    scratch = []
    scratch.reserveCapacity(taken.capacity)
    return taken
  }
}

/// Field values of one line as found, before type-specific validation.
struct RawFields {
  var present = FieldSet()
  var strings = FieldStrings()
  var at = Timestamp(millisecondsSinceEpoch: 0)
  var recorded = Timestamp(millisecondsSinceEpoch: 0)
  var expires = Timestamp(millisecondsSinceEpoch: 0)
  var graceExpires = Timestamp(millisecondsSinceEpoch: 0)
  var respondBy = Timestamp(millisecondsSinceEpoch: 0)
  var quantity: Int64 = 0
  var price: Int64 = 0
  var refunded: Int64 = 0
  var proceeds: Int64 = 0
  var autoRenew = false
  var metaHash: UInt64 = 0
}

/// The string-valued fields of one line, stored inline (no allocation per line).
struct FieldStrings {
  private var id = StringRef()
  private var type = StringRef()
  private var subject = StringRef()
  private var product = StringRef()
  private var transaction = StringRef()
  private var originalTransaction = StringRef()
  private var ownership = StringRef()
  private var offer = StringRef()
  private var currency = StringRef()
  private var reason = StringRef()
  private var feature = StringRef()
  private var store = StringRef()
  private var country = StringRef()
  private var grant = StringRef()
  private var service = StringRef()
  private var to = StringRef()
  /// The `entitlements` array's bytes in the line, brackets included (validated as an array of strings).
  private var entitlements = StringRef()

  // Switches on the raw value itself: building a `Field` first costs a range check per access.
  subscript(rawValue: Int) -> StringRef {
    @inline(__always) get {
      switch rawValue {
      case Field.id.rawValue: return id
      case Field.type.rawValue: return type
      case Field.subject.rawValue: return subject
      case Field.product.rawValue: return product
      case Field.transaction.rawValue: return transaction
      case Field.originalTransaction.rawValue: return originalTransaction
      case Field.ownership.rawValue: return ownership
      case Field.offer.rawValue: return offer
      case Field.currency.rawValue: return currency
      case Field.reason.rawValue: return reason
      case Field.feature.rawValue: return feature
      case Field.store.rawValue: return store
      case Field.country.rawValue: return country
      case Field.grant.rawValue: return grant
      case Field.service.rawValue: return service
      case Field.to.rawValue: return to
      case Field.entitlements.rawValue: return entitlements
      default: preconditionFailure("field \(rawValue) is not a string field")
      }
    }
    @inline(__always) set {
      switch rawValue {
      case Field.id.rawValue: id = newValue
      case Field.type.rawValue: type = newValue
      case Field.subject.rawValue: subject = newValue
      case Field.product.rawValue: product = newValue
      case Field.transaction.rawValue: transaction = newValue
      case Field.originalTransaction.rawValue: originalTransaction = newValue
      case Field.ownership.rawValue: ownership = newValue
      case Field.offer.rawValue: offer = newValue
      case Field.currency.rawValue: currency = newValue
      case Field.reason.rawValue: reason = newValue
      case Field.feature.rawValue: feature = newValue
      case Field.store.rawValue: store = newValue
      case Field.country.rawValue: country = newValue
      case Field.grant.rawValue: grant = newValue
      case Field.service.rawValue: service = newValue
      case Field.to.rawValue: to = newValue
      case Field.entitlements.rawValue: entitlements = newValue
      default: preconditionFailure("field \(rawValue) is not a string field")
      }
    }
  }
}

/// Walks the bytes of one line.
package struct Cursor {
  let p: UnsafeBufferPointer<UInt8>
  let end: Int
  let lineNumber: Int
  package var i = 0
  /// The date of the last timestamp read, carried from line to line by the parser.
  var dayCache: RFC3339DayCache

  package init(line: UnsafeBufferPointer<UInt8>, lineNumber: Int, dayCache: RFC3339DayCache = RFC3339DayCache()) {
    p = line
    end = line.count
    self.lineNumber = lineNumber
    self.dayCache = dayCache
  }

  package func jsonError(_ detail: String, at offset: Int? = nil) -> Diagnostic {
    Diagnostic(line: lineNumber, column: (offset ?? i) + 1, .invalidJSON(detail))
  }

  package func fieldError(_ problem: Problem) -> Diagnostic {
    Diagnostic(line: lineNumber, problem)
  }

  @inline(__always)
  package mutating func skipWhitespace() {
    while i < end {
      let c = p[i]
      guard c == 32 || c == 9 || c == 13 || c == 10 else { return }
      i += 1
    }
  }

  /// Describes the value at the cursor for "found …" in messages.
  package func foundDescription(from start: Int) -> String {
    guard start < end else { return "the end of the line" }
    var stop = start
    var depth = 0
    var inString = false
    while stop < end && stop - start < 60 {
      let c = p[stop]
      if inString {
        if c == 92 { stop += 1 } else if c == 34 { inString = false }
      } else if c == 34 {
        inString = true
      } else if c == 123 || c == 91 {
        depth += 1
      } else if c == 125 || c == 93 {
        if depth == 0 { break }
        depth -= 1
      } else if c == 44 && depth == 0 {
        break
      }
      stop += 1
    }
    if stop < end && stop - start >= 60 {
      return String(decoding: UnsafeBufferPointer(rebasing: p[start..<stop]), as: UTF8.self) + "…"
    }
    return String(decoding: UnsafeBufferPointer(rebasing: p[start..<min(stop, end)]), as: UTF8.self)
  }

  mutating func readObject(
    into fields: inout RawFields, scratch: inout [UInt8], catalog: Catalog
  ) throws(Diagnostic) {
    skipWhitespace()
    guard i < end, p[i] == 123 else {
      throw jsonError("expected '{' at the start of an event" + JSONLinesHint.atEventStart(p, i, end))
    }
    i += 1
    skipWhitespace()
    if i < end && p[i] == 125 {
      i += 1
    } else {
      while true {
        skipWhitespace()
        guard i < end, p[i] == 34 else {
          throw jsonError("expected a field name in double quotes" + (i == end ? JSONLinesHint.lineEnded : ""))
        }
        let keyStart = i
        let key = try readString(scratch: &scratch)
        guard let field = matchField(key, scratch: scratch) else {
          throw fieldError(.unknownField(text(key, scratch)))
        }
        guard !fields.present.contains(field) else {
          throw Diagnostic(line: lineNumber, column: keyStart + 1, .duplicateField(field.name))
        }
        fields.present.insert(FieldSet(field))
        skipWhitespace()
        guard i < end, p[i] == 58 else { throw jsonError("expected ':' after the field name") }
        i += 1
        skipWhitespace()
        try readValue(of: field, into: &fields, scratch: &scratch)
        if try !nextMember(closing: 125) { break }
      }
    }
    skipWhitespace()
    guard i == end else { throw jsonError("unexpected data after the event object") }
  }

  func text(_ ref: StringRef, _ scratch: [UInt8]) -> String {
    let s = Int(ref.start)
    let e = s + Int(ref.count)
    if ref.inScratch { return String(decoding: scratch[s..<e], as: UTF8.self) }
    return String(decoding: UnsafeBufferPointer(rebasing: p[s..<e]), as: UTF8.self)
  }

  /// Reads a string at the cursor (which is on the opening quote).
  @inline(__always)
  package mutating func readString(scratch: inout [UInt8]) throws(Diagnostic) -> StringRef {
    i += 1
    let start = i
    i = ByteScan.firstStringStop(in: p, from: i, end: end)
    if i < end && p[i] == 34 {
      let ref = StringRef(start: Int32(start), count: Int32(i - start), inScratch: false, isPresent: true)
      i += 1
      return ref
    }
    // Escapes, non-ASCII or control bytes: decode and validate into scratch.
    let scratchStart = scratch.count
    switch JSONScan.string(p, from: start, end: end, into: &scratch) {
    case .success(let next):
      i = next
      return StringRef(
        start: Int32(scratchStart), count: Int32(scratch.count - scratchStart), inScratch: true,
        isPresent: true)
    case .failure(let failure):
      throw jsonError(failure.detail, at: failure.offset)
    }
  }

  func matchField(_ ref: StringRef, scratch: [UInt8]) -> Field? {
    if ref.inScratch {
      return scratch.withUnsafeBufferPointer { matchFieldName($0, Int(ref.start), Int(ref.count)) }
    }
    return matchFieldName(p, Int(ref.start), Int(ref.count))
  }

  mutating func readValue(
    of field: Field, into fields: inout RawFields, scratch: inout [UInt8]
  ) throws(Diagnostic) {
    let valueStart = i
    switch field {
    case .id, .type, .subject, .product, .transaction, .originalTransaction, .ownership, .offer,
      .currency, .reason, .feature, .store, .country, .grant, .service, .to:
      guard i < end, p[i] == 34 else { throw wrongType(field, "a string", valueStart) }
      fields.strings[field.rawValue] = try readString(scratch: &scratch)
    case .at, .recorded, .expires, .graceExpires, .respondBy:
      guard i < end, p[i] == 34 else {
        throw wrongType(field, "an RFC 3339 timestamp string", valueStart)
      }
      let parsed = try readTimestamp(of: field, from: valueStart, scratch: &scratch)
      switch field {
      case .at: fields.at = parsed
      case .recorded: fields.recorded = parsed
      case .expires: fields.expires = parsed
      case .respondBy: fields.respondBy = parsed
      default: fields.graceExpires = parsed
      }
    case .quantity, .price, .refunded, .proceeds:
      guard i < end, p[i] == 45 || (p[i] &- 48) < 10 else {
        throw wrongType(field, "an integer", valueStart)
      }
      let value = try readInteger(of: field, from: valueStart)
      switch field {
      case .quantity: fields.quantity = value
      case .price: fields.price = value
      case .refunded: fields.refunded = value
      default: fields.proceeds = value
      }
    case .autoRenew:
      if matchLiteral("true") {
        fields.autoRenew = true
      } else if matchLiteral("false") {
        fields.autoRenew = false
      } else {
        throw wrongType(field, "true or false", valueStart)
      }
    case .entitlements:
      fields.strings[field.rawValue] = try readStringArray(of: field, scratch: &scratch)
    case .meta:
      guard i < end, p[i] == 123 else { throw wrongType(field, "an object", valueStart) }
      fields.metaHash = try hashValue(depth: 0, scratch: &scratch)
    }
  }

  /// Reads an array of strings at the cursor (on its `[`): the array's bytes in the line, for the
  /// validator to read back (only grants and blocks have one).
  mutating func readStringArray(of field: Field, scratch: inout [UInt8]) throws(Diagnostic) -> StringRef {
    let start = i
    guard i < end, p[i] == 91 else { throw wrongType(field, "an array of strings", start) }
    i += 1
    skipWhitespace()
    if i < end && p[i] == 93 {
      i += 1
    } else {
      let mark = scratch.count
      repeat {
        skipWhitespace()
        guard i < end, p[i] == 34 else { throw wrongType(field, "an array of strings", start) }
        _ = try readString(scratch: &scratch)
      } while try nextMember(closing: 93)
      // The validator decodes the elements again from the line; their escapes need no room here.
      scratch.removeSubrange(mark...)
    }
    return StringRef(start: Int32(start), count: Int32(i - start), inScratch: false, isPresent: true)
  }

  /// Reads the timestamp string at the cursor (on its opening quote) of `field`, whose value
  /// starts at `valueStart`.
  @inline(__always)
  mutating func readTimestamp(
    of field: Field, from valueStart: Int, scratch: inout [UInt8]
  ) throws(Diagnostic) -> Timestamp {
    let ref = try readString(scratch: &scratch)
    let parsed: Timestamp?
    if ref.inScratch {
      parsed = scratch.withUnsafeBufferPointer {
        Timestamp.parseRFC3339(UnsafeBufferPointer(rebasing: $0[Int(ref.start)..<Int(ref.start + ref.count)]))
      }
    } else {
      parsed = Timestamp.parseRFC3339(
        UnsafeBufferPointer(rebasing: p[Int(ref.start)..<Int(ref.start + ref.count)]), dayCache: &dayCache)
    }
    guard let parsed else {
      throw fieldError(
        .invalidValue(
          field: field.name,
          expected: "an RFC 3339 timestamp such as 2026-03-01T12:00:00Z (at most 3 fraction digits)",
          found: foundDescription(from: valueStart)))
    }
    return parsed
  }

  /// Reads the integer at the cursor (on its first byte) of `field`, whose value starts at
  /// `valueStart`: at most `Limits.amountMax` either way.
  @inline(__always)
  mutating func readInteger(of field: Field, from valueStart: Int) throws(Diagnostic) -> Int64 {
    guard let scan = JSONScan.number(p, from: i, end: end) else {
      throw jsonError("invalid number")
    }
    guard scan.isInteger else {
      throw fieldError(
        .invalidValue(
          field: field.name, expected: "an integer", found: foundDescription(from: valueStart)))
    }
    var value: Int64 = 0
    var k = i
    let negative = p[k] == 45
    if negative { k += 1 }
    // More digits than the limit has cannot be within it; stopping here also rules out overflow.
    let digitsMax = Limits.amountDigitsMax
    while k < scan.end && k - i <= digitsMax {
      value = value * 10 + Int64(p[k] &- 48)
      k += 1
    }
    guard k == scan.end, value <= Limits.amountMax else {
      throw fieldError(
        .invalidValue(
          field: field.name, expected: "an integer at most \(Limits.amountMax)",
          found: foundDescription(from: valueStart)))
    }
    i = scan.end
    return negative ? -value : value
  }

  /// After a member or element: true after a ',' (more follow), false after `closing`.
  package mutating func nextMember(closing: UInt8) throws(Diagnostic) -> Bool {
    skipWhitespace()
    if i < end && p[i] == 44 {
      i += 1
      return true
    }
    guard i < end, p[i] == closing else {
      throw jsonError(closing == 125 ? "expected ',' or '}'" : "expected ',' or ']'")
    }
    i += 1
    return false
  }

  package mutating func matchLiteral(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard end - i >= count else { return false }
    let bytes = literal.utf8Start
    for k in 0..<count where p[i + k] != bytes[k] { return false }
    i += count
    return true
  }

  package func wrongType(_ field: Field, _ expected: String, _ start: Int) -> Diagnostic {
    fieldError(.invalidValue(field: field.name, expected: expected, found: foundDescription(from: start)))
  }

  /// Validates any JSON value and returns a hash of it as a value: key order and
  /// spacing do not change it, and `1.0` hashes like `1`.
  mutating func hashValue(depth: Int, scratch: inout [UInt8]) throws(Diagnostic) -> UInt64 {
    guard depth < Limits.jsonDepthMax else {
      throw jsonError("'meta' is nested deeper than \(Limits.jsonDepthMax) levels")
    }
    guard i < end else { throw jsonError("expected a value") }
    switch p[i] {
    case 123:
      return try hashObject(depth: depth, scratch: &scratch)
    case 91:
      i += 1
      var h: UInt64 = 0x6172_7261_79
      skipWhitespace()
      if i < end && p[i] == 93 {
        i += 1
        return SymbolTable.mix(h)
      }
      while true {
        skipWhitespace()
        h = SymbolTable.mix(h ^ (try hashValue(depth: depth + 1, scratch: &scratch)))
        if try !nextMember(closing: 93) { return h }
      }
    case 34:
      let mark = scratch.count
      let ref = try readString(scratch: &scratch)
      let h = bytesHash(ref, scratch) ^ 0x7374_7269_6e67
      scratch.removeLast(scratch.count - mark)
      return SymbolTable.mix(h)
    case 116:
      guard matchLiteral("true") else { throw jsonError("expected a value") }
      return 0x7472_7565
    case 102:
      guard matchLiteral("false") else { throw jsonError("expected a value") }
      return 0x6661_6c73_65
    case 110:
      guard matchLiteral("null") else { throw jsonError("expected a value") }
      return 0x6e75_6c6c
    default:
      return try hashNumber()
    }
  }

  /// `hashValue` of the object at the cursor (on its `{`): a commutative sum of its members' hashes.
  mutating func hashObject(depth: Int, scratch: inout [UInt8]) throws(Diagnostic) -> UInt64 {
    i += 1
    var sum: UInt64 = 0x6f62_6a65_6374
    var count: UInt64 = 0
    skipWhitespace()
    if i < end && p[i] == 125 {
      i += 1
      return SymbolTable.mix(sum)
    }
    while true {
      skipWhitespace()
      guard i < end, p[i] == 34 else { throw jsonError("expected a key in double quotes") }
      let mark = scratch.count
      let key = try readString(scratch: &scratch)
      let keyHash = bytesHash(key, scratch)
      scratch.removeLast(scratch.count - mark)
      skipWhitespace()
      guard i < end, p[i] == 58 else { throw jsonError("expected ':'") }
      i += 1
      skipWhitespace()
      let valueHash = try hashValue(depth: depth + 1, scratch: &scratch)
      // A commutative sum of per-member hashes makes key order irrelevant.
      sum = sum &+ SymbolTable.mix(keyHash ^ (valueHash &* 0x9e37_79b9_7f4a_7c15))
      count += 1
      if try !nextMember(closing: 125) { return SymbolTable.mix(sum ^ count) }
    }
  }

  /// `hashValue` of the number at the cursor: numbers compare as exact decimal values, so `1`,
  /// `1.0` and `10e-1` hash alike while numbers one `Double` cannot tell apart do not.
  ///
  /// A number a `Double` holds exactly as written (an integer of 64 bits, or the shortest text of
  /// its `Double`) hashes as before this rule, so kept snapshots still match; any other number
  /// (more digits than a `Double` keeps, beyond its range) hashes its `ExactDecimal` form.
  mutating func hashNumber() throws(Diagnostic) -> UInt64 {
    guard let scan = JSONScan.number(p, from: i, end: end) else {
      throw jsonError("expected a value")
    }
    let text = UnsafeBufferPointer(rebasing: p[i..<scan.end])
    let numberText = String(decoding: text, as: UTF8.self)
    i = scan.end
    if scan.isInteger, let integer = Int64(numberText) {
      return SymbolTable.mix(UInt64(bitPattern: integer) ^ 0x6e75_6d)
    }
    guard let exact = ExactDecimal(jsonNumber: text) else {
      return SymbolTable.mix(SymbolTable.hash(text) ^ 0x7465_7874)
    }
    let value = Double(numberText) ?? .nan
    // Up to 15 significant digits well inside the normal range, a `Double` always holds the number
    // as its shortest text (DBL_DIG), so only longer or extreme numbers pay for that text.
    let magnitude = exact.exponent + Int64(exact.digits.count)
    var held = exact.digits.count <= 15 && abs(magnitude) < 280
    if !held {
      var shortest = value.description
      held = value.isFinite && shortest.withUTF8 { ExactDecimal(jsonNumber: $0) } == exact
    }
    guard held else {
      let digits = exact.digits.withUnsafeBufferPointer { SymbolTable.hash($0) }
      let sign: UInt64 = exact.isNegative ? 0x2d : 0x2b
      return SymbolTable.mix(digits ^ SymbolTable.mix(UInt64(bitPattern: exact.exponent) ^ sign) ^ 0x6578_6163_74)
    }
    if abs(value) < 9.0e18, value == Double(Int64(value)) {
      return SymbolTable.mix(UInt64(bitPattern: Int64(value)) ^ 0x6e75_6d)
    }
    return SymbolTable.mix((value == 0 ? 0 : value.bitPattern) ^ 0x666c_6f61_74)
  }

  func bytesHash(_ ref: StringRef, _ scratch: [UInt8]) -> UInt64 {
    let s = Int(ref.start)
    let e = s + Int(ref.count)
    if ref.inScratch {
      return scratch.withUnsafeBufferPointer { SymbolTable.hash(UnsafeBufferPointer(rebasing: $0[s..<e])) }
    }
    return SymbolTable.hash(UnsafeBufferPointer(rebasing: p[s..<e]))
  }
}

/// Maps a field name's bytes to a `Field`.
@inline(__always)
func matchFieldName(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Field? {
  @inline(__always) func equals(_ literal: StaticString) -> Bool {
    guard literal.utf8CodeUnitCount == count else { return false }
    let bytes = literal.utf8Start
    for k in 0..<count where p[start + k] != bytes[k] { return false }
    return true
  }
  switch count {
  case 2: return equals("id") ? .id : equals("at") ? .at : equals("to") ? .to : nil
  case 4: return equals("type") ? .type : equals("meta") ? .meta : nil
  case 5:
    return equals("offer") ? .offer : equals("price") ? .price : equals("store") ? .store : equals("grant") ? .grant : nil
  case 6: return equals("reason") ? .reason : nil
  case 7:
    return equals("subject")
      ? .subject
      : equals("product")
        ? .product
        : equals("expires")
          ? .expires
          : equals("feature") ? .feature : equals("country") ? .country : equals("service") ? .service : nil
  case 8:
    return equals("recorded")
      ? .recorded
      : equals("quantity")
        ? .quantity
        : equals("currency") ? .currency : equals("refunded") ? .refunded : equals("proceeds") ? .proceeds : nil
  case 9: return equals("ownership") ? .ownership : nil
  case 10: return equals("auto_renew") ? .autoRenew : equals("respond_by") ? .respondBy : nil
  case 11: return equals("transaction") ? .transaction : nil
  case 12: return equals("entitlements") ? .entitlements : nil
  case 13: return equals("grace_expires") ? .graceExpires : nil
  case 20: return equals("original_transaction") ? .originalTransaction : nil
  default: return nil
  }
}
