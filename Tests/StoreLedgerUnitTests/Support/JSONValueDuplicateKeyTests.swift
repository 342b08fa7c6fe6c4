import Testing

@testable import StoreLedgerCore

/// `JSONValue.parse` refuses an object that names a key twice, whether the object is small (its
/// keys looked for one by one) or large (a set of its keys), and wherever the second one is.
@Suite
struct JSONValueDuplicateKeyTests {
  /// An object of `count` members `k0`…, with member `repeated`'s key given again last when set.
  static func object(_ count: Int, repeating repeated: Int?) -> String {
    var members = (0..<count).map { #""k\#($0)":\#($0)"# }
    if let repeated { members.append(#""k\#(repeated)":0"#) }
    return "{" + members.joined(separator: ",") + "}"
  }

  @Test("a key given twice is refused in small and large objects", arguments: [1, 2, 15, 16, 17, 40])
  func refused(count: Int) throws {
    for repeated in [0, count / 2, count - 1] {
      #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(Self.object(count, repeating: repeated)) }
    }
    let parsed = try JSONValue.parse(Self.object(count, repeating: nil))
    #expect(parsed.objectMembers?.count == count)
  }
}
