/// Parsed `audit` query lines: subjects in one byte arena, instants in flat arrays.
package struct QueryBatch: Sendable {
  private var arena: [UInt8] = []
  private var subjectEnds: [Int] = []
  private var ats: [Timestamp] = []
  private var asOfs: [Timestamp] = []
  /// Cached queries by index (few in practice, so kept aside from the flat arrays).
  private var caches: [Int: CacheRequest] = [:]
  private static let noAsOf = Timestamp(millisecondsSinceEpoch: Int64.min)

  /// The number of queries.
  package var count: Int { ats.count }

  /// Parses every line `{"subject": "...", "at": "...", "as_of": "..."|null}` (or, for a cached
  /// answer, `"cached_at"` and an optional `"max_staleness"` instead of `as_of`); empty lines are skipped.
  ///
  /// All lines are checked before any is answered, so a bad line means no output at all.
  /// - Complexity: O(input size).
  /// `time` allows the forms a person types (`2026-03-05`, `now`, a `--tz` offset) besides RFC 3339.
  package static func parse(_ input: [UInt8], file: String, time: TimeInput = TimeInput()) throws(DiagnosticList) -> QueryBatch {
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
        if let error = batch.add(line, lineNumber: lineNumber, scratch: &scratch, time: time) {
          var located = error
          located.file = file
          if errors.count < Limits.diagnosticsShownMax { errors.append(located) }
        }
      }
    }
    if !errors.isEmpty { throw DiagnosticList(errors) }
    return batch
  }

  /// The queries whose subject `keep` accepts, in their order (`audit --shard`).
  /// - Complexity: O(queries).
  package func filter(subjects keep: (UnsafeBufferPointer<UInt8>) -> Bool) -> QueryBatch {
    var kept = QueryBatch()
    arena.withUnsafeBufferPointer { all in
      var start = 0
      for index in 0..<count {
        let end = subjectEnds[index]
        let subject = UnsafeBufferPointer(rebasing: all[start..<end])
        start = end
        guard keep(subject) else { continue }
        kept.arena.append(contentsOf: subject)
        kept.subjectEnds.append(kept.arena.count)
        kept.ats.append(ats[index])
        kept.asOfs.append(asOfs[index])
        if let cache = caches[index] { kept.caches[kept.ats.count - 1] = cache }
      }
    }
    return kept
  }

  /// The fields of one query line as read, before the rules between them are checked.
  private struct QueryFields {
    var subject: StringRef? = nil
    var at: Timestamp? = nil
    var asOf = QueryBatch.noAsOf
    var seenAsOf = false
    var cachedAt: Timestamp? = nil
    var maxStaleness: ISODuration? = nil
  }

  /// Calls `body` with the bytes of `ref`: in `line`, or in `scratch` when it held escapes.
  private static func withText<R>(
    _ ref: StringRef, _ line: UnsafeBufferPointer<UInt8>, _ scratch: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R
  ) -> R {
    let start = Int(ref.start)
    let end = start + Int(ref.count)
    if ref.inScratch { return scratch.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<end])) } }
    return body(UnsafeBufferPointer(rebasing: line[start..<end]))
  }

  private mutating func add(
    _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, scratch: inout [UInt8], time: TimeInput
  ) -> Diagnostic? {
    // The log parser's byte-level cursor: no `JSONValue`, no `String` per field.
    scratch.removeAll(keepingCapacity: true)
    var cursor = Cursor(line: line, lineNumber: lineNumber)
    let fields: QueryFields
    do throws(Diagnostic) {
      fields = try QueryBatch.readObject(&cursor, scratch: &scratch, time: time)
    } catch {
      return error
    }
    guard let subject = fields.subject else {
      return Diagnostic(line: lineNumber, .missingField(field: "subject", type: "query"))
    }
    guard let at = fields.at else { return Diagnostic(line: lineNumber, .missingField(field: "at", type: "query")) }
    if let cachedAt = fields.cachedAt {
      guard fields.asOf == QueryBatch.noAsOf else {
        return Diagnostic(
          line: lineNumber,
          .fieldNotAllowed(field: "as_of", type: "cached query", why: "a cached answer is as known at 'cached_at'"))
      }
      guard cachedAt <= at else {
        return Diagnostic(
          line: lineNumber,
          .invalidValue(field: "cached_at", expected: "a time at or before 'at' (\(at.rfc3339))", found: "\"\(cachedAt.rfc3339)\""))
      }
      caches[ats.count] = CacheRequest(
        verifiedAt: cachedAt, maxStaleness: fields.maxStaleness ?? CacheRequest.defaultMaxStaleness)
    } else if fields.maxStaleness != nil {
      return Diagnostic(line: lineNumber, .missingField(field: "cached_at", type: "query with 'max_staleness'"))
    }
    QueryBatch.withText(subject, line, scratch) { arena.append(contentsOf: $0) }
    subjectEnds.append(arena.count)
    ats.append(at)
    asOfs.append(fields.asOf)
    return nil
  }

  /// Reads the query object that is the whole line, member by member.
  private static func readObject(
    _ cursor: inout Cursor, scratch: inout [UInt8], time: TimeInput
  ) throws(Diagnostic) -> QueryFields {
    let line = cursor.p
    var fields = QueryFields()
    cursor.skipWhitespace()
    guard cursor.i < line.count, line[cursor.i] == 123 else { throw cursor.jsonError("expected a query object") }
    cursor.i += 1
    cursor.skipWhitespace()
    if cursor.i < line.count, line[cursor.i] == 125 {
      cursor.i += 1
    } else {
      repeat {
        cursor.skipWhitespace()
        guard cursor.i < line.count, line[cursor.i] == 34 else {
          throw cursor.jsonError("expected a field name in double quotes")
        }
        let keyRef = try cursor.readString(scratch: &scratch)
        let key = withText(keyRef, line, scratch) { String(decoding: $0, as: UTF8.self) }
        cursor.skipWhitespace()
        guard cursor.i < line.count, line[cursor.i] == 58 else { throw cursor.jsonError("expected ':'") }
        cursor.i += 1
        cursor.skipWhitespace()
        try readMember(key, into: &fields, &cursor, scratch: &scratch, time: time)
      } while try cursor.nextMember(closing: 125)
    }
    cursor.skipWhitespace()
    guard cursor.i == line.count else { throw cursor.jsonError("unexpected data after the query object") }
    return fields
  }

  /// Reads the value of member `key` into `fields`; refuses a repeated or unknown member.
  private static func readMember(
    _ key: String, into fields: inout QueryFields, _ cursor: inout Cursor, scratch: inout [UInt8], time: TimeInput
  ) throws(Diagnostic) {
    let line = cursor.p
    let valueStart = cursor.i
    switch key {
    case "subject":
      guard fields.subject == nil else { throw cursor.fieldError(.duplicateField(key)) }
      guard cursor.i < line.count, line[cursor.i] == 34 else {
        throw cursor.wrongType(.subject, "a non-empty string", valueStart)
      }
      let ref = try cursor.readString(scratch: &scratch)
      guard ref.count > 0 else { throw cursor.wrongType(.subject, "a non-empty string", valueStart) }
      fields.subject = ref
    case "max_staleness":
      guard fields.maxStaleness == nil else { throw cursor.fieldError(.duplicateField(key)) }
      let expected = "an ISO 8601 duration such as PT24H or P3D, \(ISODuration.lengthLimitDescription)"
      guard cursor.i < line.count, line[cursor.i] == 34 else {
        throw Diagnostic(line: cursor.lineNumber, .invalidValue(field: key, expected: expected, found: cursor.foundDescription(from: valueStart)))
      }
      let ref = try cursor.readString(scratch: &scratch)
      guard let parsed = withText(ref, line, scratch, { ISODuration(String(decoding: $0, as: UTF8.self)) }) else {
        throw Diagnostic(line: cursor.lineNumber, .invalidValue(field: key, expected: expected, found: cursor.foundDescription(from: valueStart)))
      }
      fields.maxStaleness = parsed
    case "at", "as_of", "cached_at":
      if key == "at" ? fields.at != nil : key == "as_of" ? fields.seenAsOf : fields.cachedAt != nil {
        throw cursor.fieldError(.duplicateField(key))
      }
      if key == "as_of" {
        fields.seenAsOf = true
        if cursor.matchLiteral("null") { break }
      }
      let parsed = try readTime(key, &cursor, scratch: &scratch, time: time)
      if key == "at" { fields.at = parsed } else if key == "as_of" { fields.asOf = parsed } else { fields.cachedAt = parsed }
    default:
      throw cursor.fieldError(.unknownField(key))
    }
  }

  /// Reads the time of member `key`: RFC 3339 or a form a person types (`TimeInput`).
  private static func readTime(
    _ key: String, _ cursor: inout Cursor, scratch: inout [UInt8], time: TimeInput
  ) throws(Diagnostic) -> Timestamp {
    let valueStart = cursor.i
    let expected = TimeInput.formsDescription
    guard cursor.i < cursor.p.count, cursor.p[cursor.i] == 34 else {
      throw Diagnostic(line: cursor.lineNumber, .invalidValue(field: key, expected: expected, found: cursor.foundDescription(from: valueStart)))
    }
    let ref = try cursor.readString(scratch: &scratch)
    // RFC 3339 without a String first (the common case), then the forms people type.
    let typed = withText(ref, cursor.p, scratch) { bytes in
      Timestamp.parseRFC3339(bytes).map { Result.success($0) }
        ?? time.parse(String(decoding: bytes, as: UTF8.self))
    }
    switch typed {
    case .success(let value): return value
    case .failure(let problem):
      let found = cursor.foundDescription(from: valueStart)
      throw Diagnostic(
        line: cursor.lineNumber,
        problem == .missingOffset
          ? .missingUTCOffset(field: key, found: found)
          : .invalidValue(
            field: key, expected: problem == .outOfRange ? TimeInput.rangeDescription : expected, found: found))
    }
  }

  /// Calls `body` with each query in order (subject, at, as_of).
  /// - Complexity: O(queries).
  package func forEach(_ body: (UnsafeBufferPointer<UInt8>, Timestamp, Timestamp?) -> Void) {
    forEach { subject, at, asOf, _ in body(subject, at, asOf) }
  }

  /// Calls `body` with each query in order (subject, at, as_of, cached answer asked for).
  /// - Complexity: O(queries).
  package func forEach(_ body: (UnsafeBufferPointer<UInt8>, Timestamp, Timestamp?, CacheRequest?) -> Void) {
    arena.withUnsafeBufferPointer { all in
      var start = 0
      for index in 0..<ats.count {
        let end = subjectEnds[index]
        let cache = caches.isEmpty ? nil : caches[index]
        body(
          UnsafeBufferPointer(rebasing: all[start..<end]), ats[index],
          asOfs[index] == QueryBatch.noAsOf ? nil : asOfs[index], cache)
        start = end
      }
    }
  }
}
