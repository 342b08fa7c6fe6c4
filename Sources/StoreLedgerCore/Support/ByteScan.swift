/// Finds structural bytes 16 at a time with SIMD compares, as simdjson's first stage does,
/// falling back to one byte at a time only for the last few bytes of a range.
///
/// Every function reads only inside `[from, end)`: a 16-byte load is made only where 16 bytes
/// remain, so the caller's bounds are the memory-safety bounds too.
package enum ByteScan {
  /// Bytes per SIMD step.
  static let width = 16

  /// The offset of the first `target` byte in `bytes[from..<end]`, or `end` when there is none.
  /// - Complexity: O(end - from).
  @inline(__always)
  package static func first(_ target: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int {
    precondition(from >= 0 && end <= bytes.count, "scan outside the buffer")
    guard let base = bytes.baseAddress else { return end }
    let raw = UnsafeRawPointer(base)
    let wanted = SIMD16<UInt8>(repeating: target)
    var i = from
    while i + width <= end {
      let block = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
      let hits = block .== wanted
      if any(hits) { return i + firstLane(hits) }
      i += width
    }
    while i < end && base[i] != target { i += 1 }
    return i
  }

  /// The first offset of `pattern` in `bytes[from..<end]`, or nil: candidates are found by
  /// `first` on the pattern's first byte, then compared.
  /// - Complexity: O((end - from) · pattern.count).
  package static func firstOccurrence(of pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int? {
    guard let head = pattern.first, end - from >= pattern.count else { return nil }
    let last = end - pattern.count
    var index = first(head, in: bytes, from: from, end: last + 1)
    while index <= last {
      var matches = true
      for offset in 1..<pattern.count where bytes[index + offset] != pattern[offset] {
        matches = false
        break
      }
      if matches { return index }
      index = first(head, in: bytes, from: index + 1, end: last + 1)
    }
    return nil
  }

  /// The number of `target` bytes in `bytes[from..<end]`.
  /// - Complexity: O(end - from).
  @inline(__always)
  package static func count(_ target: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int {
    precondition(from >= 0 && end <= bytes.count, "scan outside the buffer")
    guard let base = bytes.baseAddress else { return 0 }
    let raw = UnsafeRawPointer(base)
    let wanted = SIMD16<UInt8>(repeating: target)
    let one = SIMD16<UInt8>(repeating: 1)
    let zero = SIMD16<UInt8>(repeating: 0)
    var total = 0
    var i = from
    while i + width <= end {
      // Per-lane counters hold at most 255: flush them before they can wrap.
      var lanes = zero
      var steps = 0
      while steps < 255 && i + width <= end {
        let block = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
        lanes &+= zero.replacing(with: one, where: block .== wanted)
        i += width
        steps += 1
      }
      total += Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
    }
    while i < end {
      if base[i] == target { total += 1 }
      i += 1
    }
    return total
  }

  /// The offset of the first byte in `bytes[from..<end]` that can end a plain JSON string's fast
  /// path: a quote, a backslash, a control byte (below 0x20) or a non-ASCII byte (0x80 and up).
  /// Returns `end` when there is none.
  /// - Complexity: O(end - from).
  @inline(__always)
  package static func firstStringStop(in bytes: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int {
    precondition(from >= 0 && end <= bytes.count, "scan outside the buffer")
    guard let base = bytes.baseAddress else { return end }
    let raw = UnsafeRawPointer(base)
    let quote = SIMD16<UInt8>(repeating: 0x22)
    let backslash = SIMD16<UInt8>(repeating: 0x5C)
    let space = SIMD16<UInt8>(repeating: 0x20)
    let printableCount = SIMD16<UInt8>(repeating: 0x60)
    var i = from
    while i + width <= end {
      let block = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
      // Wrapping subtraction maps both control bytes and non-ASCII bytes to 0x60 and above.
      let stops = (block .== quote) .| (block .== backslash) .| ((block &- space) .>= printableCount)
      if any(stops) { return i + firstLane(stops) }
      i += width
    }
    while i < end {
      let c = base[i]
      if c == 0x22 || c == 0x5C || (c &- 0x20) >= 0x60 { return i }
      i += 1
    }
    return end
  }

  /// The index of the first true lane of a mask that has one.
  @inline(__always)
  static func firstLane(_ mask: SIMDMask<SIMD16<Int8>>) -> Int {
    let lanes = unsafeBitCast(
      SIMD16<UInt8>(repeating: 0).replacing(with: 0xFF, where: mask), to: SIMD2<UInt64>.self)
    // Lane 0 is the lowest-addressed byte: read the words as little-endian on every host.
    let low = UInt64(littleEndian: lanes[0])
    return low != 0 ? low.trailingZeroBitCount >> 3 : 8 + (UInt64(littleEndian: lanes[1]).trailingZeroBitCount >> 3)
  }
}
