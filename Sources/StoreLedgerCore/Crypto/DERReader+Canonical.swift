/// DER's canonical-form rules beyond one element's framing: the order of a SET OF, and the
/// well-formedness of a value whose type the reader is not told (a Name attribute it has no
/// rule for).
extension DERReader {
  /// How deep `checkWellFormed` follows constructed values: attribute values are flat or
  /// nearly so, and the limit keeps hostile nesting off the stack.
  static let wellFormedDepthMax = 16

  /// Whether encoding `first` comes strictly before `second` in a DER SET OF (X.690 §11.6:
  /// compared as octet strings, the shorter padded with trailing zero octets). Equal
  /// encodings are not ascending: an element twice is refused with the unsorted ones.
  /// - Complexity: O(n) in the shorter encoding's size.
  static func isAscending(_ first: ArraySlice<UInt8>, _ second: ArraySlice<UInt8>) -> Bool {
    for (a, b) in zip(first, second) where a != b { return a < b }
    // Equal as far as the shorter goes: the longer is greater unless the rest is zero padding.
    return second.dropFirst(first.count).contains { $0 != 0 }
  }

  /// Refuses `element` unless it is well-formed DER all the way down: every universal type in
  /// the form DER gives it (X.690 §8, §10.2), constructed contents made of whole elements,
  /// and BOOLEAN, INTEGER, BIT STRING, NULL, OBJECT IDENTIFIER and the Name string types
  /// holding what their type allows. Other primitive contents are taken as bytes.
  /// - Complexity: O(n) in the element's size.
  static func checkWellFormed(_ element: DERElement, depth: Int = 0) throws(DERError) {
    let isConstructed = element.tag & 0x20 != 0
    if element.tag & 0xc0 == 0 {
      // Universal class: EXTERNAL, EMBEDDED PDV, SEQUENCE, SET and CHARACTER STRING are
      // constructed, everything else primitive; 0 is end-of-contents, never a value.
      let number = element.tag & 0x1f
      guard number != 0, isConstructed == [8, 11, 16, 17, 29].contains(number) else {
        throw .badForm(tag: element.tag)
      }
    }
    guard isConstructed else { return try checkPrimitive(element) }
    guard depth < wellFormedDepthMax else {
      throw .unsupported("DER values nested more than \(wellFormedDepthMax) deep")
    }
    var content = DERReader(contentOf: element)
    while !content.isAtEnd {
      try checkWellFormed(try content.readAny(), depth: depth + 1)
    }
  }

  /// The content rules of the primitive universal types this reader knows.
  private static func checkPrimitive(_ element: DERElement) throws(DERError) {
    var reader = DERReader(slice: element.encoded)
    switch element.tag {
    case DERTag.boolean: _ = try reader.readBoolean()
    case DERTag.integer: _ = try reader.readInteger()
    case DERTag.bitString: _ = try reader.readBitString()
    case DERTag.objectIdentifier: _ = try reader.readObjectIdentifier()
    case DERTag.null:
      guard element.content.isEmpty else { throw .badContent(tag: element.tag) }
    default:
      if let type = DERStringType(rawValue: element.tag),
        type.characterCount(element.content) == nil
      {
        throw .badContent(tag: element.tag)
      }
    }
  }
}
