/// The fast path of the one reader of a typed event (Docs/decisions.md, "The importers' knowledge
/// is typed (issue 33)"): a line in the layout the one encoder writes (`NewEvent.appendLine`:
/// compact, keys in byte order, no spaces) read straight from its bytes, with no `JSONValue`
/// tree and no dictionary of members.
extension NewEvent {
  /// The event of `line` when it is exactly in the encoder's layout; nil for anything else
  /// (spaces, another key order, an unknown key, `null`, a number not written as a plain
  /// integer, a `meta` value that is not a string, integer or boolean, a time or name with an
  /// escape), which `NewEvent(json:)` reads instead. Strings with escapes or non-ASCII bytes are
  /// decoded by the JSON reader's own `JSONScan.string`, so both readers see the same text.
  /// Pinned equal to `NewEvent(json:)` wherever it is not nil (`CompactLineReaderTests`).
  /// - Complexity: O(length of the line).
  package init?(compactLine line: UnsafeBufferPointer<UInt8>) {
    var reader = CompactLineReader(bytes: line)
    guard let event = reader.event() else { return nil }
    self = event
  }
}

/// The log line's field names in byte order, the order the encoder writes them (a test checks
/// they are `NewEvent`'s field names, sorted).
enum CompactField: String, CaseIterable {
  case at, autoRenew = "auto_renew", country, currency, entitlements, expires, feature
  case graceExpires = "grace_expires", grant, id, meta, offer, originalTransaction = "original_transaction"
  case ownership, price, proceeds, product, quantity, reason, recorded, refunded, respondBy = "respond_by"
  case service, store, subject, to, transaction, type

  /// Each field's name as bytes, in case order.
  static let names: [[UInt8]] = allCases.map { Array($0.rawValue.utf8) }
}

/// Reads one compact line left to right; every step is nil on the first byte it does not expect.
struct CompactLineReader {
  /// The line, without its newline.
  let bytes: UnsafeBufferPointer<UInt8>
  /// The next byte to read.
  var position = 0

  /// Creates a reader at the start of `bytes`.
  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// The whole line's event: an object whose keys are known fields in strictly increasing
  /// order, holding `id`, `type`, `subject` and `at`, and nothing after it.
  /// - Complexity: O(length of the line).
  mutating func event() -> NewEvent? {
    guard take(UInt8(ascii: "{")) else { return nil }
    // Placeholders until the line's own four (counted in `required`).
    var event = NewEvent(
      id: EventID(rawValue: ""), kind: .purchase, subject: SubjectID(rawValue: ""),
      at: Timestamp(millisecondsSinceEpoch: 0))
    var next = 0
    var required = 0
    repeat {
      guard let field = field(from: &next), take(UInt8(ascii: ":")), read(field, into: &event) else { return nil }
      switch field {
      case .at, .id, .subject, .type: required += 1
      default: break
      }
    } while take(UInt8(ascii: ","))
    guard take(UInt8(ascii: "}")), position == bytes.count, required == 4 else { return nil }
    return event
  }

  /// Reads the value of `field` into `event`; false when it is not in the encoder's form.
  /// - Complexity: O(length of the value).
  mutating func read(_ field: CompactField, into event: inout NewEvent) -> Bool {
    switch field {
    case .at: return store(time(), &event.at)
    case .autoRenew: return set(bool(), &event.autoRenew)
    case .country: return set(string(), &event.country)
    case .currency: return set(string(), &event.currency)
    case .entitlements: return set(strings(), &event.entitlements)
    case .expires: return set(time(), &event.expires)
    case .feature: return set(string(), &event.feature)
    case .graceExpires: return set(time(), &event.graceExpires)
    case .grant: return set(string().map { EventID(rawValue: $0) }, &event.grant)
    case .id: return store(string().map { EventID(rawValue: $0) }, &event.id)
    case .meta: return store(meta(), &event.metaValues)
    case .offer: return set(string().flatMap { Offer(rawValue: $0) }, &event.offer)
    case .originalTransaction: return set(string().map { TransactionID(rawValue: $0) }, &event.originalTransaction)
    case .ownership: return set(string().flatMap { Ownership(rawValue: $0) }, &event.ownership)
    case .price: return set(integer(), &event.price)
    case .proceeds: return set(integer(), &event.proceeds)
    case .product: return set(string().map { ProductID(rawValue: $0) }, &event.product)
    case .quantity: return set(integer(), &event.quantity)
    case .reason: return set(string(), &event.reason)
    case .recorded: return set(time(), &event.recorded)
    case .refunded: return set(integer(), &event.refunded)
    case .respondBy: return set(time(), &event.respondBy)
    case .service: return set(string(), &event.service)
    case .store: return set(string(), &event.store)
    case .subject: return store(string().map { SubjectID(rawValue: $0) }, &event.subject)
    case .to: return set(string().map { SubjectID(rawValue: $0) }, &event.to)
    case .transaction: return set(string().map { TransactionID(rawValue: $0) }, &event.transaction)
    case .type: return store(kind(), &event.kind)
    }
  }

  /// Stores `value` in a required field when there is one; whether there was.
  private func store<Value>(_ value: Value?, _ target: inout Value) -> Bool {
    guard let value else { return false }
    target = value
    return true
  }

  /// Stores `value` in an optional field when there is one; whether there was.
  private func set<Value>(_ value: Value?, _ target: inout Value?) -> Bool {
    guard let value else { return false }
    target = value
    return true
  }

  /// Consumes `byte` when it is next; whether it was.
  mutating func take(_ byte: UInt8) -> Bool {
    guard position < bytes.count, bytes[position] == byte else { return false }
    position += 1
    return true
  }

  /// The next key, a field at or after `next` in byte order (so no key repeats or comes out
  /// of order); `next` moves past it.
  /// - Complexity: O(number of fields) over a whole line.
  mutating func field(from next: inout Int) -> CompactField? {
    guard let span = plainString() else { return nil }
    let key = UnsafeBufferPointer(rebasing: bytes[span])
    while next < CompactField.names.count {
      let name = CompactField.names[next]
      next += 1
      if name.count == key.count && name.elementsEqual(key) { return CompactField.allCases[next - 1] }
    }
    return nil
  }

  /// The span of a string's text when it is printable ASCII without escapes; nil (and nothing
  /// consumed) otherwise.
  /// - Complexity: O(length of the string).
  mutating func plainString() -> Range<Int>? {
    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
    var end = position + 1
    while end < bytes.count {
      let byte = bytes[end]
      if byte == UInt8(ascii: "\"") { break }
      guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
      end += 1
    }
    guard end < bytes.count else { return nil }
    defer { position = end + 1 }
    return (position + 1)..<end
  }

  /// A string; escapes and non-ASCII text decoded by the JSON reader's `JSONScan.string`.
  /// - Complexity: O(length of the string).
  mutating func string() -> String? {
    if let span = plainString() { return String(decoding: UnsafeBufferPointer(rebasing: bytes[span]), as: UTF8.self) }
    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
    var text: [UInt8] = []
    guard case .success(let end) = JSONScan.string(bytes, from: position + 1, end: bytes.count, into: &text) else {
      return nil
    }
    position = end
    return String(decoding: text, as: UTF8.self)
  }

  /// An RFC 3339 time written without escapes, read as `Timestamp.parseRFC3339` reads it.
  mutating func time() -> Timestamp? {
    plainString().flatMap { Timestamp.parseRFC3339(UnsafeBufferPointer(rebasing: bytes[$0])) }
  }

  /// An event type's name, written without escapes.
  mutating func kind() -> EventKind? {
    plainString().flatMap { EventKind(nameBytes: UnsafeBufferPointer(rebasing: bytes[$0])) }
  }

  /// `true` or `false`.
  mutating func bool() -> Bool? {
    for (literal, value) in [("true", true), ("false", false)] {
      let word = literal.utf8
      guard position + word.count <= bytes.count,
        bytes[position..<(position + word.count)].elementsEqual(word)
      else { continue }
      position += word.count
      return value
    }
    return nil
  }

  /// An integer as the encoder writes one: an optional `-`, then `0` or up to 18 digits without
  /// a leading zero (so it fits an `Int64`); a fraction or exponent is not taken.
  /// - Complexity: O(digits).
  mutating func integer() -> Int64? {
    var end = position
    let negative = take(at: &end, UInt8(ascii: "-"))
    let digitsStart = end
    var value: Int64 = 0
    while end < bytes.count, bytes[end] &- UInt8(ascii: "0") < 10, end - digitsStart < 18 {
      value = value * 10 + Int64(bytes[end] &- UInt8(ascii: "0"))
      end += 1
    }
    let digits = end - digitsStart
    guard digits > 0, digits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { return nil }
    // A 19th digit, a fraction or an exponent is a number this reader does not take.
    if end < bytes.count, bytes[end] &- UInt8(ascii: "0") < 10 || bytes[end] == UInt8(ascii: ".")
      || bytes[end] | 0x20 == UInt8(ascii: "e")
    {
      return nil
    }
    position = end
    return negative ? -value : value
  }

  /// Consumes `byte` at `index` when it is there; whether it was.
  private func take(at index: inout Int, _ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  /// A list of strings (`entitlements`), `[]` included.
  /// - Complexity: O(length of the list).
  mutating func strings() -> [String]? {
    guard take(UInt8(ascii: "[")) else { return nil }
    var items: [String] = []
    if take(UInt8(ascii: "]")) { return items }
    repeat {
      guard let item = string() else { return nil }
      items.append(item)
    } while take(UInt8(ascii: ","))
    return take(UInt8(ascii: "]")) ? items : nil
  }

  /// `meta`: an object whose keys are plain ASCII in strictly increasing byte order (as the
  /// encoder sorts them) and whose values are strings, integers or booleans.
  /// - Complexity: O(length of the object).
  mutating func meta() -> [String: JSONValue]? {
    guard take(UInt8(ascii: "{")) else { return nil }
    var values: [String: JSONValue] = [:]
    if take(UInt8(ascii: "}")) { return values }
    var previous: Range<Int>? = nil
    repeat {
      guard let span = plainString(), take(UInt8(ascii: ":")) else { return nil }
      if let previous, !bytes[previous].lexicographicallyPrecedes(bytes[span]) { return nil }
      previous = span
      guard let value = metaValue() else { return nil }
      values[String(decoding: UnsafeBufferPointer(rebasing: bytes[span]), as: UTF8.self)] = value
    } while take(UInt8(ascii: ","))
    return take(UInt8(ascii: "}")) ? values : nil
  }

  /// One `meta` value: a string, an integer or a boolean.
  mutating func metaValue() -> JSONValue? {
    guard position < bytes.count else { return nil }
    switch bytes[position] {
    case UInt8(ascii: "\""): return string().map { .string($0) }
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return bool().map { .bool($0) }
    default: return integer().map { .integer($0) }
    }
  }
}
