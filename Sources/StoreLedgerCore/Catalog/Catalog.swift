/// A dense index of a product in its catalog.
package struct ProductIndex: Hashable, Comparable, Sendable {
  /// The position in `Catalog.products`.
  package var rawValue: UInt32
  /// Wraps a position.
  @inlinable package init(rawValue: UInt32) { self.rawValue = rawValue }
  /// The marker for "no product" in compact records.
  package static let none = ProductIndex(rawValue: UInt32.max)
  /// Whether this names a product.
  @inlinable package var isSome: Bool { rawValue != UInt32.max }
  @inlinable package static func < (a: ProductIndex, b: ProductIndex) -> Bool {
    a.rawValue < b.rawValue
  }
}

/// The product catalog: which products exist and what they grant.
///
/// Products are sorted by id so that indices, and everything printed from them,
/// are deterministic.
///
/// A value type over one immutable, shared storage object: copying a catalog (each
/// parser and fold holds one) costs a single reference count, not one per array.
package struct Catalog: Sendable {
  private final class Storage: Sendable {
    let products: [Product]
    let entitlementIndices: [[Int]]
    let entitlementNames: [String]
    let groupNames: [String]
    let groupIndices: [Int]
    let kinds: [ProductKind]
    let units: [Int64]
    let grantDurations: [ISODuration?]
    let names: SymbolTable
    let policy: Policy?
    let refundPreference: RefundPreferencePolicy
    let storeFees: StoreFees?
    let consumableCurrencies: [[UInt8]]

    init(products: [Product], policy: Policy?, refundPreference: RefundPreferencePolicy, storeFees: StoreFees?) {
      self.policy = policy
      self.refundPreference = refundPreference
      self.storeFees = storeFees
      let sorted = products.sorted { $0.id < $1.id }
      self.products = sorted
      var names = SymbolTable(capacity: max(16, sorted.count))
      for product in sorted { _ = names.intern(product.id) }
      self.names = names
      let entitlementNames = Array(Set(sorted.flatMap(\.entitlements))).sorted()
      self.entitlementNames = entitlementNames
      entitlementIndices = sorted.map { product in
        product.entitlements.map { name in entitlementNames.firstIndex(of: name)! }.sorted()
      }
      let groupNames = Array(Set(sorted.compactMap(\.group))).sorted()
      self.groupNames = groupNames
      groupIndices = sorted.map { product in product.group.map { groupNames.firstIndex(of: $0)! } ?? -1 }
      kinds = sorted.map(\.kind)
      units = sorted.map(\.units)
      grantDurations = sorted.map {
        $0.kind == .nonRenewing ? $0.duration : $0.kind == .nonConsumable ? $0.expiresAfter : nil
      }
      consumableCurrencies = Array(Set(sorted.filter { $0.kind == .consumable }.map(\.currency))).sorted().map { Array($0.utf8) }
    }
  }

  private let storage: Storage

  /// The currencies the catalog's consumables grant, sorted: the only ones a balance can hold.
  package var currencies: [String] { storage.consumableCurrencies.map { String(decoding: $0, as: UTF8.self) } }

  /// Whether a consumable of the catalog grants this currency.
  /// - Complexity: O(currencies), a handful.
  package func grantsCurrency(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    storage.consumableCurrencies.contains { $0.elementsEqual(bytes) }
  }

  /// All products, sorted by id.
  package var products: [Product] { storage.products }
  /// Entitlement ids per product, as indices into `entitlementNames`.
  package var entitlementIndices: [[Int]] { storage.entitlementIndices }
  /// All entitlement ids, sorted.
  package var entitlementNames: [String] { storage.entitlementNames }
  /// All subscription group ids, sorted.
  package var groupNames: [String] { storage.groupNames }
  /// The group index of each product (-1 when not auto-renewable).
  package var groupIndices: [Int] { storage.groupIndices }
  /// The kind of each product, flat so hot paths need not copy a `Product`.
  package var kinds: [ProductKind] { storage.kinds }
  /// Units credited per quantity by each product (consumables; 1 otherwise).
  package var units: [Int64] { storage.units }
  /// The grant length of each product: `duration` (non-renewing), `expires_after` (non-consumable), or nil.
  package var grantDurations: [ISODuration?] { storage.grantDurations }

  /// The usage policy (tiers, metered features, usage-based trial), if the catalog has one.
  package var policy: Policy? { storage.policy }

  /// What `storeledger evidence` prefers the stores do with a refund request: the catalog's
  /// `refund_preference`, or the default (Docs/evidence.md).
  package var refundPreference: RefundPreferencePolicy { storage.refundPreference }

  /// The stores' fee rates the catalog declares (`store_fees`), for estimated proceeds; nil: none.
  package var storeFees: StoreFees? { storage.storeFees }

  /// Creates a catalog from products and an optional policy (validated by the caller or `Catalog.parse`).
  package init(
    products: [Product], policy: Policy? = nil, refundPreference: RefundPreferencePolicy = .standard, storeFees: StoreFees? = nil
  ) {
    storage = Storage(products: products, policy: policy, refundPreference: refundPreference, storeFees: storeFees)
  }

  /// The kind of the product at an index.
  package func kind(_ index: ProductIndex) -> ProductKind { storage.kinds[Int(index.rawValue)] }

  /// The product at an index.
  package subscript(index: ProductIndex) -> Product { storage.products[Int(index.rawValue)] }

  /// The index of the product named by `bytes`, if it is in the catalog.
  /// - Complexity: O(`bytes.count`) expected.
  package func index(of bytes: UnsafeBufferPointer<UInt8>) -> ProductIndex? {
    storage.names.lookup(bytes).map { ProductIndex(rawValue: $0.rawValue) }
  }

  /// The index of the product named `id`, if it is in the catalog.
  package func index(of id: String) -> ProductIndex? {
    var id = id
    return id.withUTF8 { index(of: $0) }
  }
}
