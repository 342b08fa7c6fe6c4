/// The attribute types of Names whose values this reader checks, with the types X.520, RFC 5280
/// (Appendix A.1), RFC 4519 and the CA/Browser Forum's EV guidelines give them.
extension X509Name {
  /// The string types and number of characters an attribute's value may have.
  package struct ValueRule: Sendable, Equatable {
    /// The string types allowed.
    package let types: [DERStringType]
    /// How many characters the value may have. Only the sizes that define a value's form are
    /// kept (a country is 2 letters, a DirectoryString not empty); RFC 5280's upper bounds
    /// (`ub-common-name` and the like) limit what a CA issues and are not checked.
    package let characters: ClosedRange<Int>

    /// X.520 DirectoryString: one of its five types, not empty.
    package static let directoryString = ValueRule(
      types: DERStringType.directoryString, characters: 1...Int.max)
    /// A country code (ISO 3166 alpha-2): a PrintableString of 2 characters.
    package static let country = ValueRule(types: [.printableString], characters: 2...2)
    /// A PrintableString, not empty.
    package static let printable = ValueRule(types: [.printableString], characters: 1...Int.max)
    /// An IA5String, not empty.
    package static let ia5 = ValueRule(types: [.ia5String], characters: 1...Int.max)
    /// A PrintableString, empty or not (the ASN.1 type has no size).
    package static let anyPrintable = ValueRule(
      types: [.printableString], characters: 0...Int.max)
    /// An IA5String, empty or not (the ASN.1 type has no size).
    package static let anyIA5 = ValueRule(types: [.ia5String], characters: 0...Int.max)

    /// The rule in words, for error messages ("a PrintableString of 2 characters").
    package var phrase: String {
      if types == DERStringType.directoryString {
        return "a non-empty DirectoryString (UTF8String, PrintableString, TeletexString, "
          + "UniversalString or BMPString)"
      }
      let names = types.map(\.name).joined(separator: " or ")
      // "an IA5String", but "a UTF8String".
      let article = names.first.map { "AEIO".contains($0) } == true ? "an" : "a"
      if characters.lowerBound == characters.upperBound {
        return "\(article) \(names) of \(characters.lowerBound) characters"
      }
      return characters.lowerBound == 0 ? "\(article) \(names)" : "a non-empty \(names)"
    }
  }

  /// The attribute types with a rule: dotted identifier, name, rule.
  private static let attributes: [(String, String, ValueRule)] = [
    ("2.5.4.3", "commonName", .directoryString),
    ("2.5.4.4", "surname", .directoryString),
    ("2.5.4.5", "serialNumber", .printable),
    ("2.5.4.6", "countryName", .country),
    ("2.5.4.7", "localityName", .directoryString),
    ("2.5.4.8", "stateOrProvinceName", .directoryString),
    ("2.5.4.9", "streetAddress", .directoryString),
    ("2.5.4.10", "organizationName", .directoryString),
    ("2.5.4.11", "organizationalUnitName", .directoryString),
    ("2.5.4.12", "title", .directoryString),
    ("2.5.4.13", "description", .directoryString),
    ("2.5.4.15", "businessCategory", .directoryString),
    ("2.5.4.17", "postalCode", .directoryString),
    ("2.5.4.41", "name", .directoryString),
    ("2.5.4.42", "givenName", .directoryString),
    ("2.5.4.43", "initials", .directoryString),
    ("2.5.4.44", "generationQualifier", .directoryString),
    ("2.5.4.46", "dnQualifier", .anyPrintable),
    ("2.5.4.65", "pseudonym", .directoryString),
    ("2.5.4.97", "organizationIdentifier", .directoryString),
    ("0.9.2342.19200300.100.1.1", "userId", .directoryString),
    ("0.9.2342.19200300.100.1.25", "domainComponent", .anyIA5),
    ("1.2.840.113549.1.9.1", "emailAddress", .ia5),
    ("1.3.6.1.4.1.311.60.2.1.1", "jurisdictionLocalityName", .directoryString),
    ("1.3.6.1.4.1.311.60.2.1.2", "jurisdictionStateOrProvinceName", .directoryString),
    ("1.3.6.1.4.1.311.60.2.1.3", "jurisdictionCountryName", .country),
  ]

  private static let rules: [DERObjectID: (name: String, rule: ValueRule)] = Dictionary(
    uniqueKeysWithValues: attributes.map { (DERObjectID($0.0), ($0.1, $0.2)) })

  /// The rule for the values of attribute type `type`; nil for a type without one, whose
  /// value may be any well-formed DER.
  package static func rule(for type: DERObjectID) -> ValueRule? { rules[type]?.rule }

  /// The attribute type's name and identifier ("countryName (2.5.4.6)"), or the identifier.
  package static func attributeName(_ type: DERObjectID) -> String {
    rules[type].map { "\($0.name) (\(type))" } ?? type.description
  }
}
