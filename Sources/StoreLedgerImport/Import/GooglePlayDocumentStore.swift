import StoreLedgerCore

/// The Google Play documents an `import --append` keeps beside the log
/// (`LOG.googleplay-documents.jsonl`, Docs/import-googleplay.md, "Importing as data arrives").
///
/// No Google document is complete on its own, and stores deliver them one by one, out of order.
/// So every document an import reads is kept, one JSON line per purchase token
/// (`{"token": …, "document": …}`; a pull response or a voided purchases list is kept per
/// message or entry), and the next import of a document about a token reads every document
/// kept for it (and for the tokens it links to) with its own: each import then derives its
/// events from everything known about the purchase, as one import of all of it would. A
/// document that cannot be used yet (a notification before its resource) waits here and
/// changes no answer until the document it needs arrives. Pure: bytes in, lines out.
package enum GooglePlayDocumentStore {
  /// The line prefix every kept line starts with, before the token.
  static let prefix = Array(#"{"token":""#.utf8)

  /// The kept lines whose token is in `tokens`.
  /// - Complexity: O(n) in the size of the store.
  static func lines(in store: [UInt8], tokens: Set<String>) -> [String] {
    var found: [String] = []
    store.withUnsafeBufferPointer { bytes in
      var start = 0
      while start < bytes.count {
        let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
        // A last line without its newline is one a crash cut short: not kept.
        guard end < bytes.count else { break }
        if let token = token(of: bytes, from: start, to: end), tokens.contains(token) {
          found.append(String(decoding: bytes[start..<end], as: UTF8.self))
        }
        start = end + 1
      }
    }
    return found
  }

  /// What `scan` found: where the complete lines end, and the first line that is not a kept line.
  package struct Scan: Sendable, Equatable {
    /// Bytes up to and including the last newline.
    package var completeBytes: Int
    /// The 1-based number of the first line that is not a kept line, if any.
    package var badLine: Int?
    /// Why that line is not one.
    package var reason = ""
  }

  /// Checks every complete line of `store`: each must be a kept line, its token first; a line
  /// that starts at `parsedFrom` or later is parsed in full too (`{"token": string, "document":
  /// value}` and nothing else). Lines before `parsedFrom` are vouched for by the record's
  /// digest, which covers what this program wrote. A last line without its newline (an
  /// interrupted import cut it short) is not a complete line.
  /// - Complexity: O(n) in the size of the store, plus the JSON parse of the lines from `parsedFrom`.
  package static func scan(_ store: [UInt8], parsingFrom parsedFrom: Int) -> Scan {
    var scan = Scan(completeBytes: 0)
    var number = 0
    store.withUnsafeBufferPointer { bytes in
      var start = 0
      while start < bytes.count, let end = bytes[start...].firstIndex(of: 10) {
        number += 1
        if let reason = problem(bytes, from: start, to: end, parses: start >= parsedFrom) {
          scan.badLine = number
          scan.reason = reason
          return
        }
        start = end + 1
        scan.completeBytes = start
      }
    }
    return scan
  }

  /// Why the line `bytes[start..<end]` is not a kept line, or nil when it is one.
  private static func problem(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, parses: Bool)
    -> String?
  {
    guard let token = token(of: bytes, from: start, to: end) else {
      return "it does not begin with {\"token\":\""
    }
    guard parses else { return nil }
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes: Array(bytes[start..<end]))
    } catch {
      return "invalid JSON at column \(error.column): \(error.detail)"
    }
    guard let members = value.objectMembers, members.count == 2, value["token"]?.stringValue == token,
      value["document"] != nil
    else { return "expected {\"token\": …, \"document\": …} and nothing else" }
    return nil
  }

  /// The token of a kept line: the characters after the prefix, up to the closing quote.
  private static func token(of bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
    -> String?
  {
    let tokenStart = start + prefix.count
    guard tokenStart < end, bytes[start..<tokenStart].elementsEqual(prefix),
      let close = bytes[tokenStart..<end].firstIndex(of: UInt8(ascii: "\""))
    else { return nil }
    return String(decoding: bytes[tokenStart..<close], as: UTF8.self)
  }

  /// A kept line: the token first (so that reading needs no JSON parse), then the document.
  static func line(token: String, document: JSONValue) -> String {
    #"{"token":"# + JSONWriter.compact(.string(token)) + #","document":"#
      + JSONWriter.compact(document) + "}"
  }

  /// The document of a kept line.
  static func document(ofLine line: String) -> JSONValue? {
    (try? JSONValue.parse(line))?["document"]
  }
}
