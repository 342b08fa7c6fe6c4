/// Bridges `JSONValue`, the package's own JSON tree, to `Encoder` and `Decoder`, so a type
/// whose JSON the CLI writes through `JSONWriter` encodes the same object through `JSONEncoder`.
package struct JSONCodingKey: CodingKey {
  /// The member's name.
  package var stringValue: String
  /// Always nil: JSON object members have names only.
  package var intValue: Int? { nil }
  /// The key named `string`.
  package init(_ string: String) { stringValue = string }
  /// The key named `stringValue`.
  package init?(stringValue: String) { self.stringValue = stringValue }
  /// Never: JSON object members have names only.
  package init?(intValue: Int) { nil }
}

extension JSONValue {
  /// Encodes the tree: objects as keyed containers, arrays as unkeyed, null as nil.
  package func encode(to encoder: any Encoder) throws {
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
  package init(from decoder: any Decoder) throws {
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
package struct JSONValueBox: Codable {
  /// The value.
  package var value: JSONValue
  /// Boxes `value`.
  package init(_ value: JSONValue) { self.value = value }
  /// Decodes any JSON value.
  package init(from decoder: any Decoder) throws { value = try JSONValue(from: decoder) }
  /// Encodes the value.
  package func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

/// Reads a decoded JSON object's members by name, throwing `DecodingError`s that name the key.
package struct JSONObjectReader {
  /// The object's members by name (the first of duplicates).
  package let members: [String: JSONValue]
  /// Where the object is, for the errors.
  package let codingPath: [any CodingKey]

  /// Reads `value`, which must be an object.
  package init(_ value: JSONValue, codingPath: [any CodingKey]) throws {
    guard case .object(let members) = value else {
      throw DecodingError.typeMismatch(
        [String: JSONValue].self, .init(codingPath: codingPath, debugDescription: "expected an object, found \(value.kindName)"))
    }
    self.members = Dictionary(members, uniquingKeysWith: { first, _ in first })
    self.codingPath = codingPath
  }

  /// The error for a member `key` that is not `expected`.
  package func fail(_ key: String, _ expected: String) -> DecodingError {
    DecodingError.dataCorrupted(
      .init(codingPath: codingPath + [JSONCodingKey(key)], debugDescription: "expected \(expected) for '\(key)'"))
   
  }

  /// A present, non-null member.
  package func value(_ key: String) throws -> JSONValue {
    guard let value = members[key], value != .null else { throw fail(key, "a value") }
    return value
  }
  /// A member that may be absent or null.
  package func optional(_ key: String) -> JSONValue? {
    guard let value = members[key], value != .null else { return nil }
    return value
  }
  /// A string member.
  package func string(_ key: String) throws -> String {
    guard let text = try value(key).stringValue else { throw fail(key, "a string") }
    return text
  }
  /// A string member that may be absent.
  package func optionalString(_ key: String) throws -> String? {
    guard let value = optional(key) else { return nil }
    guard let text = value.stringValue else { throw fail(key, "a string") }
    return text
  }
  /// An RFC 3339 time member.
  package func time(_ key: String) throws -> Timestamp {
    guard let time = Timestamp.parseRFC3339(try string(key)) else { throw fail(key, "an RFC 3339 time") }
    return time
  }
  /// An RFC 3339 time member that may be absent.
  package func optionalTime(_ key: String) throws -> Timestamp? {
    guard let text = try optionalString(key) else { return nil }
    guard let time = Timestamp.parseRFC3339(text) else { throw fail(key, "an RFC 3339 time") }
    return time
  }
  /// An integer member.
  package func integer(_ key: String) throws -> Int64 {
    guard case .integer(let number) = try value(key) else { throw fail(key, "an integer") }
    return number
  }
  /// An integer member that may be absent.
  package func optionalInteger(_ key: String) throws -> Int64? {
    guard let value = optional(key) else { return nil }
    guard case .integer(let number) = value else { throw fail(key, "an integer") }
    return number
  }
  /// A `true` or `false` member.
  package func bool(_ key: String) throws -> Bool {
    guard case .bool(let flag) = try value(key) else { throw fail(key, "true or false") }
    return flag
  }
  /// A member naming one of `T`'s cases.
  package func rawName<T: RawRepresentable & CaseIterable>(_ key: String) throws -> T where T.RawValue == String {
    guard let value = T(rawValue: try string(key)) else {
      throw fail(key, "one of \(T.allCases.map(\.rawValue))")
    }
    return value
  }
  /// An object member.
  package func object(_ key: String) throws -> JSONObjectReader {
    try JSONObjectReader(try value(key), codingPath: codingPath + [JSONCodingKey(key)])
  }
  /// Each member of the object at `key`, read by `body`.
  package func table<T>(_ key: String, _ body: (JSONObjectReader) throws -> T) throws -> [String: T] {
    var result: [String: T] = [:]
    for (name, value) in try object(key).members {
      result[name] = try body(try JSONObjectReader(value, codingPath: codingPath + [JSONCodingKey(key), JSONCodingKey(name)]))
    }
    return result
  }
}
