/// An event to append: the typed form of one log line (Docs/log-format.md lists which
/// fields each type requires; the ledger checks them exactly as it checks a line).
///
/// Build one with the constructor of its type (`NewEvent.purchase(...)`), which takes exactly
/// the fields the type requires and allows; `recorded` and `meta` may be set on the result.
/// `Codable` as the log's line (snake_case names). The other fields are read by the package only,
/// so their storage can change without changing the API.
public struct NewEvent: Hashable, Sendable, Codable {
  /// Unique id; appending an equal event with the same id again is a no-op.
  public var id: EventID
  /// The event type.
  public var kind: EventKind
  /// The subject whose access changes.
  public var subject: SubjectID
  /// Effective time: when it happened in the world.
  public var at: Timestamp
  /// Knowledge time; nil stamps the time of the append.
  public var recorded: Timestamp?
  /// The product bought, renewed or changed to.
  package var product: ProductID?
  /// The transaction charged, revoked or reinstated.
  package var transaction: TransactionID?
  /// The subscription's first transaction.
  package var originalTransaction: TransactionID?
  /// End of the period bought or extended to.
  package var expires: Timestamp?
  /// End of a grace period (`grace_entered`).
  package var graceExpires: Timestamp?
  /// Units bought (consumables) or consumed.
  package var quantity: Int64?
  /// Bought by the subject or shared by its family.
  package var ownership: Ownership?
  /// The offer of the transaction.
  package var offer: Offer?
  /// Price in thousandths of `currency`'s unit (4990 is 4.99).
  package var price: Int64?
  /// The price currency, or the consumable currency consumed.
  package var currency: String?
  /// `expiration` or `revocation` reason, as named in the log (`voluntary`, `refund`, ...).
  package var reason: String?
  /// The new auto-renew setting (`auto_renew_changed`).
  package var autoRenew: Bool?
  /// The metered feature used (`usage`).
  package var feature: String?
  /// What a `revocation` refunded, in thousandths of the charge's currency (contract v1.3).
  package var refunded: Int64?
  /// Who charged a `purchase` or `renewal`: `appstore`, `googleplay` or another name (contract v1.3).
  package var store: String?
  /// The storefront's ISO 3166-1 alpha-2 code of a charge (contract v1.3).
  package var country: String?
  /// What the store pays the developer for a charge, in thousandths of its currency (contract v1.3).
  package var proceeds: Int64?
  /// A `refund_requested`'s deadline from the store (contract v1.3).
  package var respondBy: Timestamp?
  /// The entitlement ids a `grant` gives or a `block` denies (contract v1.3).
  package var entitlements: [String]?
  /// The `grant` event a `grant_revoked` ends (contract v1.3).
  package var grant: EventID?
  /// The service of a `block` or `unblock`, such as `fraud` (contract v1.3).
  package var service: String?
  /// The subject a `transfer` moves its unit to (contract v1.3, section 9).
  package var to: SubjectID?
  /// `meta` as the log holds it: any JSON values (importers write numbers and booleans too), so
  /// a line read and written again keeps them (Docs/decisions.md, "One typed event for the importers").
  package var metaValues: [String: JSONValue] = [:]

  /// Anything else to keep with the event (store ids, environment); answers ignore it.
  /// The log allows any JSON values; this view shows strings (others as their JSON text) and
  /// setting it stores strings.
  public var meta: [String: String] {
    get { metaValues.mapValues { $0.stringValue ?? JSONWriter.compact($0) } }
    set { metaValues = newValue.mapValues { .string($0) } }
  }

  /// An event with the fields every type has; the package sets the others as its type requires
  /// (users build events with the per-type constructors, which ask for exactly those fields).
  package init(id: EventID, kind: EventKind, subject: SubjectID, at: Timestamp) {
    self.id = id
    self.kind = kind
    self.subject = subject
    self.at = at
  }

  /// The event as one JSON log line (compact, keys sorted), without the newline: the one
  /// encoder of a typed event, for the library's appends and the importers' lines alike.
  /// - Complexity: O(size of the line).
  package func appendLine(to out: inout [UInt8]) {
    JSONWriter.write(jsonValue, into: &out, indent: nil, level: 0)
  }

  /// The event as one JSON log line (compact, keys sorted), without the newline.
  /// - Complexity: O(size of the line).
  package var logLine: String { JSONWriter.compact(jsonValue) }

  /// The same event without `recorded`: what two copies of one fact must share
  /// (Docs/log-format.md, "Redeliveries").
  package var withoutRecorded: NewEvent {
    var copy = self
    copy.recorded = nil
    return copy
  }

  /// The log line's object: the fields set, in the log's names.
  /// - Complexity: O(number of fields and meta members).
  package var jsonValue: JSONValue {
    var members: [(String, JSONValue)] = [
      ("id", .string(id.rawValue)), ("type", .string(kind.name)), ("subject", .string(subject.rawValue)),
      ("at", .string(at.rfc3339)),
    ]
    func add(_ key: String, _ value: JSONValue?) { if let value { members.append((key, value)) } }
    add("recorded", recorded.map { .string($0.rfc3339) })
    add("product", product.map { .string($0.rawValue) })
    add("transaction", transaction.map { .string($0.rawValue) })
    add("original_transaction", originalTransaction.map { .string($0.rawValue) })
    add("expires", expires.map { .string($0.rfc3339) })
    add("grace_expires", graceExpires.map { .string($0.rfc3339) })
    add("quantity", quantity.map { .integer($0) })
    add("ownership", ownership.map { .string($0.name) })
    add("offer", offer.map { .string($0.name) })
    add("price", price.map { .integer($0) })
    add("currency", currency.map { .string($0) })
    add("reason", reason.map { .string($0) })
    add("auto_renew", autoRenew.map { .bool($0) })
    add("feature", feature.map { .string($0) })
    add("refunded", refunded.map { .integer($0) })
    add("store", store.map { .string($0) })
    add("country", country.map { .string($0) })
    add("proceeds", proceeds.map { .integer($0) })
    add("respond_by", respondBy.map { .string($0.rfc3339) })
    add("entitlements", entitlements.map { .array($0.map { .string($0) }) })
    add("grant", grant.map { .string($0.rawValue) })
    add("service", service.map { .string($0) })
    add("to", to.map { .string($0.rawValue) })
    if !metaValues.isEmpty { add("meta", .object(metaValues.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })) }
    return .object(members)
  }

  /// The log line's field names (Docs/log-format.md), built once.
  static let fieldNames: Set<String> = [
    "id", "type", "subject", "at", "recorded", "product", "transaction", "original_transaction", "expires",
    "grace_expires", "quantity", "ownership", "offer", "price", "currency", "reason", "auto_renew", "feature", "meta",
    "refunded", "store", "country", "proceeds", "respond_by", "entitlements", "grant", "service", "to",
  ]

  /// Encodes the log line's object.
  public func encode(to encoder: any Encoder) throws { try jsonValue.encode(to: encoder) }

  /// Decodes a log line's object (unknown fields are refused; the ledger checks the rest when appending).
  public init(from decoder: any Decoder) throws {
    try self.init(json: try JSONValue(from: decoder), codingPath: decoder.codingPath)
  }

  /// Reads a log line's object, the one reader of a typed event: the inverse of `jsonValue`
  /// (unknown fields are refused, values are checked for their JSON type only).
  /// - Complexity: O(size of the object).
  package init(json value: JSONValue, codingPath: [any CodingKey] = []) throws {
    let json = try JSONObjectReader(value, codingPath: codingPath)
    // Sorted only when one is unknown, so the error names the first (the importers' knowledge
    // reads every imported line of a log through here).
    if json.members.keys.contains(where: { !Self.fieldNames.contains($0) }),
      let unknown = json.members.keys.sorted().first(where: { !Self.fieldNames.contains($0) })
    {
      throw json.fail(unknown, "no such field (Docs/log-format.md)")
    }
    self.init(
      id: EventID(rawValue: try json.string("id")), kind: try json.rawName("type"),
      subject: SubjectID(rawValue: try json.string("subject")), at: try json.time("at"))
    recorded = try json.optionalTime("recorded")
    product = try json.optionalString("product").map { ProductID(rawValue: $0) }
    transaction = try json.optionalString("transaction").map { TransactionID(rawValue: $0) }
    originalTransaction = try json.optionalString("original_transaction").map { TransactionID(rawValue: $0) }
    expires = try json.optionalTime("expires")
    graceExpires = try json.optionalTime("grace_expires")
    quantity = try json.optionalInteger("quantity")
    ownership = try json.optional("ownership") == nil ? nil : json.rawName("ownership") as Ownership
    offer = try json.optional("offer") == nil ? nil : json.rawName("offer") as Offer
    price = try json.optionalInteger("price")
    currency = try json.optionalString("currency")
    reason = try json.optionalString("reason")
    if json.optional("auto_renew") != nil { autoRenew = try json.bool("auto_renew") }
    feature = try json.optionalString("feature")
    refunded = try json.optionalInteger("refunded")
    store = try json.optionalString("store")
    country = try json.optionalString("country")
    proceeds = try json.optionalInteger("proceeds")
    respondBy = try json.optionalTime("respond_by")
    if let list = json.optional("entitlements") {
      guard case .array(let items) = list, items.allSatisfy({ $0.stringValue != nil }) else {
        throw json.fail("entitlements", "a list of entitlement ids")
      }
      entitlements = items.compactMap(\.stringValue)
    }
    grant = try json.optionalString("grant").map { EventID(rawValue: $0) }
    service = try json.optionalString("service")
    to = try json.optionalString("to").map { SubjectID(rawValue: $0) }
    if json.optional("meta") != nil {
      metaValues = try json.object("meta").members
    }
  }
}
