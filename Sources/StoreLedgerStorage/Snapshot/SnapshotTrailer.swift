import StoreLedgerCore

/// The last line of a snapshot: where its readable header ends, where its binary restore section
/// lies, and the digest of everything restoring reads (`SnapshotSeal`).
///
/// Fixed width text, so a reader finds it at the end of the file without searching:
/// `\nrestore: header=<20 digits> section=<20 digits> bytes=<20 digits> xxh64=<16 hex digits>\n`.
struct SnapshotTrailer: Equatable {
  /// Bytes of the readable header (catalog, format, log) at the start of the file.
  var headerBytes: Int
  /// Where the binary restore section begins.
  var sectionAt: Int
  /// Length of the binary restore section.
  var sectionBytes: Int
  /// `SnapshotSeal`'s digest, as written.
  var digest: Checksum64

  private static let headerLabel = Array("\nrestore: header=".utf8)
  private static let sectionLabel = Array(" section=".utf8)
  private static let bytesLabel = Array(" bytes=".utf8)
  private static let digestLabel = Array(" xxh64=".utf8)
  private static let numberDigits = 20

  /// Where the digest's hex digits begin inside the trailer.
  static let digestOffset =
    headerLabel.count + sectionLabel.count + bytesLabel.count + digestLabel.count + 3 * numberDigits
  /// The trailer's length in bytes.
  static let byteCount = digestOffset + SnapshotSeal.hexDigits + 1

  /// Whether the ranges it names lie inside a file of `fileBytes` bytes, in order, ending with itself.
  func isInside(fileBytes: Int) -> Bool {
    headerBytes >= 0 && headerBytes <= sectionAt && sectionBytes >= 0
      && sectionAt <= fileBytes - Self.byteCount - sectionBytes
      && sectionAt + sectionBytes + Self.byteCount == fileBytes
  }

  /// The trailer's bytes, with the digest written as zeros when `digest` is nil (to be sealed).
  func bytes() -> [UInt8] {
    func number(_ value: Int) -> [UInt8] {
      let digits = Array(String(value).utf8)
      precondition(digits.count <= Self.numberDigits, "snapshot too large")
      return [UInt8](repeating: 0x30, count: Self.numberDigits - digits.count) + digits
    }
    var out = Self.headerLabel + number(headerBytes)
    out += Self.sectionLabel + number(sectionAt)
    out += Self.bytesLabel + number(sectionBytes)
    out += Self.digestLabel + Array(digest.hex.utf8) + [10]
    return out
  }

  /// Where the restore section begins by the trailer of any snapshot format since 4 (whose
  /// trailers all begin `restore: header=<20 digits> section=<20 digits>`, whatever digest
  /// follows): for reading an older snapshot's readable part, never for restoring.
  static func sectionAtOfAnyFormat(_ file: UnsafeRawBufferPointer) -> Int? {
    // The last line, at most this long: the widest trailer written so far (a SHA-256's 64 digits) with room to spare.
    let window = file[max(0, file.count - 256)...]
    guard file.last == 10, let lineStart = window.dropLast().lastIndex(of: 10) else { return nil }
    var at = lineStart
    func label(_ text: [UInt8]) -> Bool {
      defer { at += text.count }
      return file.count - at >= text.count && file[at..<(at + text.count)].elementsEqual(text)
    }
    guard label(headerLabel), file.count - at > numberDigits else { return nil }
    at += numberDigits
    guard label(sectionLabel), file.count - at > numberDigits else { return nil }
    var value = 0
    for digit in file[at..<(at + numberDigits)] {
      guard digit &- 0x30 < 10, value <= (Int.max - 9) / 10 else { return nil }
      value = value * 10 + Int(digit &- 0x30)
    }
    return value <= lineStart ? value : nil
  }

  /// Reads the trailer at the end of `file`; nil when there is none or it is malformed.
  static func parse(_ file: UnsafeRawBufferPointer) -> SnapshotTrailer? {
    guard file.count >= byteCount else { return nil }
    var at = file.count - byteCount
    func label(_ text: [UInt8]) -> Bool {
      defer { at += text.count }
      return file[at..<(at + text.count)].elementsEqual(text)
    }
    func number() -> Int? {
      var value = 0
      for k in 0..<numberDigits {
        let digit = file[at + k] &- 0x30
        let (tens, overflowed) = value.multipliedReportingOverflow(by: 10)
        guard digit < 10, !overflowed, tens <= Int.max - Int(digit) else { return nil }
        value = tens + Int(digit)
      }
      at += numberDigits
      return value
    }
    guard label(headerLabel), let header = number(), label(sectionLabel), let section = number(),
      label(bytesLabel), let bytes = number(), label(digestLabel)
    else { return nil }
    let hex = String(decoding: file[at..<(at + SnapshotSeal.hexDigits)], as: UTF8.self)
    guard let digest = Checksum64(hex: hex), file[file.count - 1] == 10 else { return nil }
    let trailer = SnapshotTrailer(headerBytes: header, sectionAt: section, sectionBytes: bytes, digest: digest)
    return trailer.isInside(fileBytes: file.count) ? trailer : nil
  }
}
