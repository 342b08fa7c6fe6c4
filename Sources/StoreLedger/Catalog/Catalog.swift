/// A dense index of a product in its catalog.
public struct ProductIndex: Hashable, Comparable, Sendable {
  /// The position in `Catalog.products`.
  public var rawValue: UInt32
  /// Wraps a position.
  @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }
  /// The marker for "no product" in compact records.
  public static let none = ProductIndex(rawValue: UInt32.max)
  /// Whether this names a product.
  @inlinable public var isSome: Bool { rawValue != UInt32.max }
  @inlinable public static func < (a: ProductIndex, b: ProductIndex) -> Bool {
    a.rawValue < b.rawValue
  }
}

/// The product catalog: which products exist and what they grant.
///
/// Products are sorted by id so that indices, and everything printed from them,
/// are deterministic.
public struct Catalog: Sendable {
  /// All products, sorted by id.
  public let products: [Product]
  /// Entitlement ids per product, as indices into `entitlementNames`.
  public let entitlementIndices: [[Int]]
  /// All entitlement ids, sorted.
  public let entitlementNames: [String]
  /// All subscription group ids, sorted.
  public let groupNames: [String]
  /// The group index of each product (-1 when not auto-renewable).
  public let groupIndices: [Int]
  /// The kind of each product, flat so hot paths need not copy a `Product`.
  public let kinds: [ProductKind]
  /// Units credited per quantity by each product (consumables; 1 otherwise).
  public let units: [Int64]
  /// The grant length of each product: `duration` (non-renewing), `expires_after` (non-consumable), or nil.
  public let grantDurations: [ISODuration?]
  private let names: SymbolTable

  /// Creates a catalog from products (validated by the caller or `Catalog.parse`).
  public init(products: [Product]) {
    let sorted = products.sorted { $0.id < $1.id }
    self.products = sorted
    var names = SymbolTable(capacity: max(16, sorted.count))
    for product in sorted { _ = names.intern(product.id) }
    self.names = names
    let entitlementNames = Array(Set(sorted.flatMap(\.entitlements))).sorted()
    self.entitlementNames = entitlementNames
    self.entitlementIndices = sorted.map { product in
      product.entitlements.map { name in entitlementNames.firstIndex(of: name)! }.sorted()
    }
    let groupNames = Array(Set(sorted.compactMap(\.group))).sorted()
    self.groupNames = groupNames
    self.groupIndices = sorted.map { product in
      product.group.map { groupNames.firstIndex(of: $0)! } ?? -1
    }
    kinds = sorted.map(\.kind)
    units = sorted.map(\.units)
    grantDurations = sorted.map { $0.kind == .nonRenewing ? $0.duration : $0.kind == .nonConsumable ? $0.expiresAfter : nil }
  }

  /// The kind of the product at an index.
  @inlinable
  public func kind(_ index: ProductIndex) -> ProductKind { kinds[Int(index.rawValue)] }

  /// The product at an index.
  @inlinable
  public subscript(index: ProductIndex) -> Product { products[Int(index.rawValue)] }

  /// The index of the product named by `bytes`, if it is in the catalog.
  /// - Complexity: O(`bytes.count`) expected.
  public func index(of bytes: UnsafeBufferPointer<UInt8>) -> ProductIndex? {
    names.lookup(bytes).map { ProductIndex(rawValue: $0.rawValue) }
  }

  /// The index of the product named `id`, if it is in the catalog.
  public func index(of id: String) -> ProductIndex? {
    var id = id
    return id.withUTF8 { index(of: $0) }
  }
}
