extension LogGenerator {
  /// The catalog every generated log uses: pretty JSON with sorted keys, ending in a newline.
  public static let catalogJSON: String =
    JSONWriter.pretty(
      .object([
        (
          "products",
          .object(GeneratedProduct.allCases.map { (String(describing: $0.id), $0.catalogEntry) })
        )
      ])) + "\n"

  /// `catalogJSON`, parsed.
  public static let catalog: Catalog = {
    do {
      return try Catalog.parse(catalogJSON, file: "catalog.json")
    } catch {
      preconditionFailure("the generator's own catalog is invalid: \(error)")
    }
  }()
}
