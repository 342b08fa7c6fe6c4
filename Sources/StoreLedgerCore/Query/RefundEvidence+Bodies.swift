extension RefundEvidence {
  /// The App Store's Send Consumption Information (V2) request body, `ConsumptionRequest`:
  /// `customerConsented` only when the customer consented (Apple refuses any other value);
  /// `consumptionPercentage` except for auto-renewables (Apple computes theirs and refuses the
  /// field); `deliveryStatus` `DELIVERED` (the ledger holds the charge); `refundPreference`
  /// when there is one; `sampleContentProvided`.
  package var appStoreBody: JSONValue {
    var members: [(String, JSONValue)] = [
      ("deliveryStatus", .string("DELIVERED")),
      ("sampleContentProvided", .bool(sample != nil)),
    ]
    if customerConsented { members.append(("customerConsented", .bool(true))) }
    if purchase.kind != .autoRenewable, let consumedMilliunits {
      members.append(("consumptionPercentage", .integer(consumedMilliunits)))
    }
    if let preference = preference.appStore { members.append(("refundPreference", .string(preference))) }
    return .object(members)
  }

  /// Google Play's `orders.reviewrefund` request body: the kept `pendingRefundToken`,
  /// `sampleContentProvided`, `refundPreference`, `consumptionPercentageMilliunits` when
  /// measured, and one `consumptionUsageEvents` entry per use the purchase paid for, newest
  /// first, at most 1,000.
  package var googlePlayBody: JSONValue {
    var members: [(String, JSONValue)] = [
      ("sampleContentProvided", .bool(sample != nil)),
      ("refundPreference", .string(preference.googlePlay)),
    ]
    if let pendingRefundToken { members.append(("pendingRefundToken", .string(pendingRefundToken))) }
    if let consumedMilliunits { members.append(("consumptionPercentageMilliunits", .integer(consumedMilliunits))) }
    if !uses.isEmpty {
      let events = uses.map { use in
        JSONValue.object([("consumptionTime", .string(use.at.rfc3339)), ("consumptionItemDescription", .string(use.description))])
      }
      members.append(("consumptionUsageEvents", .array(events)))
    }
    return .object(members)
  }

  /// Everything `evidence --format json` prints: the request, the purchase, the facts, both
  /// bodies and what the developer must still do (`notes`).
  package var json: JSONValue {
    .object([
      ("request", requestJSON),
      ("purchase", purchaseJSON),
      ("facts", factsJSON),
      ("appstore", appStoreBody),
      ("googleplay", googlePlayBody),
      ("notes", .array(notes.map { .string($0) })),
      ("sent", .bool(false)),
    ])
  }

  private var requestJSON: JSONValue {
    .object([
      ("id", .string(request.id)), ("line", .integer(Int64(request.line))), ("subject", .string(request.subject)),
      ("transaction", .string(request.transaction)), ("at", .string(request.at.rfc3339)),
      ("recorded", .string(request.recorded.rfc3339)),
      ("respond_by", request.respondBy.map { .string($0.rfc3339) } ?? .null),
      ("reason", request.reason.map { .string($0) } ?? .null),
    ])
  }

  private var purchaseJSON: JSONValue {
    .object([
      ("product", .string(purchase.product)), ("type", .string(purchase.kind.rawValue)),
      ("line", .integer(Int64(purchase.line))), ("at", .string(purchase.at.rfc3339)),
      ("price", purchase.price.map { .integer($0) } ?? .null), ("currency", purchase.currency.map { .string($0) } ?? .null),
      ("offer", .string(purchase.offer.name)), ("revoked", .bool(purchase.revoked)),
    ])
  }

  private var factsJSON: JSONValue {
    let consumptionJSON: JSONValue
    switch consumption {
    case .credits(let currency, let credited, let spent):
      consumptionJSON = .object([
        ("basis", .string("credits")), ("currency", .string(currency)), ("credited", .integer(credited)), ("spent", .integer(spent)),
      ])
    case .period(let start, let end, let elapsedMs):
      consumptionJSON = .object([
        ("basis", .string("period")), ("start", .string(start.rfc3339)), ("end", .string(end.rfc3339)),
        ("elapsed_ms", .integer(elapsedMs)),
      ])
    case .unmeasured: consumptionJSON = .object([("basis", .string("unmeasured"))])
    }
    func amounts(_ sums: [String: Int64]) -> JSONValue { .object(sums.sorted { $0.key < $1.key }.map { ($0.key, .integer($0.value)) }) }
    return .object([
      ("consumption", consumptionJSON),
      ("consumed_milliunits", consumedMilliunits.map { .integer($0) } ?? .null),
      ("delivered", .bool(true)),
      ("sample", sample.map { .string($0) } ?? .null),
      ("first_seen", .string(history.firstSeen.rfc3339)), ("tenure_days", .integer(tenureDays)),
      ("purchases", .integer(Int64(history.purchases))), ("purchased", amounts(history.purchased)),
      ("refunds", .integer(Int64(history.refunds))), ("refunded", amounts(history.refunded)),
      ("earlier_refund_requests", .integer(Int64(history.earlierRequests))),
      ("refunds_declined", .integer(Int64(history.declines))),
      ("uses", .integer(Int64(usesTotal))),
      ("refund_preference", .string(preferenceFromCatalog ? "catalog" : "default")),
    ])
  }

  /// What the developer must still do before sending either body.
  package var notes: [String] {
    var notes: [String] = []
    if !customerConsented {
      notes.append(
        "App Store: customerConsented is left out. Apple requires it to be true and refuses the request otherwise; send the body only with the customer's consent (evidence --customer-consented adds it).")
    }
    if purchase.kind == .autoRenewable {
      notes.append("App Store: no consumptionPercentage for an auto-renewable subscription (Apple computes it and refuses the field).")
    }
    if pendingRefundToken == nil, let tokenMissing {
      notes.append("Google Play: pendingRefundToken is required and missing: \(tokenMissing); copy it from the pending refund review notification.")
    }
    if usesTotal > uses.count {
      notes.append("Google Play: \(usesTotal) uses; the newest \(uses.count) are listed (Google refuses more).")
    }
    return notes
  }
}
