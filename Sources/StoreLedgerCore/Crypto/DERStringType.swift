/// The ASN.1 character string types of certificate Names (X.680 §41, RFC 5280 §4.1.2.4), by
/// their DER tag, and the contents each allows. DER encodes them primitive only (X.690 §10.2),
/// so a constructed form never has one of these tags.
package enum DERStringType: UInt8, Sendable, CaseIterable {
  /// UTF8String: well-formed UTF-8 (no overlong forms, surrogates or values above U+10FFFF).
  case utf8String = 0x0c
  /// PrintableString: A–Z, a–z, 0–9, space and `'()+,-./:=?`.
  case printableString = 0x13
  /// TeletexString (T61String): T.61 bytes, taken as they are.
  case teletexString = 0x14
  /// IA5String: ASCII, bytes 00–7F.
  case ia5String = 0x16
  /// UniversalString: UCS-4, four bytes per character.
  case universalString = 0x1c
  /// BMPString: UCS-2, two bytes per character, no surrogates.
  case bmpString = 0x1e

  /// The types of X.520's DirectoryString, which most Name attributes use.
  package static let directoryString: [DERStringType] = [
    .teletexString, .printableString, .universalString, .utf8String, .bmpString,
  ]

  /// The ASN.1 name ("PrintableString").
  package var name: String {
    switch self {
    case .utf8String: return "UTF8String"
    case .printableString: return "PrintableString"
    case .teletexString: return "TeletexString"
    case .ia5String: return "IA5String"
    case .universalString: return "UniversalString"
    case .bmpString: return "BMPString"
    }
  }

  /// How many characters `content` holds, or nil when this type does not allow it.
  /// TeletexString's T.61 is not decoded (its escape sequences are of no use to a verifier):
  /// any bytes are allowed and each counts as a character.
  /// - Complexity: O(n) in the content's size.
  package func characterCount(_ content: ArraySlice<UInt8>) -> Int? {
    switch self {
    case .utf8String: return DERStringType.utf8Count(content)
    case .printableString:
      return content.allSatisfy(DERStringType.isPrintable) ? content.count : nil
    case .teletexString: return content.count
    case .ia5String: return content.allSatisfy { $0 < 0x80 } ? content.count : nil
    case .universalString: return DERStringType.fixedWidthCount(content, width: 4)
    case .bmpString: return DERStringType.fixedWidthCount(content, width: 2)
    }
  }

  /// Whether a byte is one of PrintableString's characters (X.680 §41.4, table 10).
  private static func isPrintable(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return Array(" '()+,-./:=?".utf8).contains(byte)
    }
  }

  /// The number of Unicode scalars of well-formed UTF-8; nil for anything else.
  private static func utf8Count(_ content: ArraySlice<UInt8>) -> Int? {
    var iterator = content.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    var count = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid: count += 1
      case .emptyInput: return count
      case .error: return nil
      }
    }
  }

  /// The number of big-endian code units of `width` bytes, each a Unicode scalar (below
  /// U+110000, not a surrogate); nil when the content is not.
  private static func fixedWidthCount(_ content: ArraySlice<UInt8>, width: Int) -> Int? {
    guard content.count % width == 0 else { return nil }
    var index = content.startIndex
    while index < content.endIndex {
      let value = content[index..<index + width].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      guard Unicode.Scalar(value) != nil else { return nil }
      index += width
    }
    return content.count / width
  }
}
