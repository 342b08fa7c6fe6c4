/// A write position in a buffer the caller has sized (see `LineEncoder.lineBytesMax`).
///
/// No bounds checks and no `Array` bookkeeping per piece: the generator's lines and the
/// audit's policy keys are written through it, each into room its caller reserved.
package struct ByteCursor {
  /// The next byte to write.
  package private(set) var pointer: UnsafeMutablePointer<UInt8>

  /// A cursor at `start`.
  package init(_ start: UnsafeMutablePointer<UInt8>) {
    pointer = start
  }

  /// Copies a static ASCII string.
  @inline(__always)
  package mutating func put(_ text: StaticString) {
    text.withUTF8Buffer { bytes in
      pointer.update(from: bytes.baseAddress!, count: bytes.count)
      pointer += bytes.count
    }
  }

  /// Copies bytes, such as a name encoded once as a JSON literal.
  @inline(__always)
  package mutating func put(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { source in
      pointer.update(from: source.baseAddress!, count: source.count)
      pointer += source.count
    }
  }

  /// Copies bytes from memory the caller keeps alive (no reference counting).
  @inline(__always)
  package mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    pointer.update(from: source, count: bytes.count)
    pointer += bytes.count
  }

  /// Writes a signed integer in decimal.
  /// - Complexity: O(digits).
  @inline(__always)
  package mutating func integer(_ value: Int64) {
    if value < 0 { put(byte: 45) }
    decimal(value.magnitude)
  }

  /// Writes one byte.
  @inline(__always)
  package mutating func put(byte: UInt8) {
    pointer.pointee = byte
    pointer += 1
  }

  /// Writes a non-negative integer in decimal.
  /// - Complexity: O(digits).
  @inline(__always)
  package mutating func decimal(_ value: UInt64) {
    var digits = 1
    var rest = value
    while rest >= 10 {
      rest /= 10
      digits += 1
    }
    var position = pointer + digits
    rest = value
    repeat {
      position -= 1
      position.pointee = 48 + UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    } while rest != 0
    pointer += digits
  }

  /// Writes the low 48 bits as 12 lowercase hex digits.
  @inline(__always)
  package mutating func hex12(_ value: UInt64) {
    for index in 0..<12 {
      let nibble = UInt8(truncatingIfNeeded: (value >> UInt64(44 - 4 * index)) & 15)
      pointer[index] = nibble < 10 ? 48 + nibble : 87 + nibble
    }
    pointer += 12
  }

  /// Writes exactly `width` decimal digits of `value` (0 ≤ value < 10^width).
  @inline(__always)
  private mutating func fixed(_ value: Int64, width: Int) {
    var rest = value
    var index = width
    while index > 0 {
      index -= 1
      pointer[index] = 48 + UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    }
    pointer += width
  }

  /// Most bytes `timestamp` writes (an instant of Int64 milliseconds, years beyond 9999 included).
  package static let timestampBytesMax = 40

  /// Writes an instant exactly as `Timestamp.appendRFC3339` does (UTC, `.mmm` only when non-zero).
  ///
  /// The same civil-date arithmetic, written into the buffer directly: this runs
  /// three times per generated line and up to eight times per audit answer, and
  /// going through an intermediate array would cost more than the rest of the line.
  /// Years outside 0–9999 (not RFC 3339) take `appendRFC3339`'s own slow path.
  package mutating func timestamp(_ milliseconds: Int64) {
    let days = floorDivide(milliseconds, 86_400_000)
    let millisecondOfDay = milliseconds - days * 86_400_000
    let civil = CivilDate(daysSinceEpoch: days)
    guard civil.year >= 0 && civil.year <= 9999 else {
      var text: [UInt8] = []
      Timestamp(millisecondsSinceEpoch: milliseconds).appendRFC3339(to: &text)
      return put(text)
    }
    fixed(civil.year, width: 4)
    put(byte: 45)
    fixed(civil.month, width: 2)
    put(byte: 45)
    fixed(civil.day, width: 2)
    put(byte: 84)
    fixed(millisecondOfDay / 3_600_000, width: 2)
    put(byte: 58)
    fixed(millisecondOfDay / 60_000 % 60, width: 2)
    put(byte: 58)
    fixed(millisecondOfDay / 1000 % 60, width: 2)
    let millis = millisecondOfDay % 1000
    if millis != 0 {
      put(byte: 46)
      fixed(millis, width: 3)
    }
    put(byte: 90)
  }
}

/// A fixed-size byte buffer that a `ByteCursor` writes into, reused from one write to the next.
///
/// A class so that a writer (a value type such as `QueryEngine`) reaches it without copying
/// itself into a closure; each write fills it from the start and copies out what it wrote
/// before the next, so engines copied from one another may share it on one thread.
package final class ByteScratch {
  /// The first byte.
  package let base: UnsafeMutablePointer<UInt8>
  /// Its size in bytes.
  package let capacity: Int

  /// A buffer of `capacity` bytes.
  package init(capacity: Int) {
    base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    self.capacity = capacity
  }

  deinit { base.deallocate() }
}
