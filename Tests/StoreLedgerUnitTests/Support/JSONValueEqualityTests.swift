import Testing

@testable import StoreLedgerCore

/// `JSONValue`'s `==` decides whether an import's event is one the log holds ("the same event"),
/// so an integer and a number are equal only when the number is exactly that integer, and equal
/// values hash alike.
@Suite
struct JSONValueEqualityTests {
  @Test(
    "an integer equals a number only when the number is exactly it",
    arguments: [
      (JSONValue.integer(1), JSONValue.number(1.0), true),
      (.integer(2), .number(2.5), false),
      (.integer(-3), .number(-3.0), true),
      // 2^53 + 1 has no Double of its own: rounding would call it 2^53.
      (.integer(9_007_199_254_740_993), .number(9_007_199_254_740_992.0), false),
      (.integer(9_007_199_254_740_992), .number(9_007_199_254_740_992.0), true),
      (.integer(Int64.max), .number(9_223_372_036_854_775_807.0), false),
      (.object([("a", .integer(1)), ("b", .string("x"))]), .object([("b", .string("x")), ("a", .number(1.0))]), true),
    ])
  func integerAndNumber(_ left: JSONValue, _ right: JSONValue, equal: Bool) {
    #expect((left == right) == equal)
    #expect((right == left) == equal)
    if equal { #expect(left.hashValue == right.hashValue) }
  }
}
