import StoreLedgerCore

/// One JSON document of an import input and the 1-based line it starts on.
struct InputDocument {
  /// The line of the document's first character (an array element's own line).
  var line: Int
  /// The document; a bare JWS line is a `.string`.
  var value: JSONValue

  /// The payloads `read` finds in every document, in order; none, with an error, beyond
  /// `Limits.importPayloadsMax` (each store's importer supplies its own `read`).
  /// - Complexity: O(n) in the total size of the documents, plus what `read` costs.
  static func payloads<Payload>(
    in documents: [InputDocument], _ problems: inout ImportProblems,
    read: (InputDocument, inout [Payload], inout ImportProblems) -> Void
  ) -> [Payload] {
    var payloads: [Payload] = []
    for document in documents {
      read(document, &payloads, &problems)
      if payloads.count > Limits.importPayloadsMax {
        problems.error(
          document.line,
          "more than \(Limits.importPayloadsMax) payloads in one import; split the input")
        return []
      }
    }
    return payloads
  }
}

/// Splits an import input into documents, whatever the layout the user exported.
///
/// Shared by the App Store and Google Play importers (a bare JWS line only for the App Store; a
/// line of base64 holding a JSON object, a Pub/Sub `message.data` kept as received, only for
/// Google Play).
/// Accepted layouts: one JSON document or JWS per line (JSON Lines), a JSON array of documents
/// (possibly pretty-printed), or a single pretty-printed document. An array on one line of a
/// JSON Lines file contributes its elements. Errors carry the input line (and column for JSON).
enum ImportInput {
  /// The documents of `text`, or the syntax errors that prevent reading them.
  /// - Complexity: O(n) in the length of `text`.
  static func documents(in text: String, file: String, acceptsJWS: Bool = true) -> (
    documents: [InputDocument], errors: [Diagnostic]
  ) {
    var bytes = Array(text.utf8)
    // A UTF-8 byte order mark is not JSON, but editors on Windows write one.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      bytes.replaceSubrange(0..<3, with: [32, 32, 32])
    }
    guard let first = bytes.firstIndex(where: { !isWhitespace($0) }) else { return ([], []) }
    let whole: JSONValue
    do {
      whole = try JSONValue.parse(bytes: bytes)
    } catch {
      return lineByLine(bytes, file: file, acceptsJWS: acceptsJWS, wholeError: error)
    }
    if case .array(let items) = whole {
      let lines = elementLines(bytes)
      let fallback = line(of: first, in: bytes)
      let documents = items.enumerated().map { index, item in
        InputDocument(line: lines.count == items.count ? lines[index] : fallback, value: item)
      }
      return (documents, [])
    }
    return ([InputDocument(line: line(of: first, in: bytes), value: whole)], [])
  }

  /// JSON Lines mode: each non-empty line is a JSON document or a bare JWS.
  private static func lineByLine(
    _ bytes: [UInt8], file: String, acceptsJWS: Bool, wholeError: JSONSyntaxError
  )
    -> (documents: [InputDocument], errors: [Diagnostic])
  {
    var documents: [InputDocument] = []
    var errors: [Diagnostic] = []
    var isFirstLine = true
    var lineNumber = 0
    for rawLine in bytes.split(separator: 10, omittingEmptySubsequences: false) {
      lineNumber += 1
      guard let start = rawLine.firstIndex(where: { !isWhitespace($0) }) else { continue }
      let end = rawLine.lastIndex(where: { !isWhitespace($0) })! + 1
      let content = rawLine[start..<end]
      defer { isFirstLine = false }
      let head = content.first!
      if head == UInt8(ascii: "{") || head == UInt8(ascii: "[") || head == UInt8(ascii: "\"") {
        do {
          let value = try JSONValue.parse(bytes: Array(content))
          if case .array(let items) = value {
            documents += items.map { InputDocument(line: lineNumber, value: $0) }
          } else {
            documents.append(InputDocument(line: lineNumber, value: value))
          }
        } catch {
          // When the very first line is not a document by itself, the input is one multi-line
          // document with a syntax error: report that error once instead of one per line.
          if isFirstLine {
            return (
              [],
              [
                Diagnostic(
                  file: file, line: wholeError.line, column: wholeError.column,
                  .invalidJSON(wholeError.detail))
              ]
            )
          }
          let column = start - rawLine.startIndex + error.column
          errors.append(
            Diagnostic(file: file, line: lineNumber, column: column, .invalidJSON(error.detail)))
        }
      } else if acceptsJWS, JWS.hasShape(String(decoding: content, as: UTF8.self)) {
        documents.append(
          InputDocument(line: lineNumber, value: .string(String(decoding: content, as: UTF8.self))))
      } else if !acceptsJWS, let decoded = base64Object(content) {
        documents.append(InputDocument(line: lineNumber, value: decoded))
      } else {
        errors.append(
          Diagnostic(
            file: file, line: lineNumber,
            .importFailed(
              acceptsJWS
                ? "expected a JSON document or a JWS (header.payload.signature) on this line"
                : "expected a JSON document on this line")))
      }
      if documents.isEmpty, errors.count == Self.linesJudged, let first = errors.first {
        return ([], [notPayloads(file: file, acceptsJWS: acceptsJWS, first: first)])
      }
    }
    return (documents, errors)
  }

  /// This many lines from the start that are no document, and none that is, make an input
  /// that is not payloads at all (a README, a CSV): one error instead of one per line, as
  /// for a log (Docs/decisions.md, "A log that is not JSON Lines").
  static let linesJudged = 8

  /// The one error for an input whose first `linesJudged` lines are no document.
  private static func notPayloads(file: String, acceptsJWS: Bool, first: Diagnostic) -> Diagnostic {
    let what = acceptsJWS ? "a JSON document or a JWS" : "a JSON document or a Pub/Sub message's base64 data"
    let line = first.line.map { "line \($0)" } ?? "the first line"
    return Diagnostic(
      file: file,
      .importFailed(
        "not a file of store payloads: none of its first \(linesJudged) lines is \(what) (\(line): \(first.message))"))
  }

  /// A Pub/Sub `message.data` stored as it came (base64 of a JSON object, as backends keep
  /// Google's notifications): the object; nil for anything else.
  private static func base64Object(_ content: ArraySlice<UInt8>) -> JSONValue? {
    guard content.count <= Limits.importEncodedBytesMax,
      let bytes = GooglePlayDocuments.decodeBase64(String(decoding: content, as: UTF8.self)),
      let value = try? JSONValue.parse(bytes: bytes), case .object = value
    else { return nil }
    return value
  }

  /// The line on which each element of the top-level array starts.
  /// - Complexity: O(n).
  private static func elementLines(_ bytes: [UInt8]) -> [Int] {
    var lines: [Int] = []
    var line = 1
    var depth = 0
    var isInString = false
    var isEscaped = false
    var isExpectingElement = false
    for byte in bytes {
      if byte == 10 { line += 1 }
      if isInString {
        if isEscaped {
          isEscaped = false
        } else if byte == UInt8(ascii: "\\") {
          isEscaped = true
        } else if byte == UInt8(ascii: "\"") {
          isInString = false
        }
        continue
      }
      if isWhitespace(byte) { continue }
      if depth == 1 && isExpectingElement && byte != UInt8(ascii: "]") {
        lines.append(line)
        isExpectingElement = false
      }
      switch byte {
      case UInt8(ascii: "\""): isInString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth == 1 { isExpectingElement = true }
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      case UInt8(ascii: ","): if depth == 1 { isExpectingElement = true }
      default: break
      }
    }
    return lines
  }

  /// The 1-based line of a byte offset.
  private static func line(of offset: Int, in bytes: [UInt8]) -> Int {
    1 + bytes[..<offset].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 32 || byte == 9 || byte == 10 || byte == 13
  }
}
