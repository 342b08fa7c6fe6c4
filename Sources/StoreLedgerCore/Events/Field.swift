/// The fields a log line may carry.
package enum Field: Int, Sendable, CaseIterable {
  case id
  case type
  case subject
  case at
  case recorded
  case meta
  case product
  case transaction
  case originalTransaction
  case expires
  case graceExpires
  case quantity
  case ownership
  case offer
  case price
  case currency
  case reason
  case autoRenew
  case feature
  // Contract v1.3 (section 11).
  case refunded
  case store
  case country
  case proceeds
  case respondBy
  // Contract v1.3 (section 10).
  case entitlements
  case grant
  case service
  // Contract v1.3 (section 9): recognised so a transfer is refused by its type, not by this key.
  case to

  /// The key in the log.
  package var name: String {
    switch self {
    case .id: return "id"
    case .type: return "type"
    case .subject: return "subject"
    case .at: return "at"
    case .recorded: return "recorded"
    case .meta: return "meta"
    case .product: return "product"
    case .transaction: return "transaction"
    case .originalTransaction: return "original_transaction"
    case .expires: return "expires"
    case .graceExpires: return "grace_expires"
    case .quantity: return "quantity"
    case .ownership: return "ownership"
    case .offer: return "offer"
    case .price: return "price"
    case .currency: return "currency"
    case .reason: return "reason"
    case .autoRenew: return "auto_renew"
    case .feature: return "feature"
    case .refunded: return "refunded"
    case .store: return "store"
    case .country: return "country"
    case .proceeds: return "proceeds"
    case .respondBy: return "respond_by"
    case .entitlements: return "entitlements"
    case .grant: return "grant"
    case .service: return "service"
    case .to: return "to"
    }
  }
}

/// A set of fields as a bit mask (no allocation on the hot path).
package struct FieldSet: OptionSet, Sendable {
  package let rawValue: UInt32
  package init(rawValue: UInt32) { self.rawValue = rawValue }
  @inline(__always) package init(_ field: Field) { rawValue = 1 << UInt32(field.rawValue) }

  package static let product = FieldSet(.product)
  package static let transaction = FieldSet(.transaction)
  package static let originalTransaction = FieldSet(.originalTransaction)
  package static let expires = FieldSet(.expires)
  package static let graceExpires = FieldSet(.graceExpires)
  package static let quantity = FieldSet(.quantity)
  package static let ownership = FieldSet(.ownership)
  package static let offer = FieldSet(.offer)
  package static let price = FieldSet(.price)
  package static let currency = FieldSet(.currency)
  package static let reason = FieldSet(.reason)
  package static let autoRenew = FieldSet(.autoRenew)
  package static let feature = FieldSet(.feature)
  package static let refunded = FieldSet(.refunded)
  package static let store = FieldSet(.store)
  package static let country = FieldSet(.country)
  package static let proceeds = FieldSet(.proceeds)
  package static let respondBy = FieldSet(.respondBy)
  package static let entitlements = FieldSet(.entitlements)
  package static let grant = FieldSet(.grant)
  package static let service = FieldSet(.service)
  package static let to = FieldSet(.to)

  @inline(__always) package func contains(_ field: Field) -> Bool { rawValue & (1 << UInt32(field.rawValue)) != 0 }
}
