import StoreLedger

extension LogGenerator {
  /// The v1 catalog (products only) that `--usage none` logs use: pretty JSON with sorted keys,
  /// ending in a newline.
  package static let catalogJSON: String = JSONWriter.pretty(.object([("products", productsJSON)])) + "\n"

  /// The catalog of logs with usage: the same products and a policy modelled on the seed apps
  /// (Docs/log-format.md, "Policy"), in the same form as `catalogJSON`.
  package static let policyCatalogJSON: String =
    JSONWriter.pretty(.object([("products", productsJSON), ("policy", GeneratedPolicy.json)])) + "\n"

  /// The catalog text a log generated with `usage` is written with.
  package static func catalogJSON(for usage: UsageLevel) -> String {
    usage == .none ? catalogJSON : policyCatalogJSON
  }

  private static var productsJSON: JSONValue {
    .object(GeneratedProduct.allCases.map { (String(describing: $0.id), $0.catalogEntry) })
  }

  /// `catalogJSON`, parsed.
  package static let catalog: Catalog = parse(catalogJSON)

  /// `policyCatalogJSON`, parsed.
  package static let policyCatalog: Catalog = parse(policyCatalogJSON)

  private static func parse(_ text: String) -> Catalog {
    do {
      return try Catalog.parse(text, file: "catalog.json")
    } catch {
      preconditionFailure("the generator's own catalog is invalid: \(error)")
    }
  }
}
