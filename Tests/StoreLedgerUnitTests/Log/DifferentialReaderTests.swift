import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerGenerate

// The differential test of issue 4: the fast byte-level reader (`EventLineParser`, as
// `LedgerBuilder.add` drives it) and `ReferenceEventReader` (Foundation, tests only) must
// accept and reject the same lines, and read the same values from the lines they accept.
//
// Each line is read on its own, as a one-line log, so that log-wide rules (duplicate ids,
// reused transactions, overdraw) never interfere: the parser is called directly, except for
// the two rules `LedgerBuilder.add` applies before the parser (blank lines are ignored, and
// lines over `Limits.lineBytesMax` are refused), for which a one-line `LedgerBuilder` is asked.
//
// Randomized parts print their seed; `STORELEDGER_SEED=N swift test --filter Differential`
// replays one.

// MARK: - The fast reader, seen as a verdict

/// Reads lines with the fast reader and describes the results like the reference does.
struct FastLineReader {
  let catalog: Catalog
  private var parser: EventLineParser
  private var symbols = LedgerSymbols()

  init(catalog: Catalog) {
    self.catalog = catalog
    parser = EventLineParser(catalog: catalog)
  }

  mutating func read(_ line: [UInt8]) -> LineVerdict {
    let isBlank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
    if isBlank || line.count > Limits.lineBytesMax {
      // The builder's own rules, before the parser.
      var builder = LedgerBuilder(catalog: catalog, file: "log.jsonl")
      let outcome = line.withUnsafeBufferPointer { builder.add(line: $0, lineNumber: 1) }
      switch outcome {
      case .empty: return .ignored
      case .rejected:
        guard let diagnostic = builder.errors.first else { return .rejected(field: "?", why: "no diagnostic") }
        return .rejected(field: Self.field(of: diagnostic.problem), why: diagnostic.message)
      case .added, .duplicate, .learnedEarlier: break  // fall through to the parser for the values
      }
    }
    let result = line.withUnsafeBufferPointer { parser.parseDetailed($0, lineNumber: 1, symbols: &symbols) }
    switch result {
    case .failure(let diagnostic):
      return .rejected(field: Self.field(of: diagnostic.problem), why: diagnostic.message)
    case .success(let parsed):
      return .accepted(normalized(parsed.event, parsed.details))
    }
  }

  /// The field a diagnostic names ("json" for invalid JSON, "line" for the line length).
  static func field(of problem: Problem) -> String {
    switch problem {
    case .invalidJSON: return "json"
    case .unknownField(let name, _), .duplicateField(let name): return name
    case .missingField(let field, _), .fieldNotAllowed(let field, _, _), .invalidValue(let field, _, _),
      .unknownProduct(let field, _, _):
      return field
    case .unknownEventType: return "type"
    case .unknownCurrency: return "currency"
    case .lineTooLong: return "line"
    default: return "unexpected problem \(problem)"
    }
  }

  private func text(_ table: SymbolTable, _ symbol: Symbol) -> String? {
    guard symbol.isSome else { return nil }
    return table.withBytes(symbol) { bytes in
      String(validating: Array(bytes), as: UTF8.self) ?? "<invalid UTF-8 \(Array(bytes))>"
    }
  }

  /// The event's values mapped back to names through the symbol tables and the catalog.
  /// Defaults the event keeps in place of absent values are checked to be the contract's.
  func normalized(_ event: Event, _ details: EventDetails) -> NormalizedEvent {
    var n = NormalizedEvent()
    var inconsistencies: [String] = []
    n.type = event.kind.name
    n.id = text(symbols.ids, event.id) ?? "<none>"
    n.subject = text(symbols.subjects, event.loadingSubject) ?? "<none>"
    n.at = event.at.millisecondsSinceEpoch
    if event.hasRecorded {
      n.recorded = event.recorded.millisecondsSinceEpoch
    } else if event.recorded != event.at {
      inconsistencies.append("recorded absent but \(event.recorded) != at")
    }
    if event.hasExpires {
      if event.kind == .refundRequested {
        n.respondBy = event.expires.millisecondsSinceEpoch
      } else if event.kind == .graceEntered {
        n.graceExpires = event.expires.millisecondsSinceEpoch
      } else {
        n.expires = event.expires.millisecondsSinceEpoch
      }
    }
    var product: Product? = nil
    if event.product.isSome {
      product = catalog[event.product]
      n.product = product!.id
    }
    n.transaction = text(symbols.transactions, event.transaction)
    n.originalTransaction = text(symbols.transactions, event.originalTransaction)
    if event.kind == .consumption || (event.kind == .purchase && product?.kind == .consumable)
      || (event.kind == .revocation && event.quantity != 0)
    {
      n.quantity = event.quantity
    } else if event.kind == .grant || event.kind == .block {
      // The entitlements' bit mask (Event+Access); every bit: a block of every entitlement.
      let mask = event.entitlementMask
      if mask != UInt64.max {
        n.entitlements = catalog.entitlementNames.enumerated().filter { mask & (1 << UInt64($0.offset)) != 0 }.map(\.element)
          .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
      } else if event.kind == .grant {
        inconsistencies.append("a grant of every entitlement")
      }
    } else if event.quantity != 0 {
      inconsistencies.append("quantity \(event.quantity) on a \(event.kind.name)")
    }
    if event.hasOwnership {
      n.ownership = event.ownership.name
    } else if event.ownership != .purchased {
      inconsistencies.append("ownership absent but \(event.ownership.name)")
    }
    if event.hasOffer {
      n.offer = event.offer.name
    } else if event.offer != .normal {
      inconsistencies.append("offer absent but \(event.offer.name)")
    }
    if details.hasPrice { n.price = details.price }
    if event.hasRefunded {
      n.refunded = details.price
    } else if !details.hasPrice && details.price != 0 {
      inconsistencies.append("an amount \(details.price) without a price or refunded")
    }
    n.hasChargeFacts = details.factsHash != 0
    n.currency = text(symbols.currencies, event.kind == .consumption ? event.balanceCurrency : details.priceCurrency)
    if event.reasonRaw != 255 {
      n.reason =
        event.kind == .expiration
        ? ExpirationReason(rawValue: event.reasonRaw)?.name
        : event.kind == .refundRequested
          ? RefundRequestReason(rawValue: event.reasonRaw)?.name : RevocationReason(rawValue: event.reasonRaw)?.name
    }
    if event.kind == .autoRenewChanged { n.autoRenew = event.autoRenew }
    // The v1.3 kinds keep their values in fields they have no other use for (Event+Transfer, Event+Access).
    if event.kind == .transfer {
      n.to = text(symbols.transactions, event.transferRecipient)
      let unit = text(symbols.transactions, event.transferredUnit)
      (n.transaction, n.originalTransaction) = event.transferNamesTransaction ? (unit, nil) : (nil, unit)
      n.reason = nil
    } else if event.isAccess {
      n.reason = text(symbols.transactions, event.accessReason)
      n.grant = event.kind == .grantRevoked ? text(symbols.transactions, event.grantReference) : nil
      n.service = event.kind == .block || event.kind == .unblock ? text(symbols.transactions, event.service) : nil
      (n.transaction, n.originalTransaction) = (nil, nil)
    }
    n.hasMeta = details.metaHash != 0
    if !inconsistencies.isEmpty { n.type += " <" + inconsistencies.joined(separator: "; ") + ">" }
    return n
  }
}

// MARK: - Building lines

/// A JSON string literal for `s`; `escape` says which scalars to write as `\u` escapes
/// (surrogate pairs beyond the BMP). Quotes, backslashes and control characters are always escaped.
func jsonLiteral(_ s: String, escape: (Unicode.Scalar) -> Bool = { _ in false }, upperHex: Bool = false) -> String {
  func hex(_ v: UInt32) -> String {
    let digits = String(v, radix: 16, uppercase: upperHex)
    return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
  }
  var out = "\""
  for scalar in s.unicodeScalars {
    if escape(scalar) {
      if scalar.value > 0xFFFF {
        let v = scalar.value - 0x10000
        out += hex(0xD800 + (v >> 10)) + hex(0xDC00 + (v & 0x3FF))
      } else {
        out += hex(scalar.value)
      }
    } else if scalar == "\"" {
      out += "\\\""
    } else if scalar == "\\" {
      out += "\\\\"
    } else if scalar.value < 0x20 {
      out += hex(scalar.value)
    } else {
      out.unicodeScalars.append(scalar)
    }
  }
  return out + "\""
}

/// Decodes a JSON string literal (JSONDecoder keeps a leading U+FEFF; JSONSerialization does not).
func decodeJSONLiteral(_ literal: String) -> String? {
  guard let decoded = try? JSONDecoder().decode([String].self, from: Data("[\(literal)]".utf8)), decoded.count == 1
  else { return nil }
  return decoded[0]
}

/// A valid line taken apart: its members in order, keys decoded, values as written.
struct LineModel {
  var members: [(key: String, raw: String)]

  /// Splits a line that is a flat-enough JSON object (any values) with JSONSerialization's help:
  /// values are found by bracket counting outside strings, keys decoded by JSONSerialization.
  init?(_ line: String) {
    let scalars = Array(line.unicodeScalars)
    var members: [(String, String)] = []
    var i = 0
    func skipSpace() { while i < scalars.count, " \t\r".unicodeScalars.contains(scalars[i]) { i += 1 } }
    func readString() -> String? {
      guard i < scalars.count, scalars[i] == "\"" else { return nil }
      var j = i + 1
      while j < scalars.count, scalars[j] != "\"" { j += scalars[j] == "\\" ? 2 : 1 }
      guard j < scalars.count else { return nil }
      var view = String.UnicodeScalarView()
      view.append(contentsOf: scalars[i...j])
      i = j + 1
      return String(view)
    }
    skipSpace()
    guard i < scalars.count, scalars[i] == "{" else { return nil }
    i += 1
    while true {
      skipSpace()
      if i < scalars.count, scalars[i] == "}" { break }
      guard let keyLiteral = readString(), let key = decodeJSONLiteral(keyLiteral) else { return nil }
      skipSpace()
      guard i < scalars.count, scalars[i] == ":" else { return nil }
      i += 1
      skipSpace()
      let start = i
      var depth = 0
      while i < scalars.count {
        let c = scalars[i]
        if c == "\"" {
          guard readString() != nil else { return nil }
          continue
        }
        if depth == 0 && (c == "," || c == "}") { break }
        if c == "{" || c == "[" { depth += 1 }
        if c == "}" || c == "]" { depth -= 1 }
        i += 1
      }
      var view = String.UnicodeScalarView()
      view.append(contentsOf: scalars[start..<i])
      members.append((key, String(view).trimmingCharacters(in: .whitespaces)))
      guard i < scalars.count else { return nil }
      if scalars[i] == "," {
        i += 1
        continue
      }
      break
    }
    self.members = members
  }

  func index(of key: String) -> Int? { members.firstIndex { sameUnicodeScalars($0.key, key) } }

  func value(_ key: String) -> String? { index(of: key).map { members[$0].raw } }

  /// The decoded value of a string member.
  func stringValue(_ key: String) -> String? {
    guard let raw = value(key), raw.hasPrefix("\"") else { return nil }
    return decodeJSONLiteral(raw)
  }

  func render(key: (String) -> String = { jsonLiteral($0) }, separator: String = ",", colon: String = ":")
    -> String
  {
    "{" + members.map { key($0.key) + colon + $0.raw }.joined(separator: separator) + "}"
  }
}

/// One mutated line and what the mutation promises.
struct MutationCase {
  var label: String
  var line: [UInt8]
  /// The fields a rejection may name (structured mutations aimed at one field); nil: any.
  var target: [String]?
  /// The mutation does not change the line's meaning: the verdict must equal the original's.
  var meaningPreserving = false
  /// The kind of mutation, for the tally.
  var kind = ""
}

private let timestampFields = ["at", "recorded", "expires", "grace_expires"]
private let stringFields = [
  "id", "type", "subject", "product", "transaction", "original_transaction", "ownership", "offer", "currency",
  "reason",
]
private let integerFields = ["quantity", "price"]

/// Writes an instant in RFC 3339 with a given offset (minutes east of UTC) and fraction style.
func writeRFC3339(_ ms: Int64, offsetMinutes: Int, fractionDigits: Int?, lowercase: Bool = false, negativeZero: Bool = false) -> String {
  let seconds = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000)
  let millis = ms - seconds * 1000
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(identifier: "UTC")!
  let local = Date(timeIntervalSince1970: Double(seconds + Int64(offsetMinutes) * 60))
  let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: local)
  func pad(_ v: Int, _ width: Int) -> String {
    let s = String(v)
    return String(repeating: "0", count: max(0, width - s.count)) + s
  }
  var out = "\(pad(c.year!, 4))-\(pad(c.month!, 2))-\(pad(c.day!, 2))\(lowercase ? "t" : "T")"
  out += "\(pad(c.hour!, 2)):\(pad(c.minute!, 2)):\(pad(c.second!, 2))"
  if let fractionDigits, fractionDigits > 0 {
    let three = pad(Int(millis), 3)
    out += "." + three.prefix(fractionDigits)
  }
  if offsetMinutes == 0 && !negativeZero {
    out += lowercase ? "z" : "Z"
  } else {
    let sign = offsetMinutes < 0 || negativeZero ? "-" : "+"
    out += sign + pad(abs(offsetMinutes) / 60, 2) + ":" + pad(abs(offsetMinutes) % 60, 2)
  }
  return out
}

/// Makes random mutations of valid lines.
struct Mutator {
  var random: SeededGenerator
  let catalog: Catalog
  let reference: ReferenceEventReader

  init(random: SeededGenerator, catalog: Catalog) {
    self.random = random
    self.catalog = catalog
    reference = ReferenceEventReader(catalog: catalog)
  }

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
  mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }
  mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

  static let wrongValues: [String: [String]] = [
    "number": ["0", "1", "-1", "1.5", "1e2", "123456789012345678901234567890"],
    "string": ["\"\"", "\"x\"", "\"2026-03-01T12:00:00Z\"", "\"1\"", "\"true\""],
    "null": ["null"],
    "bool": ["true", "false"],
    "object": ["{}", "{\"a\":1}"],
    "array": ["[]", "[1]", "[\"x\"]"],
  ]

  mutating func wrongValue(for key: String) -> String {
    var kinds = ["number", "string", "null", "bool", "object", "array"]
    if stringFields.contains(key) || timestampFields.contains(key) { kinds.removeAll { $0 == "string" } }
    if integerFields.contains(key) { kinds.removeAll { $0 == "number" } }
    if key == "auto_renew" { kinds.removeAll { $0 == "bool" } }
    if key == "meta" { kinds.removeAll { $0 == "object" } }
    return pick(Self.wrongValues[pick(kinds)]!)
  }

  /// A random string of `length` scalars from pools that stress UTF-8 and escapes.
  mutating func unicodeString(length: Int) -> String {
    let pools: [[UInt32]] = [
      Array(0x20...0x7E), [0xE9, 0xFC, 0xF1, 0xDF, 0xA0], [0x301, 0x308, 0x20DD], [0x4E2D, 0x6587, 0xAC00, 0x3042],
      [0x1F600, 0x1F468, 0x1F3FD, 0x10348, 0x10FFFF, 0x1D11E], [0xFEFF, 0x200B, 0x200D, 0x2028, 0x2029, 0xFFFD, 0xFFFF],
      [0x00, 0x01, 0x09, 0x0A, 0x1F, 0x7F, 0x85], [0x212A, 0x2126, 0x5C, 0x22, 0x2F], [0x5D0, 0x627, 0x202E],
    ]
    var view = String.UnicodeScalarView()
    for _ in 0..<length { view.append(Unicode.Scalar(pick(pick(pools)))!) }
    return String(view)
  }

  mutating func escapeSome(_ s: String) -> String {
    let p = pick([0.2, 0.5, 1.0])
    var decisions: [Bool] = []
    for _ in s.unicodeScalars { decisions.append(chance(p)) }
    var k = 0
    let upper = chance(0.5)
    return jsonLiteral(s, escape: { _ in defer { k += 1 }; return decisions[k] }, upperHex: upper)
  }

  static let unknownNames = [
    "expries", "Subject", "ID", "id ", " id", "meta_", "transaction_id", "grace_expiry", "", "prices", "typ",
    "\u{0}", "i\u{0307}d", "Type", "AT", "originalTransaction", "autoRenew", "auto-renew", "expires_at", "\u{212A}",
    "recorded\u{200B}", "__proto__",
  ]

  static let invalidIntegers: [(text: String, validJSON: Bool)] = [
    ("1.0", true), ("1e2", true), ("1E2", true), ("2e0", true), ("-1", true), ("0", true), ("-0", true), ("1", true),
    ("7", true), ("99999999999999999999", true), ("1000000000000000000", true), ("1000000000000000001", true),
    ("999999999999999999", true), ("9223372036854775807", true), ("9223372036854775808", true),
    ("-9223372036854775808", true), ("-9223372036854775809", true), ("18446744073709551616", true),
    ("10000000000000000000", true), ("1000000000000000", true), ("1000000000000001", true), ("999999999999999", true),
    ("-0.0", true), ("0.5", true), ("1e400", true), ("-1000000000000000001", true),
    ("01", false), ("+1", false), ("1.", false), (".5", false), ("0x10", false), ("Infinity", false),
    ("NaN", false), ("\u{661}", false), ("1_000", false), ("--1", false), ("1e", false),
  ]

  /// Invalid ways to write the instant `ms`, each breaking one rule of RFC 3339 or the contract.
  func invalidTimestamps(_ ms: Int64) -> [String] {
    let good = writeRFC3339(ms, offsetMinutes: 0, fractionDigits: nil)
    let date = String(good.prefix(10))
    let time = String(good.dropFirst(11).prefix(8))
    return [
      "\(date)T\(time).1234Z", "\(date)T\(time).000000Z", "\(date)T\(time).Z", "\(date)T\(time)",
      "\(date) \(time)Z", "\(date)T\(time)+0200", "\(date)T\(time)+02", "\(date)T\(time)+24:00",
      "\(date)T\(time)+02:60", "\(date)T\(time)Z ", " \(date)T\(time)Z", "\(date)T\(time)\u{2212}02:00",
      "\(date)T\(time)+02:00Z", "\(date)T24:00:00Z", "\(date)T23:59:60Z", "\(date)T23:60:00Z",
      "2026-02-30T\(time)Z", "2023-02-29T\(time)Z", "2100-02-29T\(time)Z", "2026-04-31T\(time)Z",
      "2026-13-01T\(time)Z", "2026-00-10T\(time)Z", "2026-01-00T\(time)Z", "2026-1-01T\(time)Z",
      "12026-01-01T\(time)Z", "\(date)T12:00Z", "\(date)", "\u{662}\u{660}\u{662}\u{666}" + good.dropFirst(4),
      "\u{FF12}026" + good.dropFirst(4), "\(date)T\(time)UTC", "\(date)T\(time)z\u{301}", "\(date)x\(time)Z",
      "", "\(date)T\(time).12a3Z",
    ]
  }

  /// Valid but unusual instants, anywhere in 0000–9999.
  mutating func unusualTimestamp() -> String {
    pick([
      "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "2024-02-29T12:00:00Z", "2000-02-29T00:00:00.5Z",
      "1970-01-01T00:00:00Z", "1969-12-31T23:59:59.999Z", "2026-03-01T00:30:00+23:59", "2026-03-01T23:30:00-23:59",
      "1600-02-29T00:00:00Z", "0001-01-01T00:00:00+00:01", "2026-12-31T23:59:59-00:00",
      writeRFC3339(Int64.random(in: 0...253_402_300_799_999, using: &random), offsetMinutes: int(-1439...1439), fractionDigits: int(0...3)),
    ])
  }

  /// A random JSON value for `meta`, at most `depth` levels deep.
  mutating func jsonValue(depth: Int) -> String {
    let choice = depth <= 0 ? int(0...5) : int(0...7)
    switch choice {
    case 0: return pick(["0", "-0", "1.0", "1e400", "-1E-400", "123456789012345678901234567890", "3.14", "1E+2"])
    case 1: return jsonLiteral(unicodeString(length: int(0...6)), escape: { _ in false })
    case 2: return escapeSome(unicodeString(length: int(0...6)))
    case 3: return pick(["true", "false", "null"])
    case 4: return "{}"
    case 5: return "[]"
    case 6:
      let count = int(1...3)
      var members: [String] = []
      for _ in 0..<count {
        let key = chance(0.2) ? "\"k\"" : jsonLiteral(unicodeString(length: int(0...3)))
        members.append(key + pick([":", " : "]) + jsonValue(depth: depth - 1))
      }
      return "{" + members.joined(separator: pick([",", ", "])) + "}"
    default:
      var items: [String] = []
      for _ in 0..<int(1...3) { items.append(jsonValue(depth: depth - 1)) }
      return "[" + items.joined(separator: ",") + "]"
    }
  }

  /// `meta` nested exactly `levels` objects deep around a scalar, so the scalar is at line
  /// level `levels + 1`.
  func nestedMeta(levels: Int, innermost: String) -> String {
    String(repeating: "{\"a\":", count: levels - 1) + "{\"a\":" + innermost + String(repeating: "}", count: levels)
  }

  static let kinds = [
    "truncation", "bit flips", "byte replaced", "byte inserted or deleted", "wrong type", "wrong type",
    "unknown field", "field removed", "field duplicated", "strings escaped", "whitespace", "unicode text",
    "unicode text", "timestamp rewritten", "timestamp rewritten", "invalid timestamp", "unusual timestamp",
    "integer forms", "meta", "broken JSON", "type changed", "value changed", "members shuffled",
    "raw UTF-8 in a string", "escape in a string", "two mutations", "rebuilt unchanged",
  ]

  /// A random mutation of `base`, a valid line.
  mutating func mutate(_ base: String, nested: Bool = false) -> MutationCase {
    while true {
      let choice = int(0...(Self.kinds.count - 1))
      if nested && Self.kinds[choice] == "two mutations" { continue }
      if var result = build(choice, base) {
        if result.kind.isEmpty { result.kind = Self.kinds[choice] }
        return result
      }
    }
  }

  static let utf8Insertions: [(bytes: [UInt8], valid: Bool)] = [
    ([0xC0, 0xAF], false), ([0xC1, 0xBF], false), ([0xE0, 0x80, 0x80], false), ([0xE0, 0x9F, 0xBF], false),
    ([0xED, 0xA0, 0x80], false), ([0xED, 0xBF, 0xBF], false), ([0xF0, 0x8F, 0xBF, 0xBF], false),
    ([0xF4, 0x90, 0x80, 0x80], false), ([0xF5, 0x80, 0x80, 0x80], false), ([0xF8, 0x88, 0x80, 0x80, 0x80], false),
    ([0x80], false), ([0xBF], false), ([0xE2, 0x82], false), ([0xF0, 0x9F, 0x98], false), ([0xC2], false),
    ([0xFE], false), ([0xFF], false), ([0xC3, 0x28], false), ([0xE2, 0x28, 0xA1], false),
    ([0xF0, 0x9F, 0x98, 0x80], true), ([0xE2, 0x82, 0xAC], true), ([0xC2, 0xA9], true), ([0xEF, 0xBB, 0xBF], true),
    ([0xF4, 0x8F, 0xBF, 0xBF], true), ([0xED, 0x9F, 0xBF], true), ([0xEE, 0x80, 0x80], true),
    ([0xE0, 0xA0, 0x80], true), ([0xF0, 0x90, 0x80, 0x80], true), ([0xEF, 0xBF, 0xBF], true), ([0x7F], true),
  ]

  static let escapeInsertions: [(text: String, valid: Bool)] = [
    (#"\x"#, false), (#"\u12x"#, false), (#"\u12G4"#, false), (#"\uD800"#, false), (#"\uDC00"#, false),
    (#"\uD800\uD800"#, false), (#"\uDBFF\uE000"#, false), (#"\uD800\n"#, false), (#"\udfff\ud800"#, false),
    (#"\U0041"#, false), (#"\'"#, false), (#"\0"#, false), (#"\a"#, false), (#"\uD83D"#, false), (#"\ux"#, false),
    (#"\uD83D\uDE00"#, true), (#"\u00e9"#, true), (#"\/"#, true), (#"\b\f\n\r\t"#, true), (#"\u0000"#, true),
    (#"\uDBFF\uDFFF"#, true), (#"\uFEFF"#, true), (#"\"\\"#, true), (#"\uD800\uDC00"#, true),
  ]

  /// The line's bytes with one member's value written as `raw` bytes.
  func lineBytes(of model: LineModel, replacing index: Int, with raw: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x7B]
    for (k, member) in model.members.enumerated() {
      if k > 0 { out.append(0x2C) }
      out += Array(jsonLiteral(member.key).utf8) + [0x3A]
      out += k == index ? raw : Array(member.raw.utf8)
    }
    return out + [0x7D]
  }

  private mutating func build(_ choice: Int, _ base: String) -> MutationCase? {
    let bytes = Array(base.utf8)
    guard var model = LineModel(base) else { return MutationCase(label: "unparsed base", line: bytes) }
    guard !model.members.isEmpty, bytes.count > 2 else { return nil }
    let memberIndex = int(0...(model.members.count - 1))
    let key = model.members[memberIndex].key
    func line(_ text: String) -> [UInt8] { Array(text.utf8) }
    switch choice {
    case 0:
      let cut = int(0...(bytes.count - 1))
      return MutationCase(label: "truncated at byte \(cut)", line: Array(bytes[0..<cut]))
    case 1:
      var mutated = bytes
      var where_: [String] = []
      for _ in 0..<int(1...3) {
        let at = int(0...(mutated.count - 1))
        var bit = UInt8(1) << UInt8(int(0...7))
        if mutated[at] ^ bit == 0x0A { bit = 0x80 }
        mutated[at] ^= bit
        where_.append("\(at)^\(bit)")
      }
      return MutationCase(label: "bits flipped \(where_)", line: mutated)
    case 2:
      var mutated = bytes
      let at = int(0...(mutated.count - 1))
      let interesting: [UInt8] = [
        0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x20, 0x09, 0x0D, 0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3,
        0xE2, 0xED, 0xF0, 0xF4, 0xF5, 0xFF, 0x65, 0x30, 0x2D, 0x2E, 0x2B, 0x74, 0x6E, 0x5A, 0x54,
      ]
      var byte = chance(0.7) ? pick(interesting) : UInt8(int(0...255))
      if byte == 0x0A { byte = 0x0B }
      mutated[at] = byte
      return MutationCase(label: "byte \(at) replaced by \(byte)", line: mutated)
    case 3:
      var mutated = bytes
      let at = int(0...mutated.count)
      if chance(0.5) && at < mutated.count {
        mutated.remove(at: at)
        return MutationCase(label: "byte \(at) deleted", line: mutated)
      }
      var byte = UInt8(int(0...255))
      if byte == 0x0A { byte = 0x20 }
      mutated.insert(byte, at: at)
      return MutationCase(label: "byte \(byte) inserted at \(at)", line: mutated)
    case 4, 5:
      model.members[memberIndex].raw = wrongValue(for: key)
      return MutationCase(label: "'\(key)' given a wrong type", line: line(model.render()), target: [key])
    case 6:
      let name = pick(Self.unknownNames)
      model.members.insert((name, pick(["\"x\"", "1", "null", "{}", "true"])), at: int(0...model.members.count))
      return MutationCase(label: "unknown field \(jsonLiteral(name, escape: { !$0.isASCII })) added", line: line(model.render()), target: [name])
    case 7:
      model.members.remove(at: memberIndex)
      return MutationCase(label: "'\(key)' removed", line: line(model.render()), target: [key])
    case 8:
      let copy = model.members[memberIndex]
      model.members.insert(copy, at: int(0...model.members.count))
      return MutationCase(label: "'\(key)' given twice", line: line(model.render()), target: [key])
    case 9:
      // Strings (keys and values) re-encoded with \u escapes, surrogate pairs beyond the BMP.
      for i in model.members.indices where model.members[i].raw.hasPrefix("\"") {
        if let value = model.stringValue(model.members[i].key), chance(0.7) {
          model.members[i].raw = escapeSome(value)
        }
      }
      let escapeKeys = chance(0.5)
      var keyEncoder = Mutator(random: SeededGenerator(seed: random.next()), catalog: catalog)
      let text = model.render(key: { escapeKeys ? keyEncoder.escapeSome($0) : jsonLiteral($0) })
      return MutationCase(label: "strings re-encoded with escapes", line: line(text), meaningPreserving: true)
    case 10:
      let spaces = [" ", "\t", "\r", "  ", " \t "]
      let a = pick(spaces), b = pick(spaces), c = pick(spaces)
      let text = pick(spaces) + model.render(separator: a + "," + b, colon: c + ":" + pick(spaces)) + pick(spaces)
      return MutationCase(label: "whitespace between tokens", line: line(text), meaningPreserving: true)
    case 11, 12:
      let field = pick(["subject", "subject", "id", "transaction", "original_transaction", "currency", "product"])
      guard let i = model.index(of: field) else { return nil }
      let length = pick([0, 1, 2, 3, 5, 20, 127, 128, 129, 255, 256, 257, 300])
      let value = unicodeString(length: length)
      model.members[i].raw = chance(0.5) ? jsonLiteral(value) : escapeSome(value)
      return MutationCase(label: "'\(field)' set to \(length) random scalars", line: line(model.render()), target: [field])
    case 13, 14:
      // The same instant written another valid way.
      let present = timestampFields.filter { model.index(of: $0) != nil }
      guard !present.isEmpty else { return nil }
      let field = pick(present)
      guard let written = model.stringValue(field), let ms = reference.timestamp(written) else { return nil }
      let offset = pick([0, 0, 60, -60, 120, 330, -570, 1439, -1439, int(-1439...1439)])
      let millis = ms % 1000
      var digits: Int? = millis == 0 ? pick([nil, 1, 2, 3]) : 3
      if millis != 0 && millis % 10 == 0 { digits = pick([2, 3]) }
      if millis != 0 && millis % 100 == 0 { digits = pick([1, 2, 3]) }
      let text = writeRFC3339(ms, offsetMinutes: offset, fractionDigits: digits, lowercase: chance(0.2),
        negativeZero: offset == 0 && chance(0.2))
      model.members[model.index(of: field)!].raw = jsonLiteral(text)
      return MutationCase(label: "'\(field)' rewritten as \(text)", line: line(model.render()), meaningPreserving: true)
    case 15:
      let present = timestampFields.filter { model.index(of: $0) != nil }
      guard !present.isEmpty else { return nil }
      let field = pick(present)
      let ms = model.stringValue(field).flatMap { reference.timestamp($0) } ?? 1_772_366_400_000
      let text = pick(invalidTimestamps(ms))
      model.members[model.index(of: field)!].raw = chance(0.8) ? jsonLiteral(text) : escapeSome(text)
      return MutationCase(label: "'\(field)' set to invalid \(jsonLiteral(text, escape: { !$0.isASCII }))", line: line(model.render()), target: [field])
    case 16:
      let present = timestampFields.filter { model.index(of: $0) != nil }
      guard !present.isEmpty else { return nil }
      let field = pick(present)
      let text = unusualTimestamp()
      model.members[model.index(of: field)!].raw = jsonLiteral(text)
      return MutationCase(label: "'\(field)' set to \(text)", line: line(model.render()))
    case 17:
      let present = integerFields.filter { model.index(of: $0) != nil }
      guard !present.isEmpty else { return nil }
      let field = pick(present)
      let (text, validJSON) = pick(Self.invalidIntegers)
      model.members[model.index(of: field)!].raw = text
      return MutationCase(label: "'\(field)' written \(text)", line: line(model.render()),
        target: validJSON ? [field] : [field, "json"])
    case 18:
      let text: String
      let label: String
      if chance(0.4) {
        let levels = int(60...66)
        text = nestedMeta(levels: levels, innermost: pick(["1", "{}", "[]", "\"x\""]))
        label = "meta nested \(levels) objects deep"
      } else {
        text = jsonValue(depth: int(0...5))
        label = "random meta"
      }
      if let i = model.index(of: "meta") {
        model.members[i].raw = text
      } else {
        model.members.insert(("meta", text), at: int(0...model.members.count))
      }
      return MutationCase(label: label, line: line(model.render()),
        target: text.hasPrefix("{") ? nil : ["meta"])
    case 19:
      let edits: [(String, (String) -> String)] = [
        ("trailing comma", { String($0.dropLast()) + ",}" }),
        ("byte order mark", { "\u{FEFF}" + $0 }),
        ("extra closing brace", { $0 + "}" }),
        ("wrapped in an array", { "[" + $0 + "]" }),
        ("two objects", { $0 + $0 }),
        ("comma doubled", { $0.replacingOccurrences(of: "\",\"", with: "\",,\"", options: [], range: nil) }),
        ("comma missing", { $0.replacingOccurrences(of: "\",\"", with: "\" \"") }),
        ("single quotes", { "{'" + $0.dropFirst(2) }),
        ("comment", { "{/*c*/" + $0.dropFirst() }),
        ("NUL after the object", { $0 + "\u{0}" }),
        ("leading comma", { "{," + $0.dropFirst() }),
        ("colon doubled", { $0.replacingOccurrences(of: "\":\"", with: "\"::\"") }),
      ]
      let (name, edit) = pick(edits)
      // Invalid JSON; the fast reader may name the field whose value it was reading instead.
      return MutationCase(label: name, line: line(edit(base)))
    case 20:
      guard let i = model.index(of: "type") else { return nil }
      let type = pick(EventKind.allNames + ["Purchase", "purchase ", "refund", ""])
      model.members[i].raw = jsonLiteral(type)
      return MutationCase(label: "type set to \(type)", line: line(model.render()))
    case 21:
      let options: [(String, [String])] = [
        ("product", catalog.products.map(\.id) + ["Pro.monthly", "pro.monthly ", "coins", ""]),
        ("ownership", ["purchased", "family_shared", "Purchased", "family-shared", "shared", ""]),
        ("offer", ["trial", "intro", "promo", "code", "win_back", "normal", "Trial", "winback"]),
        ("reason", ["voluntary", "billing", "price_increase", "product_unavailable", "other", "refund", "family_revoked", "Other"]),
        ("currency", ["USD", "EUR", "usd", "US", "USDX", "\u{FF35}SD", "coins", "", "U\u{301}SD"]),
        ("original_transaction", ["t1", "", "x"]),
        ("expires", ["2024-01-01T00:00:00Z", "2999-01-01T00:00:00Z"]),
        ("quantity", ["1", "3"]),
        ("price", ["0", "4990"]),
        ("auto_renew", ["true", "false"]),
      ]
      let (field, values) = pick(options)
      let value = pick(values)
      let raw = field == "quantity" || field == "price" || field == "auto_renew" ? value : jsonLiteral(value)
      if let i = model.index(of: field) {
        model.members[i].raw = raw
      } else {
        model.members.insert((field, raw), at: int(0...model.members.count))
      }
      return MutationCase(label: "'\(field)' set to \(raw)", line: line(model.render()))
    case 22:
      model.members.shuffle(using: &random)
      return MutationCase(label: "members shuffled", line: line(model.render()), meaningPreserving: true)
    case 23, 24:
      // Raw bytes (valid or invalid UTF-8) or an escape (valid or not) put into a string value.
      let strings = model.members.indices.filter { model.members[$0].raw.hasPrefix("\"") }
      guard !strings.isEmpty else { return nil }
      let index = pick(strings)
      var raw = Array(model.members[index].raw.utf8)
      let inserted: [UInt8]
      let valid: Bool
      let position: Int
      if choice == 23 {
        (inserted, valid) = pick(Self.utf8Insertions)
        position = int(1...(raw.count - 1))  // may split a character or an escape: then it is invalid anyway
      } else {
        let escape = pick(Self.escapeInsertions)
        (inserted, valid) = (Array(escape.text.utf8), escape.valid)
        position = chance(0.5) ? 1 : raw.count - 1  // at a character boundary
      }
      raw.insert(contentsOf: inserted, at: position)
      let label = "\(inserted) put in '\(model.members[index].key)' at \(position)"
      return MutationCase(label: label, line: lineBytes(of: model, replacing: index, with: raw), target: valid ? nil : ["json"])
    case 25:
      let first = mutate(base, nested: true)
      guard let text = String(validating: first.line, as: UTF8.self), LineModel(text) != nil else { return first }
      let second = mutate(text, nested: true)
      return MutationCase(label: first.label + ", then " + second.label, line: second.line, kind: "two mutations")
    default:
      return MutationCase(label: "rebuilt unchanged", line: line(model.render()), meaningPreserving: true)
    }
  }
}

// MARK: - Comparing

/// One disagreement between the readers.
struct Discrepancy: CustomStringConvertible {
  var label: String
  var line: [UInt8]
  var fast: LineVerdict
  var reference: LineVerdict

  var lineText: String {
    String(validating: line, as: UTF8.self).map { jsonLiteral($0, escape: { $0.value < 0x20 || $0.value == 0x7F }) }
      ?? "bytes \(line)"
  }

  var description: String { "\(label): \(lineText)\n    fast:      \(fast)\n    reference: \(reference)" }
}

/// Reads cases with both readers and keeps score.
struct Differential {
  var fast: FastLineReader
  let reference: ReferenceEventReader
  var cases = 0
  var accepted = 0
  var rejected = 0
  var ignored = 0
  var sameField = 0
  var otherField: [Discrepancy] = []
  var disagreements: [Discrepancy] = []
  var targetMisses: [Discrepancy] = []
  var meaningChanges: [Discrepancy] = []
  /// Per kind of mutation: cases, accepted by both, rejected by both, of which naming the same field.
  var tally: [String: (cases: Int, accepted: Int, rejected: Int, sameField: Int)] = [:]

  init(catalog: Catalog) {
    fast = FastLineReader(catalog: catalog)
    reference = ReferenceEventReader(catalog: catalog)
  }

  /// Reads one case; `original` is the reference's verdict on the line it was made from.
  mutating func check(_ c: MutationCase, original: LineVerdict? = nil) {
    cases += 1
    let f = fast.read(c.line)
    let r = reference.read(c.line)
    let d = Discrepancy(label: c.label, line: c.line, fast: f, reference: r)
    var t = tally[c.kind, default: (0, 0, 0, 0)]
    t.cases += 1
    if f.isAccepted && r.isAccepted { t.accepted += 1 }
    if let x = f.rejectedField, let y = r.rejectedField {
      t.rejected += 1
      if x == y { t.sameField += 1 }
    }
    tally[c.kind] = t
    switch (f, r) {
    case (.accepted(let x), .accepted(let y)):
      if x == y { accepted += 1 } else { disagreements.append(d) }
    case (.rejected(let x, _), .rejected(let y, _)):
      rejected += 1
      if x == y { sameField += 1 } else { otherField.append(d) }
      if let target = c.target,
        !(target.contains { sameUnicodeScalars($0, x) } && target.contains { sameUnicodeScalars($0, y) })
      {
        targetMisses.append(d)
      }
    case (.ignored, .ignored):
      ignored += 1
    default:
      disagreements.append(d)
    }
    if c.meaningPreserving, let original, r != original {
      meaningChanges.append(Discrepancy(label: c.label + " (changed the reference's verdict)", line: c.line, fast: f, reference: r))
    }
  }

  var summary: String {
    "\(cases) cases: \(accepted) accepted by both with identical values, \(rejected) rejected by both "
      + "(\(sameField) naming the same field), \(ignored) ignored by both, \(disagreements.count) disagreements"
  }
}

/// Shrinks a line on which the readers disagree to a shorter one on which they still disagree
/// the same way (same pair of decisions), by deleting chunks of bytes.
func shrinkDiscrepancy(_ d: Discrepancy, catalog: Catalog) -> [UInt8] {
  var fast = FastLineReader(catalog: catalog)
  let reference = ReferenceEventReader(catalog: catalog)
  func stillDisagrees(_ line: [UInt8]) -> Bool {
    let f = fast.read(line)
    let r = reference.read(line)
    guard f.decision == d.fast.decision, r.decision == d.reference.decision else { return false }
    return f != r
  }
  var line = d.line
  var chunk = max(1, line.count / 2)
  var budget = 4000
  while chunk >= 1 && budget > 0 {
    var start = 0
    var progressed = false
    while start < line.count && budget > 0 {
      budget -= 1
      var candidate = line
      candidate.removeSubrange(start..<min(line.count, start + chunk))
      if stillDisagrees(candidate) {
        line = candidate
        progressed = true
      } else {
        start += chunk
      }
    }
    if !progressed { chunk /= 2 }
  }
  return line
}

// MARK: - Tests

@Suite("Differential: fast reader against the reference reader")
struct DifferentialReaderTests {
  /// A generated log's lines (without newlines) and its catalog.
  static func generatedLines(subjects: Int, seed: UInt64) -> [String] {
    var bytes: [UInt8] = []
    // The v1-shaped log, with the v1 catalog below (the generator writes usage by default).
    LogGenerator(options: GeneratorOptions(subjects: subjects, seed: seed, usage: .none)).generate { chunk in
      bytes.append(contentsOf: chunk)
    }
    return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// Records the disagreements found, with shrunk repro lines.
  static func report(_ name: String, _ found: [Discrepancy], catalog: Catalog, limit: Int = 12, shrinking: Bool = true) {
    for d in found.prefix(limit) {
      guard shrinking else {
        Issue.record("\(name): \(d)")
        continue
      }
      let small = Discrepancy(label: d.label, line: shrinkDiscrepancy(d, catalog: catalog), fast: d.fast, reference: d.reference)
      var fast = FastLineReader(catalog: catalog)
      let reference = ReferenceEventReader(catalog: catalog)
      Issue.record(
        """
        \(name): \(d)
          shrunk: \(small.lineText)
            fast:      \(fast.read(small.line))
            reference: \(reference.read(small.line))
        """)
    }
    if found.count > limit { Issue.record("\(name): \(found.count - limit) more") }
  }

  @Test("the reference reads RFC 3339 instants as Foundation does")
  func referenceTimestampsMatchFoundation() throws {
    let reference = ReferenceEventReader(catalog: LogGenerator.catalog)
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    for seed in testSeeds([11]) {
      var random = SeededGenerator(seed: seed)
      for _ in 0..<500 {
        let seconds = Int64.random(in: 0...4_102_444_800, using: &random)  // 1970–2100
        let offset = Int.random(in: -1439...1439, using: &random)
        let text = writeRFC3339(seconds * 1000, offsetMinutes: offset, fractionDigits: nil)
        let date = try #require(formatter.date(from: text), "Foundation cannot read \(text)")
        #expect(reference.timestamp(text) == Int64(date.timeIntervalSince1970) * 1000, "\(text)")
        #expect(reference.timestamp(text) == seconds * 1000, "\(text)")
      }
    }
  }

  @Test("every line of a generated log is accepted by both readers with identical values")
  func generatedLinesAgree() {
    for seed in testSeeds([20_260_301, 7]) {
      testLog("differential seed: \(seed) (replay: STORELEDGER_SEED=\(seed))")
      let lines = Self.generatedLines(subjects: 300, seed: seed)
      var differential = Differential(catalog: LogGenerator.catalog)
      for line in lines {
        differential.check(MutationCase(label: "generated", line: Array(line.utf8)))
      }
      testLog("generated log, seed \(seed): \(differential.summary)")
      #expect(lines.count > 3000)
      #expect(differential.accepted == lines.count, "seed \(seed): \(differential.summary)")
      Self.report("generated line", differential.disagreements, catalog: LogGenerator.catalog)
    }
    // The Events catalog and the random scenario logs of the other tests.
    let catalog = try! Catalog.parse(exampleCatalogText, file: "catalog.json")
    for seed in testSeeds([3]) {
      let lines = RandomLog(seed: seed, subjects: 20, eventsPerSubject: 40).lines
      var differential = Differential(catalog: catalog)
      for line in lines { differential.check(MutationCase(label: "random log", line: Array(line.utf8))) }
      testLog("random log, seed \(seed): \(differential.summary)")
      #expect(differential.accepted == lines.count, "seed \(seed): \(differential.summary)")
      Self.report("random log line", differential.disagreements, catalog: catalog)
    }
  }

  @Test("mutated lines are accepted and rejected alike, naming the same field")
  func mutatedLinesAgree() {
    let casesPerSeed = 12_000
    for seed in testSeeds([20_260_302, 99]) {
      testLog("differential seed: \(seed) (replay: STORELEDGER_SEED=\(seed))")
      // (line, whether it is from the generated log rather than a RandomLog over Events/catalog.json)
      var bases: [(String, Bool)] = Self.generatedLines(subjects: 300, seed: seed).map { ($0, true) }
      let example = try! Catalog.parse(exampleCatalogText, file: "catalog.json")
      bases += RandomLog(seed: seed, subjects: 10, eventsPerSubject: 40).lines.map { ($0, false) }
      var generated = Differential(catalog: LogGenerator.catalog)
      var random = Differential(catalog: example)
      var mutator = Mutator(random: SeededGenerator(seed: seed), catalog: LogGenerator.catalog)
      var exampleMutator = Mutator(random: SeededGenerator(seed: seed ^ 0xE), catalog: example)
      for _ in 0..<casesPerSeed {
        let (base, isGenerated) = mutator.pick(bases)
        if isGenerated {
          let original = generated.reference.read(Array(base.utf8))
          generated.check(mutator.mutate(base), original: original)
        } else {
          let original = random.reference.read(Array(base.utf8))
          random.check(exampleMutator.mutate(base), original: original)
        }
      }
      for (name, d, catalog) in [("generated catalog", generated, LogGenerator.catalog), ("Events catalog", random, example)] {
        testLog("mutations, seed \(seed), \(name): \(d.summary)")
        for (kind, t) in d.tally.sorted(by: { $0.key < $1.key }) {
          testLog("  \(kind): \(t.cases) cases, \(t.accepted) accepted by both, \(t.rejected) rejected by both (\(t.sameField) same field)")
        }
        for other in d.otherField.prefix(20) { testLog("  both reject, different fields: \(other)") }
        Self.report("decision or value differs (\(name))", d.disagreements, catalog: catalog)
        Self.report("field named is not the mutated one (\(name))", d.targetMisses, catalog: catalog, shrinking: false)
        Self.report(
          "meaning-preserving mutation changed the reference verdict (\(name))", d.meaningChanges, catalog: catalog,
          shrinking: false)
      }
    }
  }

  /// Lines whose verdict the contract (or the docs' decisions) fixes, with that verdict:
  /// the field a rejection names, "accepted", or "ignored".
  static let head = #"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime""#
  static let pinned: [(String, [UInt8], String)] = {
    func l(_ tail: String) -> [UInt8] { Array((head + tail).utf8) }
    func padded(to size: Int) -> [UInt8] {
      let start = Array((head + #","meta":{"pad":""#).utf8)
      let end = Array(#""}}"#.utf8)
      return start + [UInt8](repeating: 0x61, count: size - start.count - end.count) + end
    }
    return [
      ("plain", l("}"), "accepted"),
      ("carriage return after the object", l("}\r"), "accepted"),
      ("byte order mark", [0xEF, 0xBB, 0xBF] + l("}"), "json"),
      ("trailing comma", l(",}"), "json"),
      ("trailing comma in meta", l(#","meta":{"a":[1,]}}"#), "json"),
      ("lone high surrogate in subject", Array(#"{"id":"e1","type":"purchase_pending","subject":"\ud800","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#.utf8), "json"),
      ("lone low surrogate in meta", l(#","meta":{"a":"\udc00"}}"#), "json"),
      ("high surrogate followed by a letter escape", l(#","meta":{"a":"\ud800\u0041"}}"#), "json"),
      ("surrogate pair", Array(#"{"id":"e1","type":"purchase_pending","subject":"\ud83d\ude00","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#.utf8), "accepted"),
      ("UTF-8 encoded surrogate", l(#","meta":{"a":""#) + [0xED, 0xA0, 0x80] + Array(#""}}"#.utf8), "json"),
      ("overlong UTF-8", l(#","meta":{"a":""#) + [0xC0, 0xAF] + Array(#""}}"#.utf8), "json"),
      ("UTF-8 beyond U+10FFFF", l(#","meta":{"a":""#) + [0xF4, 0x90, 0x80, 0x80] + Array(#""}}"#.utf8), "json"),
      ("truncated UTF-8", l(#","meta":{"a":""#) + [0xE2, 0x82] + Array(#""}}"#.utf8), "json"),
      ("raw tab in a string", l(",\"meta\":{\"a\":\"x\ty\"}}"), "json"),
      ("raw DEL in a string", l(",\"meta\":{\"a\":\"x\u{7F}y\"}}"), "accepted"),
      ("escaped NUL in the subject", Array(#"{"id":"e1","type":"purchase_pending","subject":"u\u0000","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#.utf8), "accepted"),
      ("number beyond Double in meta", l(#","meta":{"a":1e400}}"#), "accepted"),
      ("duplicate key inside meta", l(#","meta":{"a":1,"a":2}}"#), "accepted"),
      // meta's own value is at level 1, its members' values at level 2.
      ("meta: value at level 64", l(#","meta":{"a":"# + String(repeating: "[", count: 62) + "1" + String(repeating: "]", count: 62) + "}}"), "accepted"),
      ("meta: value at level 65", l(#","meta":{"a":"# + String(repeating: "[", count: 63) + "1" + String(repeating: "]", count: 63) + "}}"), "json"),
      ("meta: empty array at level 64", l(#","meta":{"a":"# + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}}"), "accepted"),
      ("meta: empty array at level 65", l(#","meta":{"a":"# + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}}"), "json"),
      ("meta: objects to level 64", l(#","meta":"# + String(repeating: #"{"a":"#, count: 63) + "{}" + String(repeating: "}", count: 63) + "}"), "accepted"),
      ("meta: objects to level 65", l(#","meta":"# + String(repeating: #"{"a":"#, count: 64) + "{}" + String(repeating: "}", count: 64) + "}"), "json"),
      ("line of exactly 64 KiB", padded(to: Limits.lineBytesMax), "accepted"),
      ("line one byte over 64 KiB", padded(to: Limits.lineBytesMax + 1), "line"),
      ("empty line", [], "ignored"),
      ("whitespace-only line", Array(" \t\r ".utf8), "ignored"),
      ("leap second", Array(#"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2016-12-31T23:59:60Z","product":"pro.lifetime"}"#.utf8), "at"),
      ("29 February in a leap year", Array(#"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2024-02-29T12:00:00Z","product":"pro.lifetime"}"#.utf8), "accepted"),
      ("29 February in 2100", Array(#"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2100-02-29T12:00:00Z","product":"pro.lifetime"}"#.utf8), "at"),
      ("30 February", Array(#"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2026-02-30T12:00:00Z","product":"pro.lifetime"}"#.utf8), "at"),
      ("24:00", Array(#"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2026-03-01T24:00:00Z","product":"pro.lifetime"}"#.utf8), "at"),
      ("offset without colon", Array(#"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00+0200","product":"pro.lifetime"}"#.utf8), "at"),
      ("4 fraction digits", Array(#"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00.1234Z","product":"pro.lifetime"}"#.utf8), "at"),
      ("lower-case t and z", Array(#"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2026-03-01t12:00:00z","product":"pro.lifetime"}"#.utf8), "accepted"),
      ("escaped timestamp", Array(#"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00\u005a","product":"pro.lifetime"}"#.utf8), "accepted"),
      ("escaped key", Array(#"{"\u0069d":"e1","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#.utf8), "accepted"),
      ("field given twice, once escaped", Array(#"{"id":"e1","\u0069d":"e1","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#.utf8), "id"),
      ("Kelvin sign is not K", Array(#"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","\u212a":1}"#.utf8), "\u{212A}"),
      ("decomposed product id", Array(#"{"id":"e1","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime\u0301"}"#.utf8), "product"),
      ("id of 128 scalars", Array((#"{"id":""# + String(repeating: "\u{1F600}", count: 128) + #"","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#).utf8), "accepted"),
      ("id of 129 scalars", Array((#"{"id":""# + String(repeating: "\u{E9}", count: 129) + #"","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#).utf8), "id"),
      ("subject of 256 scalars, combining", Array((#"{"id":"e1","type":"purchase_pending","subject":""# + String(repeating: "e\u{301}", count: 128) + #"","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#).utf8), "accepted"),
      ("subject of 257 scalars", Array((#"{"id":"e1","type":"purchase_pending","subject":"x"# + String(repeating: "e\u{301}", count: 128) + #"","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}"#).utf8), "subject"),
      ("quantity 1.0", Array(#"{"id":"e1","type":"consumption","subject":"u1","at":"2026-03-01T12:00:00Z","currency":"coins","quantity":1.0}"#.utf8), "quantity"),
      ("quantity 1e2", Array(#"{"id":"e1","type":"consumption","subject":"u1","at":"2026-03-01T12:00:00Z","currency":"coins","quantity":1e2}"#.utf8), "quantity"),
      ("quantity at the limit", Array((#"{"id":"e1","type":"consumption","subject":"u1","at":"2026-03-01T12:00:00Z","currency":"coins","quantity":"# + "\(Limits.amountMax)}").utf8), "accepted"),
      ("quantity over the limit", Array((#"{"id":"e1","type":"consumption","subject":"u1","at":"2026-03-01T12:00:00Z","currency":"coins","quantity":"# + "\(Limits.amountMax + 1)}").utf8), "quantity"),
      ("price at the limit", Array((#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","currency":"USD","price":"# + "\(Limits.amountMax)}").utf8), "accepted"),
      ("price over the limit", Array((#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","currency":"USD","price":"# + "\(Limits.amountMax + 1)}").utf8), "price"),
      ("quantity beyond Int64", Array(#"{"id":"e1","type":"consumption","subject":"u1","at":"2026-03-01T12:00:00Z","currency":"coins","quantity":9223372036854775808}"#.utf8), "quantity"),
      ("quantity 20 digits", Array(#"{"id":"e1","type":"consumption","subject":"u1","at":"2026-03-01T12:00:00Z","currency":"coins","quantity":18446744073709551617}"#.utf8), "quantity"),
      ("price -0", Array(#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","price":-0,"currency":"USD"}"#.utf8), "accepted"),
      ("price -1", Array(#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","price":-1,"currency":"USD"}"#.utf8), "price"),
      ("transaction of 256 bytes", Array((#"{"id":"e1","type":"refund_reversed","subject":"u1","at":"2026-03-01T12:00:00Z","transaction":""# + String(repeating: "\u{1F600}", count: 64) + #""}"#).utf8), "accepted"),
      ("transaction of 257 bytes", Array((#"{"id":"e1","type":"refund_reversed","subject":"u1","at":"2026-03-01T12:00:00Z","transaction":"x"# + String(repeating: "\u{1F600}", count: 64) + #""}"#).utf8), "transaction"),
      ("auto_renew as a string", Array(#"{"id":"e1","type":"auto_renew_changed","subject":"u1","at":"2026-03-01T12:00:00Z","original_transaction":"t1","auto_renew":"true"}"#.utf8), "auto_renew"),
      ("offer normal is not an offer", Array(#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","offer":"normal"}"#.utf8), "offer"),
    ]
  }()

  /// Found by this test: both readers reject these lines naming the field, as they must, but the
  /// fast reader accumulates the digits in a wrapping Int64 before comparing with the limit, so a
  /// 19-digit amount above Int64.max is reported as a negative number the line does not contain.
  /// The contract only asks that the error name the field (Docs/commands.md), so this is a message defect.
  @Test("an amount beyond Int64 is rejected naming its field and quoted as written")
  func amountBeyondInt64() throws {
    let catalog = try Catalog.parse(exampleCatalogText, file: "catalog.json")
    var fast = FastLineReader(catalog: catalog)
    let reference = ReferenceEventReader(catalog: catalog)
    let cases = [
      (#"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","price":9999999999999999999,"currency":"USD"}"#, "price", "9999999999999999999"),
      (#"{"id":"e1","type":"consumption","subject":"u1","at":"2026-03-01T12:00:00Z","currency":"coins","quantity":9300000000000000000}"#, "quantity", "9300000000000000000"),
    ]
    for (line, field, written) in cases {
      let verdict = fast.read(Array(line.utf8))
      #expect(verdict.rejectedField == field)
      #expect(reference.read(Array(line.utf8)).rejectedField == field)
      guard case .rejected(_, let message) = verdict else { continue }
      #expect(message.contains(written), "message: \(message)")
    }
  }

  @Test("lines the contract decides are decided that way by both readers")
  func pinnedLines() throws {
    let catalog = try Catalog.parse(exampleCatalogText, file: "catalog.json")
    var fast = FastLineReader(catalog: catalog)
    let reference = ReferenceEventReader(catalog: catalog)
    func outcome(_ verdict: LineVerdict) -> String {
      switch verdict {
      case .accepted: return "accepted"
      case .ignored: return "ignored"
      case .rejected(let field, _): return field
      }
    }
    for (name, line, expected) in Self.pinned {
      let r = reference.read(line)
      let f = fast.read(line)
      #expect(sameUnicodeScalars(outcome(r), expected), "reference on \(name): \(r)")
      #expect(sameUnicodeScalars(outcome(f), expected), "fast reader on \(name): \(f)")
      #expect(f == r, "\(name): fast \(f), reference \(r)")
    }
  }
}
