import StoreLedgerCore

/// A JSON object of a store payload (Apple or Google) with typed, error-collecting field access.
///
/// `null` counts as absent: the stores omit absent fields, but re-exported data often writes null.
struct PayloadObject {
  /// The members by key.
  let fields: [String: JSONValue]
  /// Where the object sits in its input document, e.g. `data.signedTransactionInfo`.
  let path: String
  /// The input line of the document.
  let line: Int

  /// Wraps `value` if it is an object.
  init?(_ value: JSONValue, path: String, line: Int) {
    guard let members = value.objectMembers else { return nil }
    var fields: [String: JSONValue] = [:]
    for (key, member) in members where member != .null { fields[key] = member }
    self.fields = fields
    self.path = path
    self.line = line
  }

  /// The full name of a field for messages, e.g. `data.signedTransactionInfo.productId`.
  func name(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

  /// The object as compact JSON, to recognize the same payload delivered twice.
  var identity: String { JSONWriter.compact(.object(Array(fields))) }

  /// Whether the field is present (and not null).
  func has(_ key: String) -> Bool { fields[key] != nil }

  /// The raw value of a field.
  subscript(key: String) -> JSONValue? { fields[key] }

  /// A string field; a value of another type is an error.
  func string(_ key: String, _ problems: inout ImportProblems) -> String? {
    guard let value = fields[key] else { return nil }
    guard case .string(let text) = value else {
      problems.error(line, "field '\(name(key))': expected a string, found \(value.kindName)")
      return nil
    }
    return text
  }

  /// A non-empty string field that must be present; `why` completes "is required …".
  func requiredString(_ key: String, _ problems: inout ImportProblems, why: String) -> String? {
    guard has(key) else {
      problems.error(line, "field '\(name(key))' is missing; it is required \(why)")
      return nil
    }
    guard let text = string(key, &problems) else { return nil }
    guard !text.isEmpty, text.utf8.count <= Limits.referenceBytesMax else {
      problems.error(
        line,
        "field '\(name(key))': expected 1–\(Limits.referenceBytesMax) bytes, found \"\(text)\"")
      return nil
    }
    return text
  }

  /// An integer field (an integral JSON number).
  func integer(_ key: String, _ problems: inout ImportProblems) -> Int64? {
    switch fields[key] {
    case nil: return nil
    case .integer(let number)?: return number
    case .number(let number)? where abs(number) < 9e15 && Double(Int64(number)) == number:
      return Int64(number)
    case let other?:
      problems.error(line, "field '\(name(key))': expected an integer, found \(describe(other))")
      return nil
    }
  }

  /// A boolean field.
  func bool(_ key: String, _ problems: inout ImportProblems) -> Bool? {
    switch fields[key] {
    case nil: return nil
    case .bool(let flag)?: return flag
    case let other?:
      problems.error(line, "field '\(name(key))': expected a boolean, found \(other.kindName)")
      return nil
    }
  }

  /// A date field: Unix epoch milliseconds as a JSON number.
  ///
  /// Xcode writes fractional milliseconds (`1697679936049.7297`); they are floored, since the
  /// ledger keeps millisecond precision and flooring keeps an instant inside its millisecond.
  func timestamp(_ key: String, _ problems: inout ImportProblems) -> Timestamp? {
    let milliseconds: Int64
    switch fields[key] {
    case nil: return nil
    case .integer(let number)?: milliseconds = number
    case .number(let number)? where number.isFinite && abs(number) < 9e15:
      // Floor without libm (the package links no math library): truncate, then step down
      // for negative fractions.
      let truncated = Int64(number)
      milliseconds = Double(truncated) > number ? truncated - 1 : truncated
    case let other?:
      problems.error(
        line,
        "field '\(name(key))': expected a date in milliseconds since 1970 as a number, found \(describe(other))"
      )
      return nil
    }
    // RFC 3339 can only write years 0001–9999.
    guard milliseconds >= -62_135_596_800_000, milliseconds <= 253_402_300_799_999 else {
      problems.error(
        line, "field '\(name(key))': \(milliseconds) ms is outside the years 0001–9999")
      return nil
    }
    return Timestamp(millisecondsSinceEpoch: milliseconds)
  }

  /// A date field that must be present; `why` completes "is required …".
  func requiredTimestamp(_ key: String, _ problems: inout ImportProblems, why: String)
    -> Timestamp?
  {
    guard has(key) else {
      problems.error(line, "field '\(name(key))' is missing; it is required \(why)")
      return nil
    }
    return timestamp(key, &problems)
  }

  private func describe(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): return "the string \"\(text)\""
    case .integer, .number: return JSONWriter.compact(value)
    default: return value.kindName
    }
  }
}
