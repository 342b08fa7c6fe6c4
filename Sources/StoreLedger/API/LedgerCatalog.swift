import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage

/// The products (and usage policy) a ledger checks events against: read from a file, from
/// JSON text, or built in code. Every form goes through the same parser and rules
/// (Docs/log-format.md, "Catalog").
public struct LedgerCatalog: Sendable {
  let catalog: Catalog
  /// Where it came from: a path, or `<catalog>` for one built in code.
  package let source: String

  /// Reads a catalog file.
  /// - Throws: every problem found, naming the file.
  public init(contentsOfFile path: String) throws(DiagnosticList) {
    catalog = try LedgerLoader.loadCatalog(path: path)
    source = path
  }

  /// Parses catalog JSON text (`{"products": {...}, "policy": {...}}`).
  /// - Throws: every problem found, named as `<catalog>`.
  public init(json text: String) throws(DiagnosticList) {
    catalog = try Catalog.parse(text, file: "<catalog>")
    source = "<catalog>"
  }

  /// A catalog of `products`, with a usage `policy` given as the JSON of the catalog's
  /// `policy` member (Docs/semantics.md, usage and policy), if any.
  /// - Throws: every problem found (a product twice, a bad duration, a bad policy).
  public init(products: [Product], policyJSON: String? = nil) throws(DiagnosticList) {
    var ids = Set<ProductID>()
    for product in products where !ids.insert(product.id).inserted {
      throw DiagnosticList([Diagnostic(file: "<catalog>", .badCatalog("product '\(product.id.rawValue)' is given twice"))])
    }
    var text = #"{"products": "# + JSONWriter.compact(.object(products.map { ($0.id.rawValue, $0.json) }))
    if let policyJSON { text += #", "policy": "# + policyJSON }
    try self.init(json: text + "}")
  }

  /// One product of a catalog built in code.
  public struct Product: Sendable {
    /// The product id events name.
    package let id: ProductID
    let json: JSONValue

    /// An auto-renewable subscription in `group`, at `level` (1 is the highest), granting `entitlements`.
    public static func autoRenewable(
      _ id: ProductID, group: String, level: Int, entitlements: [String], familyShareable: Bool = false
    ) -> Product {
      Product(
        id: id,
        json: .object([
          ("type", .string("auto_renewable")), ("group", .string(group)), ("level", .integer(Int64(level))),
          ("entitlements", .array(entitlements.map { .string($0) })), ("family_shareable", .bool(familyShareable)),
        ]))
    }

    /// A non-renewing subscription granting `entitlements` for `duration` (ISO 8601, `P1M`).
    public static func nonRenewing(
      _ id: ProductID, entitlements: [String], duration: String, familyShareable: Bool = false
    ) -> Product {
      Product(
        id: id,
        json: .object([
          ("type", .string("non_renewing")), ("entitlements", .array(entitlements.map { .string($0) })),
          ("duration", .string(duration)), ("family_shareable", .bool(familyShareable)),
        ]))
    }

    /// A one-time purchase granting `entitlements` for ever, or for `expiresAfter` (ISO 8601).
    public static func nonConsumable(
      _ id: ProductID, entitlements: [String], expiresAfter: String? = nil, familyShareable: Bool = false
    ) -> Product {
      var members: [(String, JSONValue)] = [
        ("type", .string("non_consumable")), ("entitlements", .array(entitlements.map { .string($0) })),
        ("family_shareable", .bool(familyShareable)),
      ]
      if let expiresAfter { members.append(("expires_after", .string(expiresAfter))) }
      return Product(id: id, json: .object(members))
    }

    /// A consumable adding `units` of `currency` to the balance.
    public static func consumable(_ id: ProductID, currency: String, units: Int64) -> Product {
      Product(
        id: id, json: .object([("type", .string("consumable")), ("currency", .string(currency)), ("units", .integer(units))]))
    }
  }
}
