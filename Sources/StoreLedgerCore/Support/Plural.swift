/// Counts in messages: `1 line`, `2 lines`, `0 lines`.
package enum Plural {
  /// The count and its noun, singular only for exactly one (`plural` defaults to the noun + "s").
  package static func counted(_ count: some BinaryInteger, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
  }
}
