extension Catalog {
  /// The product ids nearest to an unknown `id`, for "did you mean".
  /// - Complexity: O(products · m²).
  package func suggestions(for id: String) -> [String] {
    NearMatch.suggestions(for: id, among: products.lazy.map(\.id))
  }
}
