/// Where a symbol table's spans are read back from: a loaded log, held open (Log/).
///
/// Every read is checked: the span must still be framed by the quotes of the JSON string it was
/// interned from. A failed read or check is kept as `failure` (the first one) and gives nil.
package protocol SpanSource: AnyObject, Sendable {
  /// Reads up to `buffer.count` bytes at `offset` (fewer only at the end); nil when the read failed.
  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int?
  /// Whether `count` bytes at `at` of `window`, read from `fileOffset`, are still quoted as loaded.
  func checkQuoted(_ window: UnsafeRawBufferPointer, at: Int, count: Int, fileOffset: Int64) -> Bool
  /// The first read that failed or found other bytes than were loaded; nil while all is well.
  var failure: Diagnostic? { get }
}

extension SpanSource {
  /// Calls `body` with the `count` bytes of the string at `offset`, or nil when they cannot be
  /// read as they were loaded (`failure` then says why).
  func withString<R>(at offset: Int64, count: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
    withUnsafeTemporaryAllocation(byteCount: count + 2, alignment: 8) { raw in
      guard let n = read(into: raw, at: offset - 1) else { return body(nil) }
      let window = UnsafeRawBufferPointer(rebasing: raw[0..<n])
      guard checkQuoted(window, at: 1, count: count, fileOffset: offset) else { return body(nil) }
      return body(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[1..<(1 + count)]))
    }
  }
}

/// What a string that cannot be read back prints as: loud, never mistaken for an id.
package let unreadableSpanPlaceholder = "<unreadable: the log changed after loading>"

/// Reads a table's spans of a log in symbol order through one large buffer: spans interned in log
/// order lie at rising offsets, so the log is read once, sequentially, in big blocks.
struct SpanWindow: ~Copyable {
  private let source: any SpanSource
  private let buffer: UnsafeMutableRawBufferPointer
  private var start: Int64 = 0
  private var count = 0

  /// A window of `blockBytes` (and room for the longest string) over `source`.
  init(_ source: any SpanSource, blockBytes: Int = 1 << 20) {
    self.source = source
    buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: blockBytes + Int(UInt16.max) + 2, alignment: 64)
  }

  deinit { buffer.deallocate() }

  /// The `length` bytes at `offset`, checked to be the string loaded from there; nil on failure
  /// (the source keeps it). Valid until the next call.
  mutating func bytes(at offset: Int64, count length: Int) -> UnsafeBufferPointer<UInt8>? {
    if offset - 1 < start || offset + Int64(length) + 1 > start + Int64(count) {
      start = offset - 1
      guard let n = source.read(into: buffer, at: start) else {
        count = 0
        return nil
      }
      count = n
    }
    let at = Int(offset - start)
    guard source.checkQuoted(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), at: at, count: length, fileOffset: offset)
    else { return nil }
    return UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + at, count: length)
  }
}
