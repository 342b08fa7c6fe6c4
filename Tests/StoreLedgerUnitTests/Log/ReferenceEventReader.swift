import Foundation
import StoreLedgerTestSupport

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

// A reference reader for one log line, kept in the tests only.
//
// It is written from Docs/log-format.md, not from the fast reader
// (`EventLineParser` + `FieldValidator`), and it favours being obviously right over
// being fast: Foundation's `JSONSerialization` parses the JSON, regular expressions
// read numbers and timestamps, and the rules are tables and plain dictionaries.
//
// `JSONSerialization` is laxer than RFC 8259 in places, and blind to things the
// contract cares about. A small lexical pass over the line's Unicode scalars, done
// before `JSONSerialization` sees it, covers exactly those gaps:
//
// - it accepts a byte order mark before the text (RFC 8259 §8.1: a JSON text has none);
// - it accepts trailing commas (`{"a":1,}`, `[1,]`), which the JSON grammar does not have;
// - it silently keeps the last of duplicate keys (Docs: "A field given twice on one line
//   is an error");
// - it turns every number into an `NSNumber`, so `1`, `1.0`, `1e0` and `true` cannot be
//   told apart, and it refuses numbers beyond `Double` (`1e400`) although the JSON grammar
//   has them; so the lexer checks every number against the RFC 8259 grammar itself, keeps
//   its text, and hands `JSONSerialization` a copy of the line with every number written `0`;
// - it has no notion of our nesting limit (Limits.jsonDepthMax).
//
// Invalid UTF-8 is refused before anything else (`String(validating:as:)`), and escaped
// lone surrogates (`"\ud800"`) are refused by `JSONSerialization`, which is what the docs
// ask: "escapes, \u surrogate pairs and UTF-8 are validated".
//
// String values themselves are decoded with `JSONDecoder` (one string at a time), because
// `JSONSerialization` on Linux drops a raw U+FEFF at the start of a string or after an escape.
//
// Strings are compared as Unicode scalars / UTF-8 bytes, never with `String.==`, which
// would call canonically equivalent strings ("é" and "e\u0301") equal.
//
// Readings where the contract leaves room (each one also in `DifferentialReaderTests.pinned`):
// - "integer" is the JSON int form: `1.0`, `1e2` are numbers but not integers, `-0` is 0;
// - RFC 3339 allows lower-case `t` and `z` (§5.6 note) and offsets `-00:00`; leap seconds are
//   refused (Docs), as are hours, minutes and offsets out of range and impossible dates;
// - "characters" of `id` and `subject` are Unicode scalars, and the limits are those of
//   Limits.swift (note: `amountMax` there is 10^15, where Docs/log-format.md says 10^18);
// - "nested deeper than 64 levels": a value inside more than 64 objects and arrays, the line's
//   own object included, is refused (so `meta`'s own value is at level 1);
// - duplicate keys inside `meta` are allowed (the docs' rule is about fields).

/// What the reference reader makes of one line.
enum LineVerdict: Equatable, CustomStringConvertible {
  /// The line is a valid event.
  case accepted(NormalizedEvent)
  /// The line is invalid; `field` is the field named ("json" for syntax, "line" for length).
  case rejected(field: String, why: String)
  /// An empty or whitespace-only line.
  case ignored

  var isAccepted: Bool { if case .accepted = self { return true } else { return false } }

  /// The decision alone: "accepted", "rejected" or "ignored".
  var decision: String {
    switch self {
    case .accepted: return "accepted"
    case .rejected: return "rejected"
    case .ignored: return "ignored"
    }
  }

  var rejectedField: String? { if case .rejected(let field, _) = self { return field } else { return nil } }

  var description: String {
    switch self {
    case .accepted(let event): return "accepted {\(event.canonical)}"
    case .rejected(let field, let why): return "rejected [\(field)] \(why)"
    case .ignored: return "ignored"
    }
  }

  static func == (a: LineVerdict, b: LineVerdict) -> Bool {
    switch (a, b) {
    case (.accepted(let x), .accepted(let y)): return x == y
    case (.rejected(let f, _), .rejected(let g, _)): return f == g
    case (.ignored, .ignored): return true
    default: return false
    }
  }
}

/// Every value of a valid line, in plain terms. Optional values are nil when absent from the
/// line, except `quantity`, which carries the consumable purchase's default of 1.
struct NormalizedEvent: Equatable {
  var id = ""
  var type = ""
  var subject = ""
  /// Milliseconds since the Unix epoch.
  var at: Int64 = 0
  var recorded: Int64?
  var expires: Int64?
  var graceExpires: Int64?
  var product: String?
  var transaction: String?
  var originalTransaction: String?
  var quantity: Int64?
  var ownership: String?
  var offer: String?
  var price: Int64?
  var currency: String?
  var reason: String?
  var autoRenew: Bool?
  var hasMeta = false
  /// Contract v1.3: a revocation's `refunded`, a request's `respond_by`, and whether a charge
  /// has `store`, `country` or `proceeds` (their values are only kept as a hash).
  var refunded: Int64?
  var respondBy: Int64?
  var hasChargeFacts = false
  /// Contract v1.3, sections 9 and 10: a transfer's `to`, a grant's or block's `entitlements`
  /// (as a set, sorted), the grant a `grant_revoked` names, a block's `service`.
  var to: String?
  var entitlements: [String]?
  var grant: String?
  var service: String?

  /// One ASCII line naming every value; strings are escaped scalar by scalar, so two
  /// descriptions are equal exactly when the values are equal scalar for scalar.
  var canonical: String {
    func text(_ s: String?) -> String {
      guard let s else { return "-" }
      return "\"" + s.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() + "\""
    }
    func number(_ n: Int64?) -> String { n.map { String($0) } ?? "-" }
    return [
      "type=\(text(type))", "id=\(text(id))", "subject=\(text(subject))", "at=\(at)",
      "recorded=\(number(recorded))", "expires=\(number(expires))",
      "grace_expires=\(number(graceExpires))", "product=\(text(product))",
      "transaction=\(text(transaction))", "original_transaction=\(text(originalTransaction))",
      "quantity=\(number(quantity))", "ownership=\(text(ownership))", "offer=\(text(offer))",
      "price=\(number(price))", "currency=\(text(currency))", "reason=\(text(reason))",
      "refunded=\(number(refunded))", "respond_by=\(number(respondBy))", "charge_facts=\(hasChargeFacts)",
      "auto_renew=\(autoRenew.map { String($0) } ?? "-")", "meta=\(hasMeta)",
      "to=\(text(to))", "entitlements=\(entitlements.map { "[" + $0.map { text($0) }.joined(separator: ",") + "]" } ?? "-")",
      "grant=\(text(grant))", "service=\(text(service))",
    ].joined(separator: " ")
  }

  static func == (a: NormalizedEvent, b: NormalizedEvent) -> Bool {
    Array(a.canonical.utf8) == Array(b.canonical.utf8)
  }
}

/// Equality of strings as Unicode scalars (no canonical equivalence).
func sameUnicodeScalars(_ a: String, _ b: String) -> Bool { Array(a.utf8) == Array(b.utf8) }

/// The reference reader. Not thread-safe (it owns its regular expressions); make one per test.
struct ReferenceEventReader {
  let catalog: Catalog

  // MARK: The rules, as tables (Docs/log-format.md, the type table and the fields every event has).

  enum ValueKind { case string, timestamp, integer, boolean, object, strings }

  static let fieldKinds: [String: ValueKind] = [
    "id": .string, "type": .string, "subject": .string, "at": .timestamp,
    "recorded": .timestamp, "meta": .object, "product": .string, "transaction": .string,
    "original_transaction": .string, "expires": .timestamp, "grace_expires": .timestamp,
    "quantity": .integer, "ownership": .string, "offer": .string, "price": .integer,
    "currency": .string, "reason": .string, "auto_renew": .boolean,
    "refunded": .integer, "store": .string, "country": .string, "proceeds": .integer, "respond_by": .timestamp,
    "to": .string, "entitlements": .strings, "grant": .string, "service": .string,
  ]

  static let commonRequired = ["id", "type", "subject", "at"]
  static let commonOptional = ["recorded", "meta"]

  /// Each type's fields, read from Docs/log-format.md's type table (`DocumentedTypeTable`), not
  /// from the code's kind table. Without `usage`: its rules (a feature of the catalog's policy)
  /// are the usage fold's, tested there, and this reader rejects its lines as of an unknown type.
  static let types: [String: (required: [String], optional: [String])] = Dictionary(
    DocumentedTypeTable.rows.filter { $0.name != "usage" }.map { ($0.name, ($0.required, $0.optional)) },
    uniquingKeysWith: { first, _ in first })

  /// The v1.3 kinds whose `reason` is free text (1–256 characters) rather than a name.
  static let freeTextReasonTypes = ["grant", "grant_revoked", "block", "unblock"]

  static let ownerships = ["purchased", "family_shared"]
  static let offers = ["trial", "intro", "promo", "code", "win_back"]
  static let expirationReasons = ["voluntary", "billing", "price_increase", "product_unavailable", "other"]
  static let revocationReasons = ["refund", "family_revoked", "other"]
  static let refundRequestReasons = ["unintended_purchase", "fulfillment_issue", "unsatisfied", "legal", "other"]

  // MARK: Regular expressions (compiled once per reader).

  /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
  private let numberPattern = try! Regex(#"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"#)
    .matchingSemantics(.unicodeScalar)
  /// The integer subset of the number grammar: no fraction, no exponent.
  private let integerPattern = try! Regex(#"-?(?:0|[1-9][0-9]*)"#).matchingSemantics(.unicodeScalar)
  /// RFC 3339 §5.6 `date-time`, with at most 3 fraction digits (Docs/log-format.md). "T" and "Z" may
  /// be lower case (RFC 3339 §5.6 note; ABNF strings are case-insensitive).
  private let timestampPattern = try! Regex(
    #"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,3}))?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))"#
  ).matchingSemantics(.unicodeScalar)
  /// ISO 4217 as the docs read it: three capital letters.
  private let currencyPattern = try! Regex(#"[A-Z]{3}"#).matchingSemantics(.unicodeScalar)

  init(catalog: Catalog) { self.catalog = catalog }

  private func matches(_ regex: Regex<AnyRegexOutput>, _ text: String) -> Bool {
    ((try? regex.wholeMatch(in: text)) ?? nil) != nil
  }

  // MARK: Reading a line

  struct Rejection: Error {
    var field: String
    var why: String
  }

  /// Reads one line (without its `\n`).
  func read(_ line: [UInt8]) -> LineVerdict {
    do {
      return try readOrThrow(line)
    } catch let rejection as Rejection {
      return .rejected(field: rejection.field, why: rejection.why)
    } catch {
      return .rejected(field: "json", why: "\(error)")
    }
  }

  func reject(_ field: String, _ why: String) -> Rejection { Rejection(field: field, why: why) }

  private func readOrThrow(_ line: [UInt8]) throws -> LineVerdict {
    // Docs: "A line longer than 64 KiB ... is an error naming the line."
    if line.count > Limits.lineBytesMax { throw reject("line", "\(line.count) bytes") }
    // Docs/log-format.md: "Empty and whitespace-only lines are ignored."
    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }) { return .ignored }
    // Docs/log-format.md: "a UTF-8 file".
    guard let text = String(validating: line, as: UTF8.self) else { throw reject("json", "invalid UTF-8") }

    let tokens = try lex(text)
    try checkStructure(tokens)
    // Numbers are checked and read from their text; JSONSerialization sees zeros.
    let sanitized = tokens.map { $0.kind == .number ? "0" : $0.text }.joined(separator: " ")
    let parsed: Any
    do {
      parsed = try JSONSerialization.jsonObject(with: Data(sanitized.utf8), options: [])
    } catch {
      throw reject("json", "JSONSerialization: \((error as NSError).userInfo["NSDebugDescription"] ?? error)")
    }
    guard parsed is [String: Any] else { throw reject("json", "not an object") }
    let members = try topLevelMembers(tokens)
    return .accepted(try event(from: members))
  }

  // MARK: Lexical pass

  enum TokenKind: Equatable { case open, close, colon, comma, string, number, literal }

  struct Token {
    var kind: TokenKind
    var text: String
  }

  /// Splits the line into JSON tokens. Strings are taken whole (from `"` to the next `"` not
  /// escaped by a backslash); their contents are JSONSerialization's to check. Anything
  /// between punctuation, strings and whitespace must be `true`, `false`, `null` or a number.
  private func lex(_ text: String) throws -> [Token] {
    let scalars = Array(text.unicodeScalars)
    var tokens: [Token] = []
    var i = 0
    func isWhitespace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }
    func isPunctuation(_ c: Unicode.Scalar) -> Bool { "{}[]:,".unicodeScalars.contains(c) }
    while i < scalars.count {
      let c = scalars[i]
      if isWhitespace(c) {
        i += 1
      } else if isPunctuation(c) {
        let kind: TokenKind = c == "{" || c == "[" ? .open : c == "}" || c == "]" ? .close : c == ":" ? .colon : .comma
        tokens.append(Token(kind: kind, text: String(c)))
        i += 1
      } else if c == "\"" {
        var j = i + 1
        var closed = false
        while j < scalars.count {
          if scalars[j] == "\\" {
            j += 2
            continue
          }
          if scalars[j] == "\"" {
            closed = true
            break
          }
          j += 1
        }
        guard closed else { throw reject("json", "unterminated string") }
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars[i...j])
        tokens.append(Token(kind: .string, text: String(s)))
        i = j + 1
      } else {
        var j = i
        while j < scalars.count, !isWhitespace(scalars[j]), !isPunctuation(scalars[j]), scalars[j] != "\"" {
          j += 1
        }
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars[i..<j])
        let word = String(s)
        if word == "true" || word == "false" || word == "null" {
          tokens.append(Token(kind: .literal, text: word))
        } else if matches(numberPattern, word) {
          tokens.append(Token(kind: .number, text: word))
        } else {
          throw reject("json", "'\(word)' is not a JSON value")
        }
        i = j
      }
    }
    return tokens
  }

  /// What JSONSerialization does not check: trailing commas and the nesting limit.
  private func checkStructure(_ tokens: [Token]) throws {
    guard tokens.first?.text == "{" else { throw reject("json", "a line must be a JSON object") }
    var open = 0
    for (index, token) in tokens.enumerated() {
      if token.kind == .comma, index + 1 < tokens.count, tokens[index + 1].kind == .close {
        throw reject("json", "trailing comma")
      }
      switch token.kind {
      case .open, .string, .number, .literal:
        // Docs: "JSON nested deeper than 64 levels" is an error. A value's level is the
        // number of objects and arrays around it; the line's own fields are at level 1.
        if open > Limits.jsonDepthMax { throw reject("json", "nested deeper than \(Limits.jsonDepthMax) levels") }
      default:
        break
      }
      if token.kind == .open { open += 1 }
      if token.kind == .close { open -= 1 }
    }
  }

  /// One `key: value` of the line's object.
  struct Member {
    var key: String
    /// The value's tokens, as written (numbers as written, strings still escaped).
    var tokens: [Token]
    var raw: String { tokens.map(\.text).joined(separator: " ") }
  }

  /// Decodes one JSON string token with `JSONDecoder`.
  ///
  /// Not with `JSONSerialization`: on Linux it drops a raw U+FEFF at the start of a string or
  /// right after an escape (`"\u{FEFF}x"` decodes as `"x"`), which would change subjects and ids.
  private func decodeString(_ token: Token) throws -> String {
    guard let decoded = try? JSONDecoder().decode([String].self, from: Data("[\(token.text)]".utf8)),
      decoded.count == 1
    else {
      throw reject("json", "cannot decode string \(token.text)")
    }
    return decoded[0]
  }

  /// The members of a line already known to be a valid JSON object, in the order written.
  private func topLevelMembers(_ tokens: [Token]) throws -> [Member] {
    var members: [Member] = []
    var i = 1  // after "{"
    while i < tokens.count - 1 {
      let key = try decodeString(tokens[i])
      var j = i + 2  // after ":"
      var depth = 0
      var value: [Token] = []
      while j < tokens.count {
        let t = tokens[j]
        if depth == 0 && (t.kind == .comma || t.kind == .close) { break }
        if t.kind == .open { depth += 1 }
        if t.kind == .close { depth -= 1 }
        value.append(t)
        j += 1
      }
      members.append(Member(key: key, tokens: value))
      i = j + 1  // after "," (or past the final "}")
    }
    return members
  }

  // MARK: Values

  /// RFC 3339 with at most 3 fraction digits, as milliseconds since the epoch; nil if invalid
  /// (including impossible dates and the leap second `:60`, which the docs reject).
  func timestamp(_ text: String) -> Int64? {
    guard let match = (try? timestampPattern.wholeMatch(in: text)) ?? nil else { return nil }
    func part(_ k: Int) -> Int64? { match.output[k].substring.map { Int64(String($0))! } }
    let year = part(1)!, month = part(2)!, day = part(3)!
    let hour = part(4)!, minute = part(5)!, second = part(6)!
    guard (1...12).contains(month), day >= 1, day <= Self.daysInMonth(year, month),
      hour <= 23, minute <= 59, second <= 59
    else { return nil }
    var millis: Int64 = 0
    if let fraction = match.output[7].substring {
      millis = Int64(String(fraction).padding(toLength: 3, withPad: "0", startingAt: 0))!
    }
    var offsetMinutes: Int64 = 0
    if let sign = match.output[8].substring {
      let offsetHour = part(9)!, offsetMinute = part(10)!
      guard offsetHour <= 23, offsetMinute <= 59 else { return nil }
      offsetMinutes = (offsetHour * 60 + offsetMinute) * (sign == "-" ? -1 : 1)
    }
    let days = Self.daysSinceEpoch(year: year, month: month, day: day)
    let seconds = ((days * 24 + hour) * 60 + minute - offsetMinutes) * 60 + second
    return seconds * 1000 + millis
  }

  static func isLeapYear(_ y: Int64) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }

  static func daysInMonth(_ year: Int64, _ month: Int64) -> Int64 {
    [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][Int(month) - 1]
  }

  /// Days from 1970-01-01 in the proleptic Gregorian calendar, counted plainly: whole years
  /// of 365 days, plus the leap days in between, plus the day of the year.
  static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
    func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
    /// Leap years in (-inf, y - 1], up to a constant that cancels out.
    func leapYearsBefore(_ y: Int64) -> Int64 { floorDiv(y - 1, 4) - floorDiv(y - 1, 100) + floorDiv(y - 1, 400) }
    let daysBeforeMonth: [Int64] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]
    let dayOfYear = daysBeforeMonth[Int(month) - 1] + (month > 2 && isLeapYear(year) ? 1 : 0) + day - 1
    return 365 * (year - 1970) + (leapYearsBefore(year) - leapYearsBefore(1970)) + dayOfYear
  }

  /// An integer written without fraction or exponent, at most `Limits.amountMax`.
  private func integer(_ text: String, field: String) throws -> Int64 {
    guard matches(integerPattern, text) else {
      throw reject(field, "expected an integer, found \(text)")
    }
    guard let value = Int64(text), value <= Limits.amountMax else {
      throw reject(field, "\(text) is beyond the limit \(Limits.amountMax)")
    }
    return value
  }

  // MARK: The event

  private func event(from members: [Member]) throws -> NormalizedEvent {
    // A field given twice (Docs), then fields no type has (Docs/log-format.md: "Any field the type does not list is an error").
    var seen: [[UInt8]] = []
    for member in members {
      let bytes = Array(member.key.utf8)
      if seen.contains(bytes) { throw reject(member.key, "given twice") }
      seen.append(bytes)
    }
    for member in members where Self.fieldKinds.keys.first(where: { sameUnicodeScalars($0, member.key) }) == nil {
      throw reject(member.key, "unknown field")
    }
    func member(_ name: String) -> Member? { members.first { sameUnicodeScalars($0.key, name) } }

    // The type decides everything else.
    guard let typeMember = member("type") else { throw reject("type", "missing") }
    guard typeMember.tokens.count == 1, typeMember.tokens[0].kind == .string else {
      throw reject("type", "not a string: \(typeMember.raw)")
    }
    let typeName = try decodeString(typeMember.tokens[0])
    guard let rules = Self.types.first(where: { sameUnicodeScalars($0.key, typeName) })?.value else {
      throw reject("type", "unknown type \(typeName)")
    }

    // Each value has the JSON type its field needs.
    var strings: [String: String] = [:]
    var times: [String: Int64] = [:]
    var integers: [String: Int64] = [:]
    var booleans: [String: Bool] = [:]
    var lists: [String: [String]] = [:]
    for member in members {
      let name = member.key
      let first = member.tokens[0]
      switch Self.fieldKinds[name]! {
      case .string:
        guard member.tokens.count == 1, first.kind == .string else { throw reject(name, "not a string: \(member.raw)") }
        strings[name] = try decodeString(first)
      case .timestamp:
        guard member.tokens.count == 1, first.kind == .string else {
          throw reject(name, "not a timestamp string: \(member.raw)")
        }
        guard let value = timestamp(try decodeString(first)) else { throw reject(name, "not an RFC 3339 timestamp: \(first.text)") }
        times[name] = value
      case .integer:
        guard member.tokens.count == 1, first.kind == .number else { throw reject(name, "not a number: \(member.raw)") }
        integers[name] = try integer(first.text, field: name)
      case .boolean:
        guard member.tokens.count == 1, first.kind == .literal, first.text != "null" else {
          throw reject(name, "not true or false: \(member.raw)")
        }
        booleans[name] = first.text == "true"
      case .object:
        guard first.text == "{" else { throw reject(name, "not an object: \(member.raw)") }
      case .strings:
        lists[name] = try stringList(member)
      }
    }

    // Required and allowed fields of the type.
    let allowed = Self.commonRequired + Self.commonOptional + rules.required + rules.optional
    for name in Self.commonRequired + rules.required where member(name) == nil {
      throw reject(name, "required for \(typeName)")
    }
    for member in members where !allowed.contains(member.key) {
      throw reject(member.key, "not allowed for \(typeName)")
    }

    var event = NormalizedEvent()
    event.type = typeName
    event.id = strings["id"]!
    event.subject = strings["subject"]!
    event.at = times["at"]!
    event.recorded = times["recorded"]
    event.hasMeta = member("meta") != nil

    // id: 1–128 characters, subject: 1–256 (characters are Unicode scalars: Limits.swift).
    guard (1...Limits.idLengthMax).contains(event.id.unicodeScalars.count) else {
      throw reject("id", "\(event.id.unicodeScalars.count) characters")
    }
    guard (1...Limits.subjectLengthMax).contains(event.subject.unicodeScalars.count) else {
      throw reject("subject", "\(event.subject.unicodeScalars.count) characters")
    }

    // product: in the catalog; renewal and plan_changed need an auto_renewable one.
    var product: Product? = nil
    if let name = strings["product"] {
      guard let found = catalog.products.first(where: { sameUnicodeScalars($0.id, name) }) else {
        throw reject("product", "not in the catalog: \(name)")
      }
      if (typeName == "renewal" || typeName == "plan_changed") && found.kind != .autoRenewable {
        throw reject("product", "\(found.id) is not auto_renewable")
      }
      product = found
      event.product = found.id
    }

    // transaction, original_transaction: non-empty, at most 256 bytes (Limits.swift).
    for name in ["transaction", "original_transaction"] {
      guard let value = strings[name] else { continue }
      guard !value.isEmpty, value.utf8.count <= Limits.referenceBytesMax else {
        throw reject(name, "\(value.utf8.count) bytes")
      }
    }
    event.transaction = strings["transaction"]
    event.originalTransaction = strings["original_transaction"]

    // Every expires and grace_expires is later than at.
    for name in ["expires", "grace_expires"] {
      if let value = times[name], value <= event.at { throw reject(name, "not later than at") }
    }
    event.expires = times["expires"]
    event.graceExpires = times["grace_expires"]

    if typeName == "purchase", let product {
      switch product.kind {
      case .autoRenewable:
        if times["expires"] == nil { throw reject("expires", "required for an auto_renewable purchase") }
      case .nonRenewing:
        break
      case .nonConsumable, .consumable:
        if times["expires"] != nil { throw reject("expires", "not allowed for \(product.kind.rawValue)") }
      }
      if strings["original_transaction"] != nil && product.kind != .autoRenewable {
        throw reject("original_transaction", "only for auto_renewable")
      }
      if integers["quantity"] != nil && product.kind != .consumable {
        throw reject("quantity", "only for consumable")
      }
      if product.kind == .consumable { event.quantity = integers["quantity"] ?? 1 }
      // Computed values stay in range (Docs/log-format.md, "Limits"): a credit of at most 10^15
      // units, and a grant end from the catalog's duration by 9999-12-31T23:59:59.999Z.
      if product.kind == .consumable, let quantity = integers["quantity"] {
        let (credit, overflow) = quantity.multipliedReportingOverflow(by: product.units)
        if overflow || credit > Limits.amountMax { throw reject("quantity", "credits more than 10^15 units") }
      }
      if times["expires"] == nil, let duration = product.duration ?? product.expiresAfter,
        Self.end(of: duration, fromMilliseconds: event.at) > Self.latestEnd
      {
        throw reject("at", "the grant would end after 9999")
      }
      if let ownership = strings["ownership"] {
        guard Self.ownerships.contains(where: { sameUnicodeScalars($0, ownership) }) else {
          throw reject("ownership", "unknown ownership \(ownership)")
        }
        if sameUnicodeScalars(ownership, "family_shared") && !product.isFamilyShareable {
          throw reject("ownership", "\(product.id) is not family_shareable")
        }
        event.ownership = ownership
      }
    }
    if let quantity = integers["quantity"], quantity < 1 { throw reject("quantity", "below 1: \(quantity)") }
    if typeName == "consumption" {
      event.quantity = integers["quantity"]
      let currency = strings["currency"]!
      guard !currency.isEmpty, currency.utf8.count <= Limits.referenceBytesMax else {
        throw reject("currency", "\(currency.utf8.count) bytes")
      }
      // Only a currency some consumable grants can be spent (a typo is not an overdraw of 0).
      guard catalog.products.contains(where: { $0.kind == .consumable && sameUnicodeScalars($0.currency, currency) }) else {
        throw reject("currency", "no consumable grants \(currency)")
      }
      event.currency = currency
    }

    if let offer = strings["offer"] {
      guard Self.offers.contains(where: { sameUnicodeScalars($0, offer) }) else { throw reject("offer", "unknown offer \(offer)") }
      event.offer = offer
    }

    // price and currency: both or neither; price ≥ 0; currency three capital letters (Docs).
    if typeName == "purchase" || typeName == "renewal" {
      switch (integers["price"], strings["currency"]) {
      case (nil, nil):
        break
      case (.some, nil):
        throw reject("currency", "price without currency")
      case (nil, .some):
        throw reject("price", "currency without price")
      case (.some(let price), .some(let currency)):
        guard price >= 0 else { throw reject("price", "negative: \(price)") }
        guard matches(currencyPattern, currency) else {
          throw reject("currency", "not an ISO 4217 code: \(currency)")
        }
        event.price = price
        event.currency = currency
      }
    }

    try checkV13Values(typeName, strings: strings, integers: integers, times: times, into: &event)
    try checkOwnershipAndAccess(typeName, strings: strings, lists: lists, into: &event)
    if let reason = strings["reason"], Self.freeTextReasonTypes.contains(typeName) {
      guard (1...256).contains(reason.unicodeScalars.count) else { throw reject("reason", "\(reason.unicodeScalars.count) characters") }
      event.reason = reason
    } else if let reason = strings["reason"] {
      let reasons =
        typeName == "expiration"
        ? Self.expirationReasons : typeName == "refund_requested" ? Self.refundRequestReasons : Self.revocationReasons
      guard reasons.contains(where: { sameUnicodeScalars($0, reason) }) else { throw reject("reason", "unknown reason \(reason)") }
      event.reason = reason
    }
    event.autoRenew = booleans["auto_renew"]
    return event
  }
}

extension ReferenceEventReader {
  /// A JSON array of strings, as `[ "a" , "b" ]` tokens.
  func stringList(_ member: Member) throws -> [String] {
    let tokens = member.tokens
    guard tokens.first?.text == "[", tokens.last?.text == "]" else { throw reject(member.key, "not an array: \(member.raw)") }
    var values: [String] = []
    for (index, token) in tokens.dropFirst().dropLast().enumerated() {
      if index % 2 == 1 {
        guard token.kind == .comma else { throw reject(member.key, "not an array of strings: \(member.raw)") }
        continue
      }
      guard token.kind == .string else { throw reject(member.key, "not an array of strings: \(member.raw)") }
      values.append(try decodeString(token))
    }
    return values
  }

  /// Contract v1.3, sections 9 and 10, as one line can break them: a transfer names its unit by
  /// exactly one field and moves it to another subject id; grants and blocks name entitlements
  /// some product grants (a non-empty list, kept as a set); a service has 1–64 characters; the
  /// grant revoked is named like an event id.
  func checkOwnershipAndAccess(
    _ typeName: String, strings: [String: String], lists: [String: [String]], into event: inout NormalizedEvent
  ) throws {
    switch typeName {
    case "transfer":
      let to = strings["to"]!
      switch (strings["original_transaction"], strings["transaction"]) {
      case (nil, nil): throw reject("original_transaction", "neither it nor transaction")
      case (.some, .some): throw reject("transaction", "both it and original_transaction")
      default: break
      }
      guard (1...Limits.subjectLengthMax).contains(to.unicodeScalars.count) else { throw reject("to", "\(to.unicodeScalars.count) characters") }
      guard !sameUnicodeScalars(to, event.subject) else { throw reject("to", "the line's own subject") }
      event.to = to
    case "grant", "block":
      guard let names = lists["entitlements"] else { break }
      guard !names.isEmpty else { throw reject("entitlements", "empty") }
      let granted = Set(catalog.products.flatMap(\.entitlements))
      for name in names where !granted.contains(where: { sameUnicodeScalars($0, name) }) {
        throw reject("entitlements", "no product grants \(name)")
      }
      event.entitlements = Set(names).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    case "grant_revoked":
      let grant = strings["grant"]!
      guard (1...Limits.idLengthMax).contains(grant.unicodeScalars.count) else { throw reject("grant", "\(grant.unicodeScalars.count) characters") }
      event.grant = grant
    default:
      break
    }
    if typeName == "block" || typeName == "unblock" {
      let service = strings["service"]!
      guard (1...64).contains(service.unicodeScalars.count) else { throw reject("service", "\(service.unicodeScalars.count) characters") }
      event.service = service
    }
  }

  /// Contract v1.3, section 11, as one line can break it: a revocation's packs (≥ 1) and
  /// `refunded` (≥ 0); a charge's `store`, `country` and `proceeds` (0 to its price).
  func checkV13Values(
    _ typeName: String, strings: [String: String], integers: [String: Int64], times: [String: Int64],
    into event: inout NormalizedEvent
  ) throws {
    if typeName == "revocation" {
      event.quantity = integers["quantity"]
      if let refunded = integers["refunded"] {
        guard refunded >= 0 else { throw reject("refunded", "negative: \(refunded)") }
        event.refunded = refunded
      }
    }
    event.respondBy = times["respond_by"]
    if let store = strings["store"] {
      let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_-".unicodeScalars)
      guard (1...32).contains(store.unicodeScalars.count), store.unicodeScalars.allSatisfy(allowed.contains) else {
        throw reject("store", "not a store name: \(store)")
      }
    }
    if let country = strings["country"] {
      guard country.unicodeScalars.count == 2, country.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
        throw reject("country", "not an ISO 3166-1 alpha-2 code: \(country)")
      }
    }
    if let proceeds = integers["proceeds"] {
      guard let price = integers["price"], strings["currency"] != nil else { throw reject("proceeds", "without a price") }
      guard proceeds >= 0 && proceeds <= price else { throw reject("proceeds", "outside 0...\(price): \(proceeds)") }
    }
    event.hasChargeFacts = strings["store"] != nil || strings["country"] != nil || integers["proceeds"] != nil
  }

  /// 9999-12-31T23:59:59.999Z as a Foundation date.
  static let latestEnd = Date(timeIntervalSince1970: 253_402_300_799.999)

  /// The end of an ISO duration from `at`, by Foundation's Gregorian calendar in UTC (years and
  /// months first, clamped to a shorter month, then days and the time part).
  static func end(of duration: ISODuration, fromMilliseconds at: Int64) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let start = Date(timeIntervalSince1970: Double(at) / 1000)
    let months = DateComponents(month: Int(duration.years * 12 + duration.months))
    let afterMonths = calendar.date(byAdding: months, to: start) ?? start
    return afterMonths.addingTimeInterval(Double(duration.days) * 86_400 + Double(duration.timeMilliseconds) / 1000)
  }
}
