/// The four App Store product archetypes.
package enum ProductKind: String, Sendable, CaseIterable {
  case autoRenewable = "auto_renewable"
  case nonRenewing = "non_renewing"
  case nonConsumable = "non_consumable"
  case consumable
}

/// A product of the catalog and what buying it grants.
package struct Product: Sendable, Equatable {
  /// The product id, e.g. `pro.monthly`.
  package var id: String
  /// Its archetype.
  package var kind: ProductKind
  /// Entitlement ids it grants (empty for consumables).
  package var entitlements: [String]
  /// Subscription group (auto-renewables only).
  package var group: String?
  /// Service level within the group; 1 is the highest tier.
  package var level: Int?
  /// How long a non-renewing purchase lasts.
  package var duration: ISODuration?
  /// For a time-limited non-consumable unlock (a "$0 trial").
  package var expiresAfter: ISODuration?
  /// Currency credited by a consumable (default: the product id).
  package var currency: String
  /// Units credited per quantity by a consumable (default 1).
  package var units: Int64
  /// Whether Family Sharing may grant it.
  package var isFamilyShareable: Bool
  /// An auto-renewable's nominal billing period (`period`, contract v1.3); reports use it, answers never do.
  package var period: NominalPeriod? = nil

  /// Creates a product.
  package init(
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
