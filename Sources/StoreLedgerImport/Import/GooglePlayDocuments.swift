import StoreLedgerCore

/// Recognizes what each Google Play input document is and decodes Pub/Sub message data.
///
/// Recognized shapes: a Pub/Sub push envelope (`{"message": {"data": base64, "messageId"}}`),
/// a Pub/Sub pull response (`receivedMessages[].message`), a decoded `DeveloperNotification`,
/// a stored subscription resource (`{"packageName", "purchaseToken",
/// "subscriptionPurchaseV2"}`), a stored product resource (`{…, "productId",
/// "productPurchase"}`, or `{…, "productPurchaseV2"}`), a `voidedpurchases.list` response (`voidedPurchases`) and one voided
/// purchase on its own, an `Order` (`orders.get`) and an `orders.batchget` response (`orders`),
/// and a `Subscription` of the monetization API (`monetization.subscriptions.get`, or `.list`'s
/// `subscriptions`), which states its base plans' billing periods.
enum GooglePlayDocuments {
  /// The payloads of every document; problems are collected, never thrown one by one.
  /// - Complexity: O(n) in the total size of the documents.
  static func payloads(in documents: [InputDocument], _ problems: inout ImportProblems)
    -> [GooglePlayPayload]
  {
    InputDocument.payloads(in: documents, &problems) { document, payloads, problems in
      read(document.value, line: document.line, into: &payloads, &problems)
    }
  }

  /// A document as the document store keeps it: a pull response per message (as a push
  /// envelope), a `monetization.subscriptions.list` response per subscription, a voided
  /// purchases list per entry (with the list's `fetchTime`), anything
  /// else whole.
  static func storedParts(of value: JSONValue) -> [JSONValue] {
    if case .array(let received)? = value["receivedMessages"] {
      return received.compactMap { $0["message"].map { .object([("message", $0)]) } }
    }
    if case .array(let subscriptions)? = value["subscriptions"] { return subscriptions }
    if case .array(let orders)? = value["orders"] {
      return orders.map { order in
        guard let fetchTime = value["fetchTime"], order["fetchTime"] == nil,
          case .object(let fields) = order
        else { return order }
        return .object(fields + [("fetchTime", fetchTime)])
      }
    }
    guard case .array(let entries)? = value["voidedPurchases"] else { return [value] }
    return entries.map { entry in
      guard let fetchTime = value["fetchTime"], entry["fetchTime"] == nil,
        case .object(let fields) = entry
      else { return entry }
      return .object(fields + [("fetchTime", fetchTime)])
    }
  }

  /// Reads one top-level document.
  private static func read(
    _ value: JSONValue, line: Int, into payloads: inout [GooglePlayPayload],
    _ problems: inout ImportProblems
  ) {
    guard let object = PayloadObject(value, path: "", line: line) else {
      problems.error(line, "this document: expected a JSON object, found \(value.kindName)")
      return
    }
    let notificationKeys = [
      "eventTimeMillis", "subscriptionNotification", "oneTimeProductNotification",
      "voidedPurchaseNotification", "testNotification", "pendingRefundReviewNotification",
    ]
    if let message = object.child("message", &problems) {
      if let notification = pubSubMessage(message, &problems) {
        payloads.append(.notification(notification))
      }
    } else if case .array(let received)? = object["receivedMessages"] {
      pulledMessages(received, object: object, line: line, into: &payloads, &problems)
    } else if notificationKeys.contains(where: object.has) {
      if let notification = developerNotification(object, &problems) {
        payloads.append(.notification(notification))
      }
    } else if object.has("subscriptionPurchaseV2") {
      if var subscription = subscriptionResource(object, &problems) {
        subscription.knownAt = object.rfc3339("fetchTime", &problems)
        payloads.append(.subscription(subscription))
      }
    } else if object.has("productPurchase") {
      if var product = productResource(object, &problems) {
        product.knownAt = object.rfc3339("fetchTime", &problems)
        payloads.append(.product(product))
      }
    } else if object.has("productPurchaseV2") {
      payloads += productResourceV2(object, &problems).map(GooglePlayPayload.product)
    } else if object.has("voidedPurchases") {
      voidedList(object, line: line, into: &payloads, &problems)
    } else if case .array? = object["orders"] {
      orderList(object, line: line, into: &payloads, &problems)
    } else if isOrder(object) {
      if let order = order(object, &problems) { payloads.append(.order(order)) }
    } else if isPlans(object) {
      if let plans = plans(object, &problems) { payloads.append(.plans(plans)) }
    } else if case .array? = object["subscriptions"] {
      plansList(object, line: line, into: &payloads, &problems)
    } else if object.has("voidedTimeMillis") {
      if var voided = voidedPurchase(object, &problems) {
        voided.knownAt = object.rfc3339("fetchTime", &problems)
        payloads.append(.voided(voided))
      }
    } else {
      unknownDocument(object, line: line, &problems)
    }
  }

  /// The messages of a Pub/Sub pull response (`receivedMessages`).
  private static func pulledMessages(
    _ received: [JSONValue], object: PayloadObject, line: Int,
    into payloads: inout [GooglePlayPayload], _ problems: inout ImportProblems
  ) {
    for (index, item) in received.enumerated() {
      let path = object.name("receivedMessages[\(index)]")
      guard let entry = PayloadObject(item, path: path, line: line),
        let message = entry.child("message", &problems)
      else {
        problems.error(line, "field '\(path).message': expected a Pub/Sub message object")
        continue
      }
      if let notification = pubSubMessage(message, &problems) {
        payloads.append(.notification(notification))
      }
    }
  }

  /// The entries of a `voidedpurchases.list` response, each known at the response's
  /// `fetchTime` (else its own).
  private static func voidedList(
    _ object: PayloadObject, line: Int, into payloads: inout [GooglePlayPayload],
    _ problems: inout ImportProblems
  ) {
    guard case .array(let items)? = object["voidedPurchases"] else {
      problems.error(line, "field 'voidedPurchases': expected an array")
      return
    }
    let fetchTime = object.rfc3339("fetchTime", &problems)
    for entry in object.objects(items, in: "voidedPurchases", &problems) {
      if var voided = voidedPurchase(entry, &problems) {
        voided.knownAt = fetchTime ?? entry.rfc3339("fetchTime", &problems)
        payloads.append(.voided(voided))
      }
    }
  }

  /// The error for a document of no known shape, naming what it looks like.
  private static func unknownDocument(
    _ object: PayloadObject, line: Int, _ problems: inout ImportProblems
  ) {
    if let error = object["error"] {
      let message = error["message"]?.stringValue.map { ": \($0)" } ?? ""
      problems.error(
        line,
        "this is a Google Play Developer API error response\(message), not purchase data")
    } else if object.has("lineItems") || object.has("subscriptionState") {
      problems.error(
        line,
        "this is a SubscriptionPurchaseV2 without its purchase token, which the resource does not carry; store it as {\"packageName\": …, \"purchaseToken\": …, \"subscriptionPurchaseV2\": {…}}"
      )
    } else if object.has("purchaseTimeMillis") && object.has("purchaseState") {
      problems.error(
        line,
        "this is a ProductPurchase without its envelope; store it as {\"packageName\": …, \"purchaseToken\": …, \"productId\": …, \"productPurchase\": {…}}"
      )
    } else {
      let keys = object.fields.keys.sorted().prefix(8).joined(separator: ", ")
      let found = keys.isEmpty ? "an empty object" : "keys: \(keys)"
      problems.error(
        line,
        "this document is not a payload the Google Play importer knows (\(found)); expected a Pub/Sub message, a DeveloperNotification, a stored subscriptionPurchaseV2, productPurchase or productPurchaseV2, a voidedpurchases.list response, an Order (orders.get, orders.batchget), or a Subscription of monetization.subscriptions (get, list)"
      )
    }
  }

  /// A Pub/Sub message: base64 `data` holding a `DeveloperNotification`.
  private static func pubSubMessage(_ message: PayloadObject, _ problems: inout ImportProblems)
    -> GooglePlayNotificationPayload?
  {
    let line = message.line
    guard message.has("data") else {
      problems.error(
        line, "field '\(message.name("data"))' is missing; it is required in a Pub/Sub message")
      return nil
    }
    guard let data = message.string("data", &problems) else { return nil }
    guard data.utf8.count <= Limits.importEncodedBytesMax else {
      problems.error(
        line,
        "field '\(message.name("data"))': \(data.utf8.count) bytes, more than the limit of \(Limits.importEncodedBytesMax)"
      )
      return nil
    }
    guard let bytes = decodeBase64(data) else {
      problems.error(line, "field '\(message.name("data"))': not valid base64")
      return nil
    }
    let decoded: JSONValue
    do {
      decoded = try JSONValue.parse(bytes: bytes)
    } catch {
      problems.error(
        line, "field '\(message.name("data"))': the decoded data is not JSON (\(error.detail))")
      return nil
    }
    guard let notification = PayloadObject(decoded, path: message.name("data"), line: line) else {
      problems.error(
        line,
        "field '\(message.name("data"))': the decoded data is \(decoded.kindName), expected a DeveloperNotification object"
      )
      return nil
    }
    guard var payload = developerNotification(notification, &problems) else { return nil }
    // Pub/Sub's publishTime: when Google told us, the knowledge time of what it says.
    payload.knownAt = message.rfc3339("publishTime", &problems)
    if case .voided(var entry) = payload.body {
      entry.knownAt = payload.knownAt
      payload.body = .voided(entry)
    }
    return payload
  }

  /// A decoded `DeveloperNotification`.
  private static func developerNotification(
    _ object: PayloadObject, _ problems: inout ImportProblems
  ) -> GooglePlayNotificationPayload? {
    let errorsBefore = problems.errors.count
    let why = "in a DeveloperNotification"
    let eventTime = object.requiredMilliseconds("eventTimeMillis", &problems, why: why)
    var body: GooglePlayNotificationPayload.Body?
    if let member = object.child("subscriptionNotification", &problems) {
      let type = requiredInteger(member, "notificationType", &problems)
      let token = member.requiredString("purchaseToken", &problems, why: why)
      if let type, let token { body = .subscription(type: type, token: token) }
    } else if let member = object.child("oneTimeProductNotification", &problems) {
      let type = requiredInteger(member, "notificationType", &problems)
      let token = member.requiredString("purchaseToken", &problems, why: why)
      let sku = member.string("sku", &problems)
      if let type, let token { body = .oneTime(type: type, token: token, sku: sku) }
    } else if let member = object.child("voidedPurchaseNotification", &problems) {
      let token = member.requiredString("purchaseToken", &problems, why: why)
      let orderID = member.requiredString("orderId", &problems, why: why)
      let refundType = member.int64("refundType", &problems)
      if let token, let orderID, let eventTime {
        body = .voided(
          GooglePlayVoidedPayload(
            line: object.line, path: member.path, token: token, orderID: orderID,
            voidedTime: eventTime, reason: nil, source: nil, refundType: refundType,
            voidedQuantity: nil, isFromNotification: true))
      }
    } else if object.has("testNotification") {
      body = .test
    } else if let member = object.child("pendingRefundReviewNotification", &problems) {
      let token = member.string("purchaseToken", &problems)
      let orderID = member.string("orderId", &problems)
      let refundToken = member.string("pendingRefundToken", &problems).flatMap { $0.isEmpty ? nil : $0 }
      if let token, let orderID {
        body = .refundReview(token: token, orderID: orderID, refundToken: refundToken)
      } else {
        body = .other(name: "pendingRefundReviewNotification", isKnown: true)
      }
    } else {
      let members = object.fields.keys.filter { $0.hasSuffix("Notification") }.sorted()
      if let name = members.first {
        body = .other(name: name, isKnown: false)
      } else {
        problems.error(
          object.line,
          "\(object.path.isEmpty ? "this DeveloperNotification" : "field '\(object.path)'") has none of subscriptionNotification, oneTimeProductNotification, voidedPurchaseNotification, testNotification"
        )
      }
    }
    guard problems.errors.count == errorsBefore, let eventTime, let body else { return nil }
    return GooglePlayNotificationPayload(
      line: object.line, path: object.path, eventTime: eventTime,
      body: body)
  }

  /// A stored subscription resource.
  private static func subscriptionResource(
    _ envelope: PayloadObject, _ problems: inout ImportProblems
  ) -> GooglePlaySubscriptionPayload? {
    let errorsBefore = problems.errors.count
    let why = "in a stored subscription resource"
    let token = envelope.requiredString("purchaseToken", &problems, why: why)
    guard let resource = envelope.child("subscriptionPurchaseV2", &problems) else { return nil }
    var items: [GooglePlayLineItem] = []
    let latestOrderID = resource.string("latestOrderId", &problems)
    if case .array(let values)? = resource["lineItems"], !values.isEmpty {
      for (index, value) in values.enumerated() {
        let path = resource.name("lineItems[\(index)]")
        guard let item = PayloadObject(value, path: path, line: envelope.line) else {
          problems.error(envelope.line, "field '\(path)': expected an object")
          continue
        }
        if let lineItem = lineItem(
          item, fallbackOrderID: values.count == 1 ? latestOrderID : nil, &problems)
        {
          items.append(lineItem)
        }
      }
    } else {
      problems.error(
        envelope.line,
        "field '\(resource.name("lineItems"))' is missing or empty; it is required \(why)")
    }
    let accounts = resource.child("externalAccountIdentifiers", &problems)
    let canceled = resource.child("canceledStateContext", &problems)
    let cancellation = canceled?.fields.keys.sorted().first
    var cancelTime: Timestamp?
    var surveyReason: String?
    if let user = canceled?.child(GooglePlayCancellation.user.rawValue, &problems) {
      cancelTime = user.rfc3339("cancelTime", &problems)
      surveyReason = user.child("cancelSurveyResult", &problems)?.string("reason", &problems)
    }
    let paused = resource.child("pausedStateContext", &problems)
    let outOfApp = resource.child("outOfAppPurchaseContext", &problems)
    var payload = GooglePlaySubscriptionPayload(
      line: envelope.line, path: resource.path, token: token ?? "",
      startTime: resource.rfc3339("startTime", &problems),
      state: resource.string("subscriptionState", &problems),
      linkedToken: resource.string("linkedPurchaseToken", &problems),
      lineItems: items, isTest: resource.has("testPurchase"),
      accountID: accounts?.string("obfuscatedExternalAccountId", &problems),
      cancellation: cancellation, cancelTime: cancelTime,
      autoResumeTime: paused?.rfc3339("autoResumeTime", &problems),
      regionCode: resource.string("regionCode", &problems),
      acknowledgementState: resource.string("acknowledgementState", &problems),
      hasSignupPromotion: resource.has("signupPromotion"))
    payload.expiredToken = outOfApp?.string("expiredPurchaseToken", &problems)
    payload.expiredAccountID = outOfApp?.child("expiredExternalAccountIdentifiers", &problems)?
      .string("obfuscatedExternalAccountId", &problems)
    payload.cancelSurveyReason = surveyReason
    return problems.errors.count == errorsBefore ? payload : nil
  }

  /// One `lineItems` element.
  private static func lineItem(
    _ item: PayloadObject, fallbackOrderID: String?, _ problems: inout ImportProblems
  ) -> GooglePlayLineItem? {
    let errorsBefore = problems.errors.count
    let why = "in a subscription line item"
    let productID = item.requiredString("productId", &problems, why: why)
    let expiry = item.requiredRFC3339("expiryTime", &problems, why: why)
    let offer = item.child("offerDetails", &problems)
    let plan = item.child("autoRenewingPlan", &problems)
    var price: (thousandths: Int64, currency: String)?
    if let money = plan?.child("recurringPrice", &problems) {
      price = thousandths(money, &problems)
    }
    let phase = item.child("offerPhase", &problems)
    let replacement = item.child("deferredItemReplacement", &problems)?.string("productId", &problems)
    let installments = plan?.child("installmentDetails", &problems).map {
      ($0.int64("initialCommittedPaymentsCount", &problems), $0.int64("subsequentCommittedPaymentsCount", &problems))
    }
    let priceChange = plan?.child("priceChangeDetails", &problems).map { details in
      GooglePlayPriceChange(
        mode: details.string("priceChangeMode", &problems), state: details.string("priceChangeState", &problems),
        newPrice: details.child("newPrice", &problems).flatMap { thousandths($0, &problems) },
        expectedChargeTime: details.rfc3339("expectedNewPriceChargeTime", &problems))
    }
    let stepUp = plan?.child("priceStepUpConsentDetails", &problems).map { details in
      GooglePlayPriceStepUp(
        state: details.string("state", &problems), deadline: details.rfc3339("consentDeadlineTime", &problems))
    }
    guard problems.errors.count == errorsBefore, let productID, let expiry else { return nil }
    var lineItem = GooglePlayLineItem(
      productID: productID, basePlanID: offer?.string("basePlanId", &problems),
      offerID: offer?.string("offerId", &problems), expiryTime: expiry,
      orderID: item.string("latestSuccessfulOrderId", &problems) ?? fallbackOrderID,
      autoRenewEnabled: plan?.bool("autoRenewEnabled", &problems),
      offerPhase: phase?.fields.keys.sorted().first, recurringPrice: price,
      isPrepaid: item.has("prepaidPlan"), deferredReplacementProductID: replacement)
    lineItem.installments = installments
    lineItem.priceChange = priceChange
    lineItem.priceStepUp = stepUp
    return lineItem
  }

  /// A `Money` value (`currencyCode`, `units`, `nanos`) in thousandths of its currency.
  static func thousandths(_ money: PayloadObject, _ problems: inout ImportProblems)
    -> (thousandths: Int64, currency: String)?
  {
    guard let currency = money.string("currencyCode", &problems) else { return nil }
    let units = money.int64("units", &problems) ?? 0
    let nanos = money.integer("nanos", &problems) ?? 0
    guard units >= 0, units <= Limits.amountMax / 1000, nanos >= 0, nanos < 1_000_000_000 else {
      problems.warning(
        money.line, "field '\(money.path)': a price Google never sends; left out")
      return nil
    }
    return (units * 1000 + nanos / 1_000_000, currency)
  }

  /// A stored product resource.
  private static func productResource(_ envelope: PayloadObject, _ problems: inout ImportProblems)
    -> GooglePlayProductPayload?
  {
    let errorsBefore = problems.errors.count
    let why = "in a stored product resource"
    let token = envelope.requiredString("purchaseToken", &problems, why: why)
    guard let resource = envelope.child("productPurchase", &problems) else { return nil }
    let productID =
      envelope.string("productId", &problems) ?? resource.string("productId", &problems)
    if productID == nil {
      problems.error(envelope.line, "field 'productId' is missing; it is required \(why)")
    }
    let payload = GooglePlayProductPayload(
      line: envelope.line, path: resource.path, token: token ?? "", productID: productID ?? "",
      purchaseTime: resource.requiredMilliseconds("purchaseTimeMillis", &problems, why: why)
        ?? Timestamp(millisecondsSinceEpoch: 0),
      state: resource.int64("purchaseState", &problems),
      orderID: resource.string("orderId", &problems),
      quantity: resource.int64("quantity", &problems),
      purchaseType: resource.int64("purchaseType", &problems),
      accountID: resource.string("obfuscatedExternalAccountId", &problems))
    return problems.errors.count == errorsBefore ? payload : nil
  }

  /// One `VoidedPurchase`.
  private static func voidedPurchase(_ object: PayloadObject, _ problems: inout ImportProblems)
    -> GooglePlayVoidedPayload?
  {
    let errorsBefore = problems.errors.count
    let why = "in a voided purchase"
    let token = object.requiredString("purchaseToken", &problems, why: why)
    let orderID = object.requiredString("orderId", &problems, why: why)
    let voidedTime = object.requiredMilliseconds("voidedTimeMillis", &problems, why: why)
    let payload = GooglePlayVoidedPayload(
      line: object.line, path: object.path, token: token ?? "", orderID: orderID ?? "",
      voidedTime: voidedTime ?? Timestamp(millisecondsSinceEpoch: 0),
      reason: object.int64("voidedReason", &problems),
      source: object.int64("voidedSource", &problems),
      refundType: object.int64("refundType", &problems),
      voidedQuantity: object.int64("voidedQuantity", &problems), isFromNotification: false)
    return problems.errors.count == errorsBefore ? payload : nil
  }

  /// A required integer field (number or string of digits).
  private static func requiredInteger(
    _ object: PayloadObject, _ key: String, _ problems: inout ImportProblems
  ) -> Int64? {
    guard object.has(key) else {
      problems.error(object.line, "field '\(object.name(key))' is missing; it is required")
      return nil
    }
    return object.int64(key, &problems)
  }

  /// Standard or URL-safe base64, with or without padding; nil when it is neither.
  static func decodeBase64(_ text: String) -> [UInt8]? {
    var bytes: [UInt8] = text.utf8.compactMap {
      switch $0 {
      case UInt8(ascii: "-"): return UInt8(ascii: "+")
      case UInt8(ascii: "_"): return UInt8(ascii: "/")
      case 10, 13, 32: return nil
      default: return $0
      }
    }
    if bytes.count % 4 == 1 { return nil }
    while bytes.count % 4 != 0 { bytes.append(UInt8(ascii: "=")) }
    var decoded: [UInt8] = []
    let isValid = bytes.withUnsafeBufferPointer { Base64.decode($0, into: &decoded) }
    return isValid ? decoded : nil
  }
}
