/// A JSON value for the small, cold inputs (catalog, query lines, snapshots).
///
/// Objects keep their members in input order; duplicate keys are rejected by
/// the parser. The log's hot path does not use this type (see `EventLineParser`).
package indirect enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  /// An integer that fits in 64 bits.
  case integer(Int64)
  /// Any other number, with its source text.
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  package static func == (a: JSONValue, b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.integer(let x), .integer(let y)): return x == y
    case (.number(let x), .number(let y)): return x == y
    // Exactly: a number is an integer's equal only when it is that integer (no rounding past 2^53).
    case (.integer(let x), .number(let y)), (.number(let y), .integer(let x)): return Int64(exactly: y) == x
    case (.string(let x), .string(let y)): return x == y
    case (.array(let x), .array(let y)): return x == y
    case (.object(let x), .object(let y)):
      guard x.count == y.count else { return false }
      let sortedX = x.sorted { $0.0 < $1.0 }
      let sortedY = y.sorted { $0.0 < $1.0 }
      return zip(sortedX, sortedY).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: return false
    }
  }

  /// The member named `key`, if this is an object that has it.
  package subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first(where: { $0.0 == key })?.1
  }

  /// The string, if this is one.
  package var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The members, if this is an object.
  package var objectMembers: [(String, JSONValue)]? {
    if case .object(let m) = self { return m }
    return nil
  }

  /// A short description of the kind of value, for error messages.
  package var kindName: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .integer, .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

// Hashable so a typed event holding JSON values (`NewEvent`'s `meta`) stays Hashable. The hash
// takes only what `==` cannot see past: strings and booleans by value, everything else by
// its kind, as `==` equates an integer with the same number and objects in any member order.
extension JSONValue: Hashable {
  /// Hashes strings and booleans by value, other values by their kind.
  package func hash(into hasher: inout Hasher) {
    switch self {
    case .string(let text): hasher.combine(text)
    case .bool(let flag): hasher.combine(flag)
    case .array(let items): hasher.combine(items)
    default: hasher.combine(kindName)
    }
  }
}

/// A JSON syntax error with its 1-based line and byte column.
package struct JSONSyntaxError: Error, Sendable, Equatable {
  /// 1-based line of the error.
  package var line: Int
  /// 1-based byte column of the error.
  package var column: Int
  /// What was expected.
  package var detail: String
}

extension JSONValue {
  /// Parses one JSON document (strict RFC 8259; duplicate keys rejected).
  /// - Complexity: O(n) in the input size.
  package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    var bytes = Array(text.utf8)
    bytes.append(0)
    return try parse(bytes: bytes, count: bytes.count - 1)
  }

  /// Parses one JSON document from UTF-8 bytes.
  package static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    var copy = bytes
    copy.append(0)
    return try parse(bytes: copy, count: bytes.count)
  }

  private static func parse(bytes: [UInt8], count: Int) throws(JSONSyntaxError) -> JSONValue {
    var reader = ValueReader(bytes: bytes, count: count)
    reader.skipWhitespace()
    let value = try reader.readValue(depth: 0)
    reader.skipWhitespace()
    if reader.position != count { throw reader.fail("unexpected data after the JSON value") }
    return value
  }
}

private struct ValueReader {
  let bytes: [UInt8]
  let count: Int
  var position = 0

  init(bytes: [UInt8], count: Int) {
    self.bytes = bytes
    self.count = count
  }

  func fail(_ detail: String) -> JSONSyntaxError {
    var line = 1
    var lineStart = 0
    for i in 0..<min(position, count) where bytes[i] == 10 {
      line += 1
      lineStart = i + 1
    }
    return JSONSyntaxError(line: line, column: position - lineStart + 1, detail: detail)
  }

  mutating func skipWhitespace() {
    while position < count {
      let c = bytes[position]
      if c == 32 || c == 9 || c == 10 || c == 13 { position += 1 } else { break }
    }
  }

  mutating func expect(_ literal: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
    for c in literal.utf8 {
      guard position < count, bytes[position] == c else { throw fail("expected '\(literal)'") }
      position += 1
    }
    return value
  }

  mutating func readValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    guard depth < Limits.jsonDepthMax else {
      throw fail("nested deeper than \(Limits.jsonDepthMax) levels")
    }
    guard position < count else { throw fail("expected a value, found the end of input") }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try readObject(depth: depth)
    case UInt8(ascii: "["): return try readArray(depth: depth)
    case UInt8(ascii: "\""):
      return .string(try readString())
    case UInt8(ascii: "t"): return try expect("true", .bool(true))
    case UInt8(ascii: "f"): return try expect("false", .bool(false))
    case UInt8(ascii: "n"): return try expect("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try readNumber()
    default:
      throw fail("expected a value")
    }
  }

  /// Reads the object that starts at `position` (its `{`); a repeated key is refused.
  /// Whether `key` is already one of `members`: looked for one by one while the object is small
  /// (most are, and hashing every key of every log line an importer reads is what a set costs),
  /// in `keys`, built once, beyond.
  /// - Complexity: O(1) amortized; O(members) while there are fewer than 16.
  static func isDuplicate(_ key: String, in members: [(String, JSONValue)], keys: inout Set<String>?) -> Bool {
    if keys == nil {
      if members.count < 16 { return members.contains { $0.0 == key } }
      keys = Set(members.map(\.0))
    }
    return !keys!.insert(key).inserted
  }

  mutating func readObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    position += 1
    var members: [(String, JSONValue)] = []
    var keys: Set<String>? = nil
    skipWhitespace()
    if position < count && bytes[position] == UInt8(ascii: "}") {
      position += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard position < count, bytes[position] == UInt8(ascii: "\"") else {
        throw fail("expected a string key")
      }
      let keyStart = position
      let key = try readString()
      guard !Self.isDuplicate(key, in: members, keys: &keys) else {
        position = keyStart
        throw fail("duplicate key '\(key)'")
      }
      skipWhitespace()
      guard position < count, bytes[position] == UInt8(ascii: ":") else {
        throw fail("expected ':'")
      }
      position += 1
      skipWhitespace()
      members.append((key, try readValue(depth: depth + 1)))
      skipWhitespace()
      guard position < count else { throw fail("expected ',' or '}'") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
        continue
      }
      if bytes[position] == UInt8(ascii: "}") {
        position += 1
        return .object(members)
      }
      throw fail("expected ',' or '}'")
    }
  }

  /// Reads the array that starts at `position` (its `[`).
  mutating func readArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    position += 1
    var items: [JSONValue] = []
    skipWhitespace()
    if position < count && bytes[position] == UInt8(ascii: "]") {
      position += 1
      return .array(items)
    }
    while true {
      skipWhitespace()
      items.append(try readValue(depth: depth + 1))
      skipWhitespace()
      guard position < count else { throw fail("expected ',' or ']'") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
        continue
      }
      if bytes[position] == UInt8(ascii: "]") {
        position += 1
        return .array(items)
      }
      throw fail("expected ',' or ']'")
    }
  }

  mutating func readNumber() throws(JSONSyntaxError) -> JSONValue {
    let start = position
    let scan = bytes.withUnsafeBufferPointer { JSONScan.number($0, from: position, end: count) }
    guard let scan else { throw fail("invalid number") }
    position = scan.end
    let text = String(decoding: bytes[start..<scan.end], as: UTF8.self)
    if scan.isInteger, let value = Int64(text) { return .integer(value) }
    guard let value = Double(text) else { throw fail("invalid number") }
    return .number(value)
  }

  mutating func readString() throws(JSONSyntaxError) -> String {
    var out: [UInt8] = []
    let result = bytes.withUnsafeBufferPointer {
      JSONScan.string($0, from: position + 1, end: count, into: &out)
    }
    switch result {
    case .success(let end):
      position = end
      return String(decoding: out, as: UTF8.self)
    case .failure(let failure):
      position = failure.offset
      throw fail(failure.detail)
    }
  }
}
