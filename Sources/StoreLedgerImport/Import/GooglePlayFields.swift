import StoreLedgerCore

/// Google's JSON conventions on top of `PayloadObject`: 64-bit integers are JSON strings
/// (`"eventTimeMillis": "1503349566168"`), and API resources write times as RFC 3339 strings
/// with up to nine fraction digits.
extension PayloadObject {
  /// A nested object field; another type is an error.
  func child(_ key: String, _ problems: inout ImportProblems) -> PayloadObject? {
    guard let value = fields[key] else { return nil }
    guard let object = PayloadObject(value, path: name(key), line: line) else {
      problems.error(line, "field '\(name(key))': expected an object, found \(value.kindName)")
      return nil
    }
    return object
  }

  /// The objects of `values`, the array in field `key`; an element of another type is an error
  /// naming its place (`key[i]`), and is left out.
  /// - Complexity: O(n) in the array's length.
  func objects(_ values: [JSONValue], in key: String, _ problems: inout ImportProblems) -> [PayloadObject] {
    var objects: [PayloadObject] = []
    for (index, value) in values.enumerated() {
      let path = name("\(key)[\(index)]")
      guard let object = PayloadObject(value, path: path, line: line) else {
        problems.error(line, "field '\(path)': expected an object, found \(value.kindName)")
        continue
      }
      objects.append(object)
    }
    return objects
  }

  /// An int64 field written as a JSON string of digits (Google's encoding) or as a number.
  func int64(_ key: String, _ problems: inout ImportProblems) -> Int64? {
    guard case .string(let text)? = fields[key] else { return integer(key, &problems) }
    guard let number = Int64(text) else {
      problems.error(
        line, "field '\(name(key))': expected an integer (as a string of digits), found \"\(text)\""
      )
      return nil
    }
    return number
  }

  /// A time in milliseconds since 1970, written as a string of digits or as a number.
  func milliseconds(_ key: String, _ problems: inout ImportProblems) -> Timestamp? {
    guard case .string(let text)? = fields[key] else { return timestamp(key, &problems) }
    guard let number = Int64(text), number >= 0, number <= 253_402_300_799_999 else {
      problems.error(
        line,
        "field '\(name(key))': expected milliseconds since 1970 as a string of digits, found \"\(text)\""
      )
      return nil
    }
    return Timestamp(millisecondsSinceEpoch: number)
  }

  /// A required time in milliseconds since 1970; `why` completes "is required …".
  func requiredMilliseconds(_ key: String, _ problems: inout ImportProblems, why: String)
    -> Timestamp?
  {
    guard has(key) else {
      problems.error(line, "field '\(name(key))' is missing; it is required \(why)")
      return nil
    }
    return milliseconds(key, &problems)
  }

  /// An RFC 3339 time string; digits beyond milliseconds are dropped (the ledger keeps
  /// milliseconds, and truncating keeps the instant inside its millisecond).
  func rfc3339(_ key: String, _ problems: inout ImportProblems) -> Timestamp? {
    guard let text = string(key, &problems) else { return nil }
    guard let timestamp = Timestamp.parseRFC3339(Self.millisecondPrecision(text)) else {
      problems.error(
        line,
        "field '\(name(key))': expected an RFC 3339 time such as 2026-03-01T12:00:00Z, found \"\(text)\""
      )
      return nil
    }
    return timestamp
  }

  /// A required RFC 3339 time; `why` completes "is required …".
  func requiredRFC3339(_ key: String, _ problems: inout ImportProblems, why: String)
    -> Timestamp?
  {
    guard has(key) else {
      problems.error(line, "field '\(name(key))' is missing; it is required \(why)")
      return nil
    }
    return rfc3339(key, &problems)
  }

  /// `text` with its fraction cut to three digits.
  private static func millisecondPrecision(_ text: String) -> String {
    guard let dot = text.firstIndex(of: ".") else { return text }
    let digits = text[text.index(after: dot)...].prefix(while: \.isASCIIDigit)
    guard digits.count > 3 else { return text }
    return String(text[...dot]) + digits.prefix(3) + text[digits.endIndex...]
  }
}

extension Character {
  /// Whether this is one of the ASCII digits 0–9.
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
