/// The four App Store product archetypes.
public enum ProductKind: String, Sendable, CaseIterable {
  case autoRenewable = "auto_renewable"
  case nonRenewing = "non_renewing"
  case nonConsumable = "non_consumable"
  case consumable
}

/// A product of the catalog and what buying it grants.
public struct Product: Sendable, Equatable {
  /// The product id, e.g. `pro.monthly`.
  public var id: String
  /// Its archetype.
  public var kind: ProductKind
  /// Entitlement ids it grants (empty for consumables).
  public var entitlements: [String]
  /// Subscription group (auto-renewables only).
  public var group: String?
  /// Service level within the group; 1 is the highest tier.
  public var level: Int?
  /// How long a non-renewing purchase lasts.
  public var duration: ISODuration?
  /// For a time-limited non-consumable unlock (a "$0 trial").
  public var expiresAfter: ISODuration?
  /// Currency credited by a consumable (default: the product id).
  public var currency: String
  /// Units credited per quantity by a consumable (default 1).
  public var units: Int64
  /// Whether Family Sharing may grant it.
  public var isFamilyShareable: Bool

  /// Creates a product.
  public init(
    id: String, kind: ProductKind, entitlements: [String] = [], group: String? = nil,
    level: Int? = nil, duration: ISODuration? = nil, expiresAfter: ISODuration? = nil,
    currency: String? = nil, units: Int64 = 1, isFamilyShareable: Bool = false
  ) {
    self.id = id
    self.kind = kind
    self.entitlements = entitlements
    self.group = group
    self.level = level
    self.duration = duration
    self.expiresAfter = expiresAfter
    self.currency = currency ?? id
    self.units = units
    self.isFamilyShareable = isFamilyShareable
  }
}
