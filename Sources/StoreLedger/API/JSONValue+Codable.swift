import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage

/// Bridges `JSONValue`, the package's own JSON tree, to `Encoder` and `Decoder`, so a type
/// whose JSON the CLI writes through `JSONWriter` encodes the same object through `JSONEncoder`.
struct JSONCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

extension JSONValue {
  /// Encodes the tree: objects as keyed containers, arrays as unkeyed, null as nil.
  func encode(to encoder: any Encoder) throws {
    switch self {
    case .object(let members):
      var container = encoder.container(keyedBy: JSONCodingKey.self)
      for (key, value) in members { try value.encode(into: &container, key: JSONCodingKey(key)) }
    case .array(let items):
      var container = encoder.unkeyedContainer()
      for item in items { try container.encode(JSONValueBox(item)) }
    default:
      var container = encoder.singleValueContainer()
      switch self {
      case .null: try container.encodeNil()
      case .bool(let value): try container.encode(value)
      case .integer(let value): try container.encode(value)
      case .number(let value): try container.encode(value)
      case .string(let value): try container.encode(value)
      case .object, .array: preconditionFailure("handled above")
      }
    }
  }

  private func encode(into container: inout KeyedEncodingContainer<JSONCodingKey>, key: JSONCodingKey) throws {
    if case .null = self { try container.encodeNil(forKey: key) } else { try container.encode(JSONValueBox(self), forKey: key) }
  }

  /// Decodes any JSON value.
  /// - Complexity: O(size of the value).
  init(from decoder: any Decoder) throws {
    if let keyed = try? decoder.container(keyedBy: JSONCodingKey.self) {
      self = .object(try keyed.allKeys.map { ($0.stringValue, try keyed.decode(JSONValueBox.self, forKey: $0).value) })
      return
    }
    if var unkeyed = try? decoder.unkeyedContainer() {
      var items: [JSONValue] = []
      while !unkeyed.isAtEnd { items.append(try unkeyed.decode(JSONValueBox.self).value) }
      self = .array(items)
      return
    }
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
    } else if let value = try? single.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? single.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? single.decode(Double.self) {
      self = .number(value)
    } else {
      self = .string(try single.decode(String.self))
    }
  }
}

/// A `JSONValue` as a `Codable` value.
struct JSONValueBox: Codable {
  var value: JSONValue
  init(_ value: JSONValue) { self.value = value }
  init(from decoder: any Decoder) throws { value = try JSONValue(from: decoder) }
  func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

/// Reads a decoded JSON object's members by name, throwing `DecodingError`s that name the key.
struct JSONObjectReader {
  let members: [String: JSONValue]
  let codingPath: [any CodingKey]

  init(_ value: JSONValue, codingPath: [any CodingKey]) throws {
    guard case .object(let members) = value else {
      throw DecodingError.typeMismatch(
        [String: JSONValue].self, .init(codingPath: codingPath, debugDescription: "expected an object, found \(value.kindName)"))
    }
    self.members = Dictionary(members, uniquingKeysWith: { first, _ in first })
    self.codingPath = codingPath
  }

  func fail(_ key: String, _ expected: String) -> DecodingError {
    DecodingError.dataCorrupted(
      .init(codingPath: codingPath + [JSONCodingKey(key)], debugDescription: "expected \(expected) for '\(key)'"))
   
  }

  /// A present, non-null member.
  func value(_ key: String) throws -> JSONValue {
    guard let value = members[key], value != .null else { throw fail(key, "a value") }
    return value
  }
  func optional(_ key: String) -> JSONValue? {
    guard let value = members[key], value != .null else { return nil }
    return value
  }
  func string(_ key: String) throws -> String {
    guard let text = try value(key).stringValue else { throw fail(key, "a string") }
    return text
  }
  func optionalString(_ key: String) throws -> String? {
    guard let value = optional(key) else { return nil }
    guard let text = value.stringValue else { throw fail(key, "a string") }
    return text
  }
  func time(_ key: String) throws -> Timestamp {
    guard let time = Timestamp.parseRFC3339(try string(key)) else { throw fail(key, "an RFC 3339 time") }
    return time
  }
  func optionalTime(_ key: String) throws -> Timestamp? {
    guard let text = try optionalString(key) else { return nil }
    guard let time = Timestamp.parseRFC3339(text) else { throw fail(key, "an RFC 3339 time") }
    return time
  }
  func integer(_ key: String) throws -> Int64 {
    guard case .integer(let number) = try value(key) else { throw fail(key, "an integer") }
    return number
  }
  func optionalInteger(_ key: String) throws -> Int64? {
    guard let value = optional(key) else { return nil }
    guard case .integer(let number) = value else { throw fail(key, "an integer") }
    return number
  }
  func bool(_ key: String) throws -> Bool {
    guard case .bool(let flag) = try value(key) else { throw fail(key, "true or false") }
    return flag
  }
  func rawName<T: RawRepresentable & CaseIterable>(_ key: String) throws -> T where T.RawValue == String {
    guard let value = T(rawValue: try string(key)) else {
      throw fail(key, "one of \(T.allCases.map(\.rawValue))")
    }
    return value
  }
  func object(_ key: String) throws -> JSONObjectReader {
    try JSONObjectReader(try value(key), codingPath: codingPath + [JSONCodingKey(key)])
  }
  /// Each member of the object at `key`, read by `body`.
  func table<T>(_ key: String, _ body: (JSONObjectReader) throws -> T) throws -> [String: T] {
    var result: [String: T] = [:]
    for (name, value) in try object(key).members {
      result[name] = try body(try JSONObjectReader(value, codingPath: codingPath + [JSONCodingKey(key), JSONCodingKey(name)]))
    }
    return result
  }
}
