import StoreLedgerCore

/// Reads JWS compact serializations (`header.payload.signature`).
///
/// Decoding does not verify: `AppStoreSignatureVerifier` checks the signature and its chain
/// (Docs/verification.md) before an import uses a payload, unless `--no-verify` says not to.
enum JWS {
  /// The parts of a compact JWS: its decoded header and payload objects, its signature bytes,
  /// and the exact `header.payload` text the signature covers.
  struct Parts {
    /// The protected header (`alg`, `x5c`).
    var header: JSONValue
    /// The payload object.
    var payload: JSONValue
    /// The decoded signature.
    var signature: [UInt8]
    /// The original bytes of `header.payload`, as received.
    var signingInput: Substring.UTF8View
  }

  /// Splits and decodes a compact JWS without verifying it.
  /// - Complexity: O(n) in the length of `text`.
  static func parts(_ text: String) -> Result<Parts, DecodingError> {
    let header: JSONValue
    switch decodePayload(text, part: 0) {
    case .success(let value): header = value
    case .failure(let failure): return .failure(failure)
    }
    let payload: JSONValue
    switch decodePayload(text) {
    case .success(let value): payload = value
    case .failure(let failure): return .failure(failure)
    }
    let secondDot = text.utf8.indices.filter { text.utf8[$0] == UInt8(ascii: ".") }[1]
    guard let signature = base64URLDecode(text.utf8[text.utf8.index(after: secondDot)...]) else {
      return .failure(.badBase64(part: "signature"))
    }
    return .success(Parts(header: header, payload: payload, signature: signature, signingInput: text[..<secondDot].utf8))
  }

  /// Why a string is not a decodable JWS.
  enum DecodingError: Error, Equatable {
    /// Not three non-empty dot-separated parts.
    case notThreeParts
    /// Longer than `Limits.importJWSBytesMax`.
    case tooLong(bytes: Int)
    /// A part is not base64url (`part` is "header" or "payload").
    case badBase64(part: String)
    /// A part is not a JSON object.
    case badJSON(part: String, detail: String)

    /// The wording used in import errors.
    var detail: String {
      switch self {
      case .notThreeParts:
        return "not a JWS (expected header.payload.signature in base64url)"
      case .tooLong(let bytes):
        return "JWS is \(bytes) bytes, more than the limit of \(Limits.importJWSBytesMax)"
      case .badBase64(let part):
        return "the JWS \(part) is not valid base64url"
      case .badJSON(let part, let detail):
        return "the JWS \(part) is not a JSON object (\(detail))"
      }
    }
  }

  /// Whether `text` has the shape of a compact JWS: three dot-separated base64url runs.
  /// - Complexity: O(n) in the length of `text`.
  static func hasShape(_ text: some StringProtocol) -> Bool {
    var dots = 0
    var runLength = 0
    for byte in text.utf8 {
      if byte == UInt8(ascii: ".") {
        guard runLength > 0 else { return false }
        dots += 1
        runLength = 0
      } else if base64URLValue(byte) != nil || byte == UInt8(ascii: "=") {
        runLength += 1
      } else {
        return false
      }
    }
    return dots == 2 && runLength > 0
  }

  /// The decoded payload object of a compact JWS (or its header, `part` 0); the header must be
  /// a JSON object too.
  /// - Complexity: O(n) in the length of `text`.
  static func decodePayload(_ text: String, part: Int = 1) -> Result<JSONValue, DecodingError> {
    let byteCount = text.utf8.count
    guard byteCount <= Limits.importJWSBytesMax else { return .failure(.tooLong(bytes: byteCount)) }
    let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
      return .failure(.notThreeParts)
    }
    for (index, name) in [(0, "header"), (1, "payload")] {
      guard let bytes = base64URLDecode(parts[index]) else {
        return .failure(.badBase64(part: name))
      }
      let value: JSONValue
      do {
        value = try JSONValue.parse(bytes: bytes)
      } catch {
        return .failure(.badJSON(part: name, detail: error.detail))
      }
      guard case .object = value else {
        return .failure(.badJSON(part: name, detail: "found \(value.kindName)"))
      }
      if index == part { return .success(value) }
    }
    return .failure(.notThreeParts)
  }

  /// Decodes base64url (RFC 4648 §5), with or without `=` padding; nil when malformed.
  /// - Complexity: O(n).
  static func base64URLDecode(_ text: some Collection<UInt8>) -> [UInt8]? {
    var out: [UInt8] = []
    out.reserveCapacity(text.count * 3 / 4)
    var accumulator: UInt32 = 0
    var bits = 0
    var padding = 0
    for byte in text {
      if byte == UInt8(ascii: "=") {
        padding += 1
        continue
      }
      // Data after padding, or a character outside the alphabet, is not base64url.
      guard padding == 0, let value = base64URLValue(byte) else { return nil }
      accumulator = accumulator << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
      }
    }
    // A single leftover character (6 bits) cannot encode a byte.
    let characters = text.count - padding
    guard characters % 4 != 1, padding <= 2 else { return nil }
    return out
  }

  /// Encodes bytes as unpadded base64url (used to build test payloads and by tools).
  /// - Complexity: O(n).
  static func base64URLEncode(_ bytes: some Collection<UInt8>) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    var out: [UInt8] = []
    var accumulator: UInt32 = 0
    var bits = 0
    for byte in bytes {
      accumulator = accumulator << 8 | UInt32(byte)
      bits += 8
      while bits >= 6 {
        bits -= 6
        out.append(alphabet[Int(accumulator >> UInt32(bits) & 63)])
      }
    }
    if bits > 0 { out.append(alphabet[Int(accumulator << UInt32(6 - bits) & 63)]) }
    return String(decoding: out, as: UTF8.self)
  }

  /// The 6-bit value of a base64url character, accepting `+` and `/` as well.
  private static func base64URLValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
    // Standard base64's `+` and `/` are accepted: some tools re-encode JWS parts that way.
    case UInt8(ascii: "-"), UInt8(ascii: "+"): return 62
    case UInt8(ascii: "_"), UInt8(ascii: "/"): return 63
    default: return nil
    }
  }
}
