/// Parsed `audit` query lines: subjects in one byte arena, instants in flat arrays.
public struct QueryBatch: Sendable {
  private var arena: [UInt8] = []
  private var subjectEnds: [Int] = []
  private var ats: [Timestamp] = []
  private var asOfs: [Timestamp] = []
  private static let noAsOf = Timestamp(millisecondsSinceEpoch: Int64.min)

  /// The number of queries.
  public var count: Int { ats.count }

  /// Parses every line `{"subject": "...", "at": "...", "as_of": "..."|null}`; empty lines are skipped.
  ///
  /// All lines are checked before any is answered, so a bad line means no output at all.
  /// - Complexity: O(input size).
  public static func parse(_ input: [UInt8], file: String) throws(DiagnosticList) -> QueryBatch {
    var batch = QueryBatch()
    var errors: [Diagnostic] = []
    var lineNumber = 0
    var start = 0
    var scratch: [UInt8] = []
    input.withUnsafeBufferPointer { all in
      while start < all.count || (start == all.count && false) {
        var end = start
        while end < all.count && all[end] != 10 { end += 1 }
        lineNumber += 1
        let line = UnsafeBufferPointer(rebasing: all[start..<end])
        start = end + 1
        if line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { continue }
        if let error = batch.add(line, lineNumber: lineNumber, scratch: &scratch) {
          var located = error
          located.file = file
          if errors.count < Limits.diagnosticsShownMax { errors.append(located) }
        }
      }
    }
    if !errors.isEmpty { throw DiagnosticList(errors) }
    return batch
  }

  private mutating func add(
    _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, scratch: inout [UInt8]
  ) -> Diagnostic? {
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes: Array(line))
    } catch {
      return Diagnostic(line: lineNumber, column: error.column, .invalidJSON(error.detail))
    }
    guard let members = value.objectMembers else {
      return Diagnostic(line: lineNumber, .invalidJSON("expected a query object"))
    }
    var subject: String? = nil
    var at: Timestamp? = nil
    var asOf = QueryBatch.noAsOf
    for (key, member) in members {
      switch key {
      case "subject":
        guard let text = member.stringValue, !text.isEmpty else {
          return Diagnostic(line: lineNumber, .invalidValue(field: "subject", expected: "a non-empty string", found: JSONWriter.compact(member)))
        }
        subject = text
      case "at", "as_of":
        if key == "as_of", member == .null { continue }
        guard let text = member.stringValue, let parsed = Timestamp.parseRFC3339(text) else {
          return Diagnostic(
            line: lineNumber,
            .invalidValue(field: key, expected: "an RFC 3339 timestamp such as 2026-03-05T00:00:00Z", found: JSONWriter.compact(member)))
        }
        if key == "at" { at = parsed } else { asOf = parsed }
      default:
        return Diagnostic(line: lineNumber, .unknownField(key))
      }
    }
    guard let subject else { return Diagnostic(line: lineNumber, .missingField(field: "subject", type: "query")) }
    guard let at else { return Diagnostic(line: lineNumber, .missingField(field: "at", type: "query")) }
    arena.append(contentsOf: subject.utf8)
    subjectEnds.append(arena.count)
    ats.append(at)
    asOfs.append(asOf)
    return nil
  }

  /// Calls `body` with each query in order.
  public func forEach(_ body: (UnsafeBufferPointer<UInt8>, Timestamp, Timestamp?) -> Void) {
    arena.withUnsafeBufferPointer { all in
      var start = 0
      for index in 0..<ats.count {
        let end = subjectEnds[index]
        body(UnsafeBufferPointer(rebasing: all[start..<end]), ats[index], asOfs[index] == QueryBatch.noAsOf ? nil : asOfs[index])
        start = end
      }
    }
  }
}
