/// What the ledger keeps about its erasures (`LOG.erased`, beside the log's canonical path;
/// Docs/erasure.md): a random key made for this log, the erasures done (when, how many lines,
/// which pseudonym, never the subject), and a keyed digest (HMAC-SHA256 under that key) of each
/// erased subject and store token, sorted, so that no digest says which erasure it came from.
///
/// Importers check every subject and token they would write against the digests, so a store
/// document of an erased customer imported again never brings them back. The file holds no
/// subject or token: recognising one needs the value itself. One JSON object per line, the
/// first one the format and key, the last one a check digest of everything before it.
package struct ErasureRegistry: Sendable, Equatable {
  /// The format tag of the first line.
  static let format = "storeledger-erased/1"
  /// Largest file read.
  static let bytesMax = 64 << 20

  /// One erasure, as the audit trail shows it.
  package struct Erasure: Sendable, Equatable {
    /// When it was done.
    package var erasedAt: Timestamp
    /// The pseudonym an erased subject's lines now carry.
    package var pseudonym: String
    /// Lines of that subject rewritten.
    package var lines: Int

    /// Creates an entry.
    package init(erasedAt: Timestamp, pseudonym: String, lines: Int) {
      self.erasedAt = erasedAt
      self.pseudonym = pseudonym
      self.lines = lines
    }
  }

  /// The key of the digests, 32 random bytes.
  package var key: [UInt8]
  /// Every erasure, oldest first.
  package var erasures: [Erasure] = []
  /// The keyed digests (hex) of the erased subjects and tokens.
  package var marks: Set<String> = []

  /// Where the registry of `log` is.
  package static func path(log: String) -> String { PlatformFile.canonicalPath(log) + ".erased" }

  /// A registry with a fresh random key and nothing erased.
  package static func fresh(_ names: inout ErasureNames) -> ErasureRegistry {
    ErasureRegistry(key: names.bytes(32))
  }

  /// The keyed digest of `value`.
  package func mark(_ value: String) -> String { HMACSHA256.mac(key: key, message: Array(value.utf8)).hex }

  /// Whether `value` (a subject or store token) was erased.
  package func isErased(_ value: String) -> Bool { !marks.isEmpty && marks.contains(mark(value)) }

  /// The file's bytes.
  package func encoded() -> [UInt8] {
    var lines = [JSONWriter.compact(.object([("format", .string(Self.format)), ("key", .string(SHA256Digest(bytes: key).hex))]))]
    for erasure in erasures {
      lines.append(
        JSONWriter.compact(
          .object([
            ("erased_at", .string(erasure.erasedAt.rfc3339)), ("lines", .integer(Int64(erasure.lines))),
            ("pseudonym", .string(erasure.pseudonym)),
          ])))
    }
    lines += marks.sorted().map { JSONWriter.compact(.object([("mark", .string($0))])) }
    let body = Array(lines.map { $0 + "\n" }.joined().utf8)
    return body + Array((JSONWriter.compact(.object([("check", .string(SHA256.hash(body).hex))])) + "\n").utf8)
  }

  /// The registry of `log`; nil when the log has had no erasure.
  /// - Throws: `importFailed` (65) naming the file when it is damaged: erasures would no longer be recognised.
  package static func read(log: String) throws(Diagnostic) -> ErasureRegistry? {
    let path = path(log: log)
    guard PlatformFile.entryKind(path) != .missing else { return nil }
    let bytes = try LedgerLoader.readFile(path, limit: bytesMax)
    guard let registry = decode(bytes) else {
      throw Diagnostic(
        file: path,
        .importFailed("the erasure record is damaged, so erased customers could come back; restore it from a backup"))
    }
    return registry
  }

  /// Parses the file; nil when it is not one this program wrote.
  static func decode(_ bytes: [UInt8]) -> ErasureRegistry? {
    var lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
    guard lines.last?.isEmpty == true else { return nil }
    lines.removeLast()
    guard lines.count >= 2, let check = try? JSONValue.parse(bytes: Array(lines.removeLast()))["check"]?.stringValue,
      let headLine = lines.first, let head = try? JSONValue.parse(bytes: Array(headLine)),
      head["format"]?.stringValue == format, let keyHex = head["key"]?.stringValue,
      let key = SHA256Digest(hex: keyHex)?.bytes
    else { return nil }
    let bodyBytes = lines.reduce(into: [UInt8]()) { $0 += $1; $0.append(10) }
    guard SHA256.hash(bodyBytes).hex == check else { return nil }
    var registry = ErasureRegistry(key: key)
    for line in lines.dropFirst() {
      guard let value = try? JSONValue.parse(bytes: Array(line)) else { return nil }
      if let mark = value["mark"]?.stringValue {
        registry.marks.insert(mark)
      } else if let pseudonym = value["pseudonym"]?.stringValue, case .integer(let count)? = value["lines"],
        let at = value["erased_at"]?.stringValue, let erasedAt = Timestamp.parseRFC3339(at)
      {
        registry.erasures.append(Erasure(erasedAt: erasedAt, pseudonym: pseudonym, lines: Int(count)))
      } else {
        return nil
      }
    }
    return registry
  }
}
