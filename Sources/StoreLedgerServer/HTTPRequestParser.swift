/// Frames HTTP/1.1 requests out of the bytes a connection received (RFC 9112), within
/// `ServerLimits`: only `Content-Length` bodies, origin-form targets, no obsolete line folding.
package enum HTTPRequestParser {
  /// What the bytes received so far hold.
  package enum Outcome: Sendable {
    /// Not a whole request yet.
    case incomplete
    /// Whole headers, accepted, and not all of the body yet; `expectsContinue` when the client
    /// waits for `100 Continue` before sending it (curl does for bodies over 1 KiB).
    case awaitingBody(expectsContinue: Bool)
    /// A request, and how many bytes of the buffer it took.
    case request(HTTPRequest, consumed: Int)
    /// Not a request this server reads: answer the problem and close.
    case failure(ServerProblem)
  }

  /// Frames the first request of `buffer`.
  /// - Complexity: O(buffer's header bytes).
  package static func parse(_ buffer: [UInt8], limits: ServerLimits) -> Outcome {
    guard let headerEnd = endOfHeaders(buffer, limit: limits.headerBytesMax) else {
      return buffer.count > limits.headerBytesMax ? .failure(.headersTooLarge(limit: limits.headerBytesMax)) : .incomplete
    }
    guard headerEnd <= limits.headerBytesMax else { return .failure(.headersTooLarge(limit: limits.headerBytesMax)) }
    let lines = split(buffer[..<(headerEnd - 4)])
    guard let requestLine = lines.first else { return .failure(.malformedRequest("empty request line")) }
    var request: HTTPRequest
    switch self.requestLine(requestLine) {
    case .success(let parsed): request = parsed
    case .failure(let problem): return .failure(problem)
    }
    for line in lines.dropFirst() {
      switch header(line) {
      case .success(let header): request.headers.append(header)
      case .failure(let problem): return .failure(problem)
      }
    }
    if request.header("transfer-encoding") != nil { return .failure(.lengthRequired) }
    let lengths = Set(request.headers.filter { $0.name == "content-length" }.map(\.value))
    guard lengths.count <= 1 else { return .failure(.malformedRequest("several different Content-Length headers")) }
    var length = 0
    if let text = lengths.first {
      guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int(text) else {
        return .failure(.malformedRequest("Content-Length is not a decimal number"))
      }
      length = value
    }
    guard length <= limits.bodyBytesMax else { return .failure(.bodyTooLarge(bytes: length, limit: limits.bodyBytesMax)) }
    guard buffer.count >= headerEnd + length else {
      return .awaitingBody(expectsContinue: request.header("expect")?.lowercased() == "100-continue")
    }
    request.body = Array(buffer[headerEnd..<(headerEnd + length)])
    return .request(request, consumed: headerEnd + length)
  }

  /// The index just after the blank line ending the headers, looking at most `limit + 4` bytes.
  private static func endOfHeaders(_ buffer: [UInt8], limit: Int) -> Int? {
    let end = min(buffer.count, limit + 4)
    var index = 3
    while index < end {
      if buffer[index] == 10 && buffer[index - 1] == 13 && buffer[index - 2] == 10 && buffer[index - 3] == 13 {
        return index + 1
      }
      index += 1
    }
    return nil
  }

  /// The CRLF-separated lines of the header block.
  private static func split(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var start = bytes.startIndex
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if bytes[index] == 13 && index + 1 < bytes.endIndex && bytes[index + 1] == 10 {
        lines.append(bytes[start..<index])
        index += 2
        start = index
      } else {
        index += 1
      }
    }
    lines.append(bytes[start..<bytes.endIndex])
    return lines
  }

  /// `METHOD SP origin-form SP HTTP/1.x`.
  private static func requestLine(_ line: ArraySlice<UInt8>) -> Result<HTTPRequest, ServerProblem> {
    let parts = line.split(separator: 32, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy({ $0 >= 65 && $0 <= 90 }) else {
      return .failure(.malformedRequest("the request line is not 'METHOD /path HTTP/1.1'"))
    }
    let version = String(decoding: parts[2], as: UTF8.self)
    guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
      return .failure(.malformedRequest("only HTTP/1.1 and HTTP/1.0 are served"))
    }
    let target = parts[1]
    guard target.first == 47, target.allSatisfy({ $0 > 32 && $0 < 127 }) else {
      return .failure(.malformedRequest("the target is not a path starting with '/'"))
    }
    let pathBytes = target.prefix { $0 != 63 }
    let queryBytes = target.dropFirst(pathBytes.count + 1)
    // The path stays encoded, so an encoded '/' inside a subject id does not split it; routing
    // decodes each segment (`Route`).
    guard percentDecoded(pathBytes, plusIsSpace: false) != nil else {
      return .failure(.malformedRequest("the path has a bad percent-encoding"))
    }
    let path = String(decoding: pathBytes, as: UTF8.self)
    var query: [String: String] = [:]
    for pair in queryBytes.split(separator: 38) {
      let name = pair.prefix { $0 != 61 }
      let value = pair.dropFirst(name.count + 1)
      guard let decodedName = percentDecoded(name, plusIsSpace: true), let decodedValue = percentDecoded(value, plusIsSpace: true) else {
        return .failure(.malformedRequest("the query has a bad percent-encoding"))
      }
      if query[decodedName] == nil { query[decodedName] = decodedValue }
    }
    return .success(
      HTTPRequest(
        method: String(decoding: parts[0], as: UTF8.self), path: path, query: query, headers: [], body: [],
        isHTTP10: version == "HTTP/1.0"))
  }

  /// `name: value`, the name a token, the value's surrounding whitespace removed.
  private static func header(_ line: ArraySlice<UInt8>) -> Result<(name: String, value: String), ServerProblem> {
    guard let colon = line.firstIndex(of: 58), colon > line.startIndex else {
      return .failure(.malformedRequest("a header line without 'name:'"))
    }
    let name = line[..<colon]
    guard name.allSatisfy(isTokenByte) else {
      return .failure(.malformedRequest("a header name with a character a token cannot hold (or a folded line)"))
    }
    var value = line[(colon + 1)...]
    while let first = value.first, first == 32 || first == 9 { value = value.dropFirst() }
    while let last = value.last, last == 32 || last == 9 { value = value.dropLast() }
    guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
      return .failure(.malformedRequest("a header value with a control character"))
    }
    return .success((String(decoding: name, as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self)))
  }

  /// RFC 9110's `tchar`.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 48...57, 65...90, 97...122: return true
    default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  /// `%XX` decoded (and `+` as a space in a query); nil for a bad escape or bytes that are not UTF-8.
  /// - Complexity: O(bytes).
  package static func percentDecoded(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> String? {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == 37 {
        guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
          return nil
        }
        out.append(high << 4 | low)
        index += 3
      } else {
        out.append(plusIsSpace && byte == 43 ? 32 : byte)
        index += 1
      }
    }
    return String(validating: out, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 48...57: return byte - 48
    case 65...70: return byte - 55
    case 97...102: return byte - 87
    default: return nil
    }
  }
}
