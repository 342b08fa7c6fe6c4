import StoreLedgerCore

extension AppStoreMapper {
  /// Emits the events a transaction implies on its own: its `purchase` or `renewal`, and a
  /// `revocation` when `revocationDate` is set. Returns the charge's kind, nil on error.
  ///
  /// Everything here reads only the transaction, never the notification around it, so the
  /// same transaction gives the same events from every source.
  mutating func transactionEvents(_ transaction: TransactionPayload) -> EventKind? {
    let line = transaction.line
    let path = transaction.path
    func field(_ key: String) -> String { Self.field(path, key) }
    guard
      isEnvironmentAllowed(
        transaction.environment, line: line, field: field("environment"), isRequired: true)
    else { return nil }
    guard let index = catalog.index(of: transaction.productID) else {
      problems.error(
        line,
        "field '\(field("productId"))': unknown product '\(transaction.productID)' (not in the catalog); add it, or start a catalog with emitCatalog (--emit-catalog)"
      )
      return nil
    }
    let product = catalog[index]
    let errorsBefore = problems.errors.count
    var meta = baseMeta(environment: transaction.environment)
    checkProductType(transaction, product: product, meta: &meta)
    guard
      let subject = subject(
        token: transaction.appAccountToken,
        originalTransactionID: transaction.originalTransactionID,
        appTransactionID: transaction.appTransactionID, line: line)
    else { return nil }
    let kind = chargeKind(transaction, product: product, meta: &meta)
    let at = transaction.purchaseDate
    var event = NewEvent(
      id: EventID(rawValue: "appstore:\(transaction.transactionID):\(kind.name)"), kind: kind,
      subject: SubjectID(rawValue: subject), at: at)
    event.product = ProductID(rawValue: product.id)
    event.transaction = TransactionID(rawValue: transaction.transactionID)
    setKindFields(transaction, product: product, on: &event)
    if let ownership = ownership(transaction, product: product, meta: &meta), kind == .purchase {
      event.ownership = ownership
    }
    event.offer = offer(transaction, meta: &meta)
    setPrice(transaction, on: &event)
    meta += transaction.plan.meta
    event.setMeta(meta)
    event.store = "appstore"
    event.country = AppStoreStorefronts.country(transaction.storefront)
    guard problems.errors.count == errorsBefore else { return nil }
    claimOwner(transaction, product: product, subject: subject)
    if let appTransactionID = transaction.appTransactionID {
      appTransactionSubjects[appTransactionID, default: []].insert(subject)
    }
    emit(
      ImportedEvent(
        event, recorded: transaction.signedDate, line: line, identity: "charge:" + transaction.transactionID,
        rank: transaction.transactionReason == nil ? 1 : 0))
    if let revokedAt = transaction.revocationDate {
      revocationEvent(transaction, subject: subject, at: revokedAt)
    }
    return kind
  }

  /// Sets the fields a product's kind adds: a subscription's original transaction and period
  /// end, a consumable's quantity. Problems are reported, fields left out.
  private mutating func setKindFields(_ transaction: TransactionPayload, product: Product, on event: inout NewEvent) {
    let line = transaction.line
    let at = transaction.purchaseDate
    let expiresField = Self.field(transaction.path, "expiresDate")
    switch product.kind {
    case .autoRenewable, .nonRenewing:
      if product.kind == .autoRenewable {
        event.originalTransaction = TransactionID(rawValue: transaction.originalTransactionID)
      }
      // Apple sends no expiresDate for non-renewing subscriptions; the catalog's duration then
      // gives the end (Docs/log-format.md: default `at` + `duration`).
      if let expires = transaction.expiresDate {
        if expires > at {
          event.expires = expires
        } else {
          problems.error(
            line,
            "field '\(expiresField)': \(expires.rfc3339) is not later than purchaseDate \(at.rfc3339)"
          )
        }
      } else if product.kind == .autoRenewable {
        problems.error(
          line,
          "field '\(expiresField)' is missing; it is required for the auto-renewable product '\(product.id)'"
        )
      }
    case .nonConsumable:
      break
    case .consumable:
      let quantity = transaction.quantity ?? 1
      if quantity >= 1 && quantity <= Limits.amountMax {
        event.quantity = quantity
      } else {
        problems.error(
          line,
          "field '\(Self.field(transaction.path, "quantity"))': expected an integer ≥ 1, found \(quantity)")
      }
    }
  }

  /// The revocation a transaction's `revocationDate` implies.
  private mutating func revocationEvent(
    _ transaction: TransactionPayload, subject: String, at: Timestamp
  ) {
    var meta = baseMeta(environment: transaction.environment)
    if let reason = transaction.revocationReason {
      meta.append(("revocationReason", .integer(reason)))
    }
    if let type = transaction.revocationType {
      meta.append(("revocationType", .string(type)))
      if !["REFUND_FULL", "REFUND_PRORATED", "FAMILY_REVOKE"].contains(type) {
        problems.unknownValue(
          transaction.line, field: Self.field(transaction.path, "revocationType"),
          raw: .string(type), consequence: "reason taken from the ownership; kept raw in meta")
      }
    }
    if let percentage = transaction.revocationPercentage {
      meta.append(("revocationPercentage", .integer(percentage)))
    }
    let reason = revocationReason(transaction)
    let refunded = refundedAmount(transaction)
    emit(
      ImportedEvent(
        id: "appstore:\(transaction.transactionID):revocation", kind: .revocation,
        subject: subject, at: at, recorded: transaction.signedDate,
        meta: meta, line: transaction.line,
        identity: "appstore:\(transaction.transactionID):revocation"
      ) {
        $0.transaction = TransactionID(rawValue: transaction.transactionID)
        $0.reason = reason.name
        $0.refunded = refunded
      })
  }

  /// The amount a prorated refund gave back (`REFUND_PRORATED`: `revocationPercentage`
  /// milliunits of a percent of the price, 50000 = 50 %), rounded half up; nil for a full
  /// refund (the whole price, the contract's default) or a transaction without a price.
  func refundedAmount(_ transaction: TransactionPayload) -> Int64? {
    guard transaction.revocationType == "REFUND_PRORATED", let price = transaction.price,
      price >= 0, price <= Limits.amountMax, transaction.currency != nil,
      let percentage = transaction.revocationPercentage, percentage >= 0, percentage <= 100_000
    else { return nil }
    // In two parts: price × percentage overflows for prices near the limit.
    return price / 100_000 * percentage + (price % 100_000 * percentage + 50_000) / 100_000
  }

  /// Why a transaction was revoked: `revocationType` when Apple sent it; otherwise a family
  /// member's transaction was revoked from Family Sharing and a purchaser's was refunded.
  func revocationReason(_ transaction: TransactionPayload) -> RevocationReason {
    switch transaction.revocationType {
    case "FAMILY_REVOKE": return .familyRevoked
    case "REFUND_FULL", "REFUND_PRORATED": return .refund
    default: return transaction.ownership == "FAMILY_SHARED" ? .familyRevoked : .refund
    }
  }

  /// `purchase` or `renewal`: only auto-renewables renew, and `transactionReason` says which.
  ///
  /// Without `transactionReason` (payloads from before 2023), the first transaction of a
  /// subscription is its purchase and later ones are taken as renewals; a copy of the same
  /// transaction that states its reason wins over such a copy (`ImportedEvent.rank`), so the
  /// kind does not depend on which payload carried the transaction first.
  private mutating func chargeKind(
    _ transaction: TransactionPayload, product: Product, meta: inout [(String, JSONValue)]
  ) -> EventKind {
    guard product.kind == .autoRenewable else { return .purchase }
    switch transaction.transactionReason {
    case "PURCHASE": return .purchase
    case "RENEWAL": return .renewal
    case let other?:
      problems.unknownValue(
        transaction.line, field: Self.field(transaction.path, "transactionReason"),
        raw: .string(other), consequence: "kept raw in meta; decided by the transaction ids")
      meta.append(("transactionReason", .string(other)))
    case nil: break
    }
    return transaction.transactionID == transaction.originalTransactionID ? .purchase : .renewal
  }

  /// Reports a payload `type` that contradicts the catalog; keeps an unknown one in meta.
  private mutating func checkProductType(
    _ transaction: TransactionPayload, product: Product, meta: inout [(String, JSONValue)]
  ) {
    guard let raw = transaction.productType else { return }
    let field = Self.field(transaction.path, "type")
    guard let kind = AppStoreProductType.kind(raw) else {
      problems.unknownValue(
        transaction.line, field: field, raw: .string(raw),
        consequence: "the catalog's type \(product.kind.rawValue) is used; kept raw in meta")
      meta.append(("type", .string(raw)))
      return
    }
    if kind != product.kind {
      problems.error(
        transaction.line,
        "field '\(field)': the App Store says '\(product.id)' is \"\(raw)\" but the catalog has it as \(product.kind.rawValue)"
      )
    }
  }

  /// `ownership` from `inAppOwnershipType`; family sharing must be allowed by the catalog.
  private mutating func ownership(
    _ transaction: TransactionPayload, product: Product, meta: inout [(String, JSONValue)]
  ) -> Ownership? {
    let field = Self.field(transaction.path, "inAppOwnershipType")
    switch transaction.ownership {
    case nil: return nil
    case "PURCHASED": return .purchased
    case "FAMILY_SHARED":
      guard product.isFamilyShareable else {
        problems.error(
          transaction.line,
          "field '\(field)': FAMILY_SHARED, but the catalog does not mark '\(product.id)' family_shareable"
        )
        return nil
      }
      return .familyShared
    case let other?:
      problems.unknownValue(
        transaction.line, field: field, raw: .string(other),
        consequence: "ownership left out (purchased by default); kept raw in meta")
      meta.append(("inAppOwnershipType", .string(other)))
      return nil
    }
  }

  /// `offer` from `offerType` and `offerDiscountType`.
  ///
  /// An introductory offer is a `trial` when it is free (FREE_TRIAL, or, in payloads from
  /// before `offerDiscountType` existed, a price of 0) and `intro` otherwise.
  private mutating func offer(_ transaction: TransactionPayload, meta: inout [(String, JSONValue)])
    -> Offer?
  {
    let knownDiscounts: Set<String> = ["FREE_TRIAL", "PAY_AS_YOU_GO", "PAY_UP_FRONT", "ONE_TIME"]
    if let discount = transaction.offerDiscountType, !knownDiscounts.contains(discount) {
      problems.unknownValue(
        transaction.line, field: Self.field(transaction.path, "offerDiscountType"),
        raw: .string(discount), consequence: "kept raw in meta")
      meta.append(("offerDiscountType", .string(discount)))
    }
    guard let type = transaction.offerType else { return nil }
    switch type {
    case 1:
      switch transaction.offerDiscountType {
      case "FREE_TRIAL": return .trial
      case nil: return transaction.price == 0 ? .trial : .intro
      default: return .intro
      }
    case 2: return .promo
    case 3: return .code
    case 4: return .winBack
    default:
      problems.unknownValue(
        transaction.line, field: Self.field(transaction.path, "offerType"), raw: .integer(type),
        consequence: "offer left out (normal price); kept raw in meta")
      meta.append(("offerType", .integer(type)))
      return nil
    }
  }

  /// Sets `price` and `currency`: Apple's milliunits are the contract's thousandths, so the number
  /// is carried over unchanged. Both or neither (Docs/log-format.md).
  private mutating func setPrice(_ transaction: TransactionPayload, on event: inout NewEvent) {
    switch (transaction.price, transaction.currency) {
    case (nil, nil):
      return
    case (let price?, let currency?):
      guard price >= 0, price <= Limits.amountMax else {
        problems.error(
          transaction.line,
          "field '\(Self.field(transaction.path, "price"))': expected 0–\(Limits.amountMax) milliunits, found \(price)"
        )
        return
      }
      guard !currency.isEmpty, currency.utf8.count <= Limits.referenceBytesMax else {
        problems.error(
          transaction.line,
          "field '\(Self.field(transaction.path, "currency"))': expected a currency code such as USD"
        )
        return
      }
      event.price = price
      event.currency = currency
    default:
      problems.warning(
        transaction.line,
        "fields '\(Self.field(transaction.path, "price"))' and 'currency' come together; only one is present, so neither is imported"
      )
    }
  }
}
