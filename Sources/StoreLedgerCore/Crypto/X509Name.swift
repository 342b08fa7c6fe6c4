/// An X.509 Name (RFC 5280 §4.1.2.4) read to the DER rules:
///
///     Name ::= SEQUENCE OF RelativeDistinguishedName
///     RelativeDistinguishedName ::= SET SIZE (1..MAX) OF AttributeTypeAndValue
///     AttributeTypeAndValue ::= SEQUENCE { type OBJECT IDENTIFIER, value ANY }
///
/// Each SET's elements are in ascending order of their encodings, none twice (X.690 §11.6);
/// each value is of the type its attribute type needs (`ValueRule`), and the value of a type
/// without a rule is any well-formed DER. Certificates keep their Names as encoded bytes:
/// chaining compares those byte for byte, so reading one only refuses, it never normalises.
package struct X509Name: Sendable {
  /// One AttributeTypeAndValue.
  package struct Attribute: Sendable {
    /// The attribute type.
    package let type: DERObjectID
    /// The value's tag (identifier byte).
    package let valueTag: UInt8
    /// The value's content bytes.
    package let value: ArraySlice<UInt8>
  }

  /// The Name as encoded (tag, length and content).
  package let encoded: ArraySlice<UInt8>
  /// The relative distinguished names in order, each its attributes in encoding order.
  package let relativeNames: [[Attribute]]

  /// Whether the Name has no relative distinguished name (an empty SEQUENCE).
  package var isEmpty: Bool { relativeNames.isEmpty }

  /// Reads the Name `element`.
  /// - Throws: `DERError` for anything but a strict DER Name (not wrapped in `badName`).
  /// - Complexity: O(n) in the Name's size.
  package init(_ element: DERElement) throws(DERError) {
    guard element.tag == DERTag.sequence else {
      throw .unexpectedTag(expected: DERTag.sequence, found: element.tag)
    }
    var sequence = DERReader(contentOf: element)
    var relativeNames: [[Attribute]] = []
    while !sequence.isAtEnd {
      relativeNames.append(try X509Name.readRelativeName(&sequence))
    }
    encoded = element.encoded
    self.relativeNames = relativeNames
  }

  /// Reads a Name that is all of `der`.
  /// - Throws: `DERError` as `init(_:)` does, and `.trailingData` for bytes after it.
  /// - Complexity: O(n) in the Name's size.
  package init(der: [UInt8]) throws(DERError) {
    var reader = DERReader(der)
    let element = try reader.readAny()
    try reader.expectEnd()
    try self.init(element)
  }

  /// One RelativeDistinguishedName: a non-empty SET OF in ascending DER order.
  private static func readRelativeName(_ reader: inout DERReader) throws(DERError) -> [Attribute] {
    var set = try reader.readConstructed(DERTag.set)
    var attributes: [Attribute] = []
    var previous: ArraySlice<UInt8>?
    while !set.isAtEnd {
      let element = try set.read(DERTag.sequence)
      if let previous, !DERReader.isAscending(previous, element.encoded) { throw .unsortedSet }
      previous = element.encoded
      var sequence = DERReader(contentOf: element)
      let type = try sequence.readObjectIdentifier()
      let value = try sequence.readAny()
      try sequence.expectEnd()
      try X509Name.checkValue(value, of: type)
      attributes.append(Attribute(type: type, valueTag: value.tag, value: value.content))
    }
    guard !attributes.isEmpty else { throw .emptySet }
    return attributes
  }

  /// Refuses a value that is not of the type and size its attribute type's rule needs, or,
  /// for a type without a rule, not well-formed DER.
  private static func checkValue(_ value: DERElement, of type: DERObjectID) throws(DERError) {
    guard let rule = rule(for: type) else {
      try DERReader.checkWellFormed(value)
      return
    }
    guard let stringType = DERStringType(rawValue: value.tag), rule.types.contains(stringType)
    else { throw .badAttribute(type: type) }
    guard let count = stringType.characterCount(value.content) else {
      throw .badContent(tag: value.tag)
    }
    guard rule.characters.contains(count) else { throw .badAttribute(type: type) }
  }
}
