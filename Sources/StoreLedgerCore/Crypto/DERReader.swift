/// Why bytes are not the strict DER this reader accepts.
package enum DERError: Error, Sendable, Equatable {
  /// An element runs past the end of its container.
  case truncated
  /// A length in long form that is indefinite, longer than 4 bytes or not minimal.
  case badLength
  /// A different tag than the structure requires (tags as their identifier byte).
  case unexpectedTag(expected: UInt8, found: UInt8)
  /// A tag in the high-tag-number form, which no structure here uses.
  case highTagNumber
  /// An INTEGER that is empty, padded with a redundant leading byte, or negative where only
  /// positive numbers are allowed.
  case badInteger
  /// A BOOLEAN other than one byte 00 or FF.
  case badBoolean
  /// A BIT STRING with more than 7 unused bits, or unused bits that are set.
  case badBitString
  /// An OBJECT IDENTIFIER with an empty or padded sub-identifier.
  case badObjectIdentifier
  /// Bytes left after the last element of a structure.
  case trailingData
  /// A time that is not YYMMDDHHMMSSZ (UTCTime) or YYYYMMDDHHMMSSZ (GeneralizedTime).
  case badTime
  /// Well-formed DER that this reader does not support (an explanation follows).
  case unsupported(String)
  /// A SET OF without an element where its type needs one (`SIZE (1..MAX)`).
  case emptySet
  /// A SET OF whose elements are not in ascending order of their encodings, or repeat
  /// (X.690 §11.6).
  case unsortedSet
  /// A primitive value whose content its type does not allow: a character outside
  /// PrintableString's set, UTF-8 that is not, a NULL with content (tag as its identifier byte).
  case badContent(tag: UInt8)
  /// A universal type in the form DER does not give it: a constructed (BER) string, a primitive
  /// SEQUENCE (tag as its identifier byte).
  case badForm(tag: UInt8)
  /// An attribute of a Name whose value is not of the type and size its attribute type needs
  /// (`X509Name.ValueRule`).
  case badAttribute(type: DERObjectID)
  /// A Name without any relative distinguished name where RFC 5280 §4.1.2.4 needs one.
  case emptyName
  /// The issuer or subject Name (`field`) of a certificate breaks the rule `problem` says.
  indirect case badName(field: String, problem: DERError)

  /// A short phrase for error messages ("a length that is not minimal").
  package var reason: String {
    switch self {
    case .truncated: return "an element runs past its end"
    case .badLength: return "a length that is indefinite, too long or not minimal"
    case .unexpectedTag(let expected, let found):
      return "tag 0x\(DERError.hex(found)) where 0x\(DERError.hex(expected)) belongs"
    case .highTagNumber: return "a high tag number"
    case .badInteger: return "an INTEGER that is empty, padded or negative"
    case .badBoolean: return "a BOOLEAN that is not 00 or FF"
    case .badBitString: return "a malformed BIT STRING"
    case .badObjectIdentifier: return "a malformed OBJECT IDENTIFIER"
    case .trailingData: return "bytes after the end of a structure"
    case .badTime: return "a time that is not YYMMDDHHMMSSZ or YYYYMMDDHHMMSSZ"
    case .unsupported(let what): return what
    case .emptySet: return "an empty SET OF where one element at least belongs"
    case .unsortedSet: return "a SET OF whose elements are not in ascending DER order, or repeat"
    case .badContent(let tag):
      return "a value whose content \(DERError.typeName(tag)) does not allow"
    case .badForm(let tag):
      return "tag 0x\(DERError.hex(tag)): a universal type in a form DER does not allow"
    case .badAttribute(let type):
      let rule = X509Name.rule(for: type)?.phrase ?? "valid"
      return "attribute \(X509Name.attributeName(type)) is not \(rule)"
    case .emptyName: return "an empty Name"
    case .badName(let field, let problem): return "the \(field) Name: \(problem.reason)"
    }
  }

  /// The ASN.1 name of a primitive type the reader checks ("PrintableString"), else its tag.
  private static func typeName(_ tag: UInt8) -> String {
    if let type = DERStringType(rawValue: tag) { return type.name }
    return tag == DERTag.null ? "NULL" : "tag 0x\(hex(tag))"
  }

  private static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
  }
}

/// DER tags (identifier bytes) the certificate reader uses.
package enum DERTag {
  static let boolean: UInt8 = 0x01
  static let integer: UInt8 = 0x02
  static let bitString: UInt8 = 0x03
  static let octetString: UInt8 = 0x04
  static let null: UInt8 = 0x05
  static let objectIdentifier: UInt8 = 0x06
  static let utcTime: UInt8 = 0x17
  static let generalizedTime: UInt8 = 0x18
  static let sequence: UInt8 = 0x30
  static let set: UInt8 = 0x31

  /// `[number]` context-specific and constructed (EXPLICIT tagging), e.g. `[3]` is 0xA3.
  static func contextConstructed(_ number: UInt8) -> UInt8 { 0xA0 | number }
  /// `[number]` context-specific and primitive (IMPLICIT tagging of a primitive type).
  static func contextPrimitive(_ number: UInt8) -> UInt8 { 0x80 | number }
}

/// One DER element: its tag, where its content lies and where the whole encoding lies.
package struct DERElement: Sendable {
  /// The identifier byte.
  package let tag: UInt8
  /// The content bytes.
  package let content: ArraySlice<UInt8>
  /// Tag, length and content, exactly as encoded (what a signature covers).
  package let encoded: ArraySlice<UInt8>
}

/// A reader of strict DER (X.690 §10): definite minimal lengths, one-byte tags; every read
/// checks the tag it expects. Reads from an array without copying it.
package struct DERReader: Sendable {
  private let bytes: ArraySlice<UInt8>
  private var position: Int
  private let end: Int

  /// A reader of all of `bytes`.
  package init(_ bytes: [UInt8]) { self.init(slice: bytes[...]) }

  /// A reader of the bytes of `slice` (indices stay those of the underlying array).
  package init(slice: ArraySlice<UInt8>) {
    bytes = slice
    position = slice.startIndex
    end = slice.endIndex
  }

  /// A reader of the content of `element`.
  init(contentOf element: DERElement) { self.init(slice: element.content) }

  /// Whether every element has been read.
  package var isAtEnd: Bool { position == end }

  /// The tag of the next element, if any.
  package var nextTag: UInt8? { position < end ? bytes[position] : nil }

  /// Fails unless every element has been read.
  package func expectEnd() throws(DERError) {
    guard isAtEnd else { throw .trailingData }
  }

  /// The next element, whatever its tag.
  package mutating func readAny() throws(DERError) -> DERElement {
    let start = position
    guard position < end else { throw .truncated }
    let tag = bytes[position]
    guard tag & 0x1f != 0x1f else { throw .highTagNumber }
    position += 1
    guard position < end else { throw .truncated }
    let first = bytes[position]
    position += 1
    var length = 0
    if first < 0x80 {
      length = Int(first)
    } else {
      let count = Int(first & 0x7f)
      // 0x80 is BER's indefinite form; more than 4 length bytes never fits a certificate.
      guard count >= 1, count <= 4, end - position >= count else { throw .badLength }
      guard bytes[position] != 0 else { throw .badLength }
      for _ in 0..<count {
        length = length << 8 | Int(bytes[position])
        position += 1
      }
      guard length >= 0x80 else { throw .badLength }
    }
    guard end - position >= length else { throw .truncated }
    let content = bytes[position..<position + length]
    position += length
    return DERElement(tag: tag, content: content, encoded: bytes[start..<position])
  }

  /// The next element, which must have `tag`.
  package mutating func read(_ tag: UInt8) throws(DERError) -> DERElement {
    guard let found = nextTag else { throw .truncated }
    guard found == tag else { throw .unexpectedTag(expected: tag, found: found) }
    return try readAny()
  }

  /// A reader of the content of the next element, which must have the constructed `tag`.
  package mutating func readConstructed(_ tag: UInt8) throws(DERError) -> DERReader {
    DERReader(contentOf: try read(tag))
  }

  /// The content of an INTEGER, checked minimal: the number's big-endian two's complement.
  package mutating func readInteger() throws(DERError) -> ArraySlice<UInt8> {
    let content = try read(DERTag.integer).content
    guard let first = content.first else { throw .badInteger }
    if content.count > 1 {
      let second = content[content.startIndex + 1]
      // A leading 00 before a byte below 80, or FF before a byte from 80, is padding.
      if (first == 0 && second < 0x80) || (first == 0xff && second >= 0x80) { throw .badInteger }
    }
    return content
  }

  /// The magnitude of a non-negative INTEGER, big-endian, without its sign byte.
  package mutating func readUnsignedInteger() throws(DERError) -> ArraySlice<UInt8> {
    let content = try readInteger()
    guard content.first! < 0x80 else { throw .badInteger }
    return content.first == 0 ? content.dropFirst() : content
  }

  /// A small non-negative INTEGER (up to 2^31 − 1).
  package mutating func readSmallInteger() throws(DERError) -> Int {
    let magnitude = try readUnsignedInteger()
    guard magnitude.count <= 4 else { throw .unsupported("an INTEGER too large for its field") }
    return magnitude.reduce(0) { $0 << 8 | Int($1) }
  }

  /// A BOOLEAN (one byte, 00 or FF).
  package mutating func readBoolean() throws(DERError) -> Bool {
    let content = try read(DERTag.boolean).content
    guard content.count == 1, content.first == 0 || content.first == 0xff else { throw .badBoolean }
    return content.first == 0xff
  }

  /// An OBJECT IDENTIFIER, checked well formed.
  package mutating func readObjectIdentifier() throws(DERError) -> DERObjectID {
    let content = try read(DERTag.objectIdentifier).content
    guard let last = content.last, last < 0x80 else { throw .badObjectIdentifier }
    var atStart = true
    for byte in content {
      // A sub-identifier never starts with 0x80 (a leading zero group).
      if atStart && byte == 0x80 { throw .badObjectIdentifier }
      atStart = byte < 0x80
    }
    return DERObjectID(encoded: Array(content))
  }

  /// A BIT STRING: its bytes and how many low bits of the last byte are unused (which must be 0).
  package mutating func readBitString() throws(DERError) -> (bytes: ArraySlice<UInt8>, unusedBits: Int) {
    let content = try read(DERTag.bitString).content
    guard let unused = content.first, unused <= 7 else { throw .badBitString }
    let data = content.dropFirst()
    if unused > 0 {
      guard let last = data.last, last & (1 << unused - 1) == 0 else { throw .badBitString }
    }
    return (data, Int(unused))
  }

  /// A BIT STRING holding whole bytes (keys, signatures).
  package mutating func readByteAlignedBitString() throws(DERError) -> [UInt8] {
    let (data, unused) = try readBitString()
    guard unused == 0 else { throw .badBitString }
    return Array(data)
  }

  /// A UTCTime or GeneralizedTime as Unix milliseconds (RFC 5280 §4.1.2.5: UTC, seconds, `Z`).
  package mutating func readTime() throws(DERError) -> Int64 {
    guard let tag = nextTag else { throw .truncated }
    let content = Array(try readAny().content)
    let digits: ArraySlice<UInt8>
    var year: Int
    switch tag {
    case DERTag.utcTime:
      guard content.count == 13 else { throw .badTime }
      digits = content[2..<12]
      guard let yy = DERReader.number(content[0..<2]) else { throw .badTime }
      year = yy >= 50 ? 1900 + yy : 2000 + yy
    case DERTag.generalizedTime:
      guard content.count == 15 else { throw .badTime }
      digits = content[4..<14]
      guard let yyyy = DERReader.number(content[0..<4]) else { throw .badTime }
      year = yyyy
    default:
      throw .unexpectedTag(expected: DERTag.utcTime, found: tag)
    }
    guard content.last == UInt8(ascii: "Z"),
      let month = DERReader.number(digits.prefix(2)), let day = DERReader.number(digits.dropFirst(2).prefix(2)),
      let hour = DERReader.number(digits.dropFirst(4).prefix(2)),
      let minute = DERReader.number(digits.dropFirst(6).prefix(2)),
      let second = DERReader.number(digits.dropFirst(8).prefix(2)),
      (1...12).contains(month), (1...DERReader.daysIn(month: month, year: year)).contains(day),
      hour < 24, minute < 60, second < 60
    else { throw .badTime }
    let days = DERReader.daysSinceEpoch(year: year, month: month, day: day)
    return ((Int64(days) * 24 + Int64(hour)) * 60 + Int64(minute)) * 60_000 + Int64(second) * 1000
  }

  /// The value of ASCII decimal digits; nil when any byte is not a digit.
  private static func number(_ digits: some Collection<UInt8>) -> Int? {
    var value = 0
    for digit in digits {
      guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(digit - UInt8(ascii: "0"))
    }
    return value
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
  }

  /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Hinnant's algorithm).
  private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}

/// An OBJECT IDENTIFIER, kept as its DER content bytes.
package struct DERObjectID: Sendable, Hashable, CustomStringConvertible {
  /// The content bytes (no tag or length).
  package let encoded: [UInt8]

  /// The identifier of already-encoded content bytes.
  init(encoded: [UInt8]) { self.encoded = encoded }

  /// The identifier written in dotted form ("1.2.840.10045.2.1").
  /// - Precondition: `dotted` is a valid identifier with at least two arcs.
  package init(_ dotted: String) {
    let arcs = dotted.split(separator: ".").map { UInt64($0)! }
    precondition(arcs.count >= 2 && arcs[0] <= 2, "bad object identifier \(dotted)")
    var out: [UInt8] = []
    for arc in [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) {
      var groups: [UInt8] = [UInt8(arc & 0x7f)]
      var rest = arc >> 7
      while rest > 0 {
        groups.append(UInt8(rest & 0x7f) | 0x80)
        rest >>= 7
      }
      out += groups.reversed()
    }
    encoded = out
  }

  /// The dotted form.
  package var description: String {
    var arcs: [UInt64] = []
    var value: UInt64 = 0
    for byte in encoded {
      value = value << 7 | UInt64(byte & 0x7f)
      if byte < 0x80 {
        arcs.append(value)
        value = 0
      }
    }
    guard let first = arcs.first else { return "" }
    let head = first < 80 ? [first / 40, first % 40] : [2, first - 80]
    return (head + arcs.dropFirst()).map(String.init).joined(separator: ".")
  }
}
