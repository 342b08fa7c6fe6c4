import StoreLedgerCore

/// Turns Google Play payloads into ledger events (the mapping table of
/// Docs/import-googleplay.md).
///
/// Unlike an Apple transaction, no Google payload is complete on its own: a notification says
/// only that something changed (no order, no expiry), a `SubscriptionPurchaseV2` is a snapshot
/// of a purchase token without its history, and a voided purchase names only an order. So the
/// mapper first indexes every payload by purchase token and order id, then derives each event
/// from everything known about its order. Indexes are keyed and iterated in sorted order, which
/// keeps the result independent of input order and repeats.
struct GooglePlayMapper: EventMapping {
  /// What a bad subject's message adds (see `EventMapping`).
  static let subjectHint = "; map it with --subjects"
  /// Whose ids event ids derive from (see `EventMapping`).
  static let idOrigin = "Google's order ids"
  /// Product types come from here.
  let catalog: Catalog
  /// Subjects, the test-purchase switch, the clock and the notification trust switch.
  let options: GooglePlayImportOptions
  /// What the ledger already knows (earlier imports): the periods of known orders.
  let knowledge: LedgerKnowledge
  /// Everything that went wrong so far.
  var problems: ImportProblems
  /// The events produced, duplicates included (the importer collapses them).
  var events: [ImportedEvent] = []
  /// Skipped payloads by kind (notification type), each a set of payload identities so that
  /// redeliveries are counted once.
  var skipped: [String: Set<String>] = [:]

  /// Price changes the resources show, by mode and state, each a set of subscription key,
  /// new price and expected charge time so that copies count once (no event records them).
  var priceChanges: [String: Set<String>] = [:]
  /// Subscription resources by subscription key: the purchase token, or for a line item of a
  /// subscription with add-ons `<token>#<productId>` (`GooglePlaySubscriptionPayload.items`).
  var subscriptions: [String: [GooglePlaySubscriptionPayload]] = [:]
  /// The transactions of add-on line items by the order id Google gave them, so that a voided
  /// order revokes every item it charged.
  var addOnTransactions: [String: Set<String>] = [:]
  /// The subscription keys of add-on line items by purchase token.
  var addOnKeys: [String: Set<String>] = [:]
  /// Product resources by purchase token.
  var products: [String: [GooglePlayProductPayload]] = [:]
  /// Subscription notifications by purchase token, sorted by event time, one per identity.
  var subscriptionNotifications: [String: [GooglePlayNotificationPayload]] = [:]
  /// One-time product notifications by purchase token.
  var oneTimeNotifications: [String: [GooglePlayNotificationPayload]] = [:]
  /// Order documents (`orders.get`, `orders.batchget`) by order id: the price, tax and
  /// proceeds of the charge of that order. Of several copies, the one fetched last (then the
  /// smallest text) is kept, so the choice does not depend on input order.
  var orders: [String: GooglePlayOrderPayload] = [:]
  /// Refund reviews (`pendingRefundReviewNotification`) by order id.
  var refundReviews: [String: [GooglePlayNotificationPayload]] = [:]
  /// Voided purchases (list entries and notifications) by order id.
  var voided: [String: [GooglePlayVoidedPayload]] = [:]
  /// The chain of each subscription token, resolved once.
  var chains: [String: GooglePlayChain] = [:]
  /// Input lines of documents that cannot be used yet: a notification before anything about
  /// its purchase, a voided purchase before its purchase, a renewal before anything that
  /// tells when its period began. They become events once the missing document is imported
  /// with them (`ImportResult.pendingDocuments`).
  var deferredLines: Set<Int> = []
  /// Transactions a copy fetched expired before its period's end revokes (its `revocation`
  /// is the voided purchase's too, which then adds nothing).
  var revokedByCopies: Set<String> = []
  /// Charges of orders the ledger already holds (not written again; counted as known).
  var knownCharges = 0
  /// The transfers this import writes, by event id, in words for the summary.
  var transferNotes: [String: String] = [:]

  /// Creates a mapper.
  init(
    catalog: Catalog, options: GooglePlayImportOptions, problems: ImportProblems,
    knowledge: LedgerKnowledge = LedgerKnowledge()
  ) {
    self.catalog = catalog
    self.options = options
    self.problems = problems
    self.knowledge = knowledge
  }

  /// The knowledge time of what a document says: its own (`publishTime`, `fetchTime`), else
  /// the import's clock.
  func recorded(_ knownAt: Timestamp?) -> Timestamp? { knownAt ?? options.importedAt }

  /// The earliest of knowledge times, nil (known from `at`) before any; nil for none.
  static func earliest(_ times: [Timestamp?]) -> Timestamp? {
    times.contains(where: { $0 == nil }) ? nil : times.compactMap { $0 }.min()
  }

  /// Maps every payload of one import.
  /// - Complexity: O(n log n) in the number of payloads.
  mutating func map(_ payloads: [GooglePlayPayload]) {
    for payload in payloads { index(payload) }
    for token in subscriptionNotifications.keys {
      var seen: Set<String> = []
      subscriptionNotifications[token] = subscriptionNotifications[token]!
        .sorted { ($0.eventTime, $0.typeName) < ($1.eventTime, $1.typeName) }
        .filter { seen.insert($0.identity).inserted }
    }
    warnUnacknowledged()
    warnUnacknowledgedProducts()
    addLedgerOrders()
    resolveChains()
    joinResubscriptions()
    for key in subscriptions.keys.sorted() { mapSubscription(key: key) }
    let tokens = Set(subscriptions.values.compactMap { $0.first?.token })
    for token in subscriptionNotifications.keys.sorted() where !tokens.contains(token) {
      let notifications = subscriptionNotifications[token]!
      let names = Set(notifications.map(\.typeName)).sorted().joined(separator: ", ")
      deferredLines.formUnion(notifications.map(\.line))
      problems.warning(
        notifications[0].line,
        "\(names) for purchase token '\(token)' but no subscriptionPurchaseV2 for it in this import or the log: a notification only says that something changed (no order, no expiry), so nothing is imported for it yet: fetch purchases.subscriptionsv2.get for the token and import the result (with --append, the notification is kept and counts then)"
      )
    }
    for token in products.keys.sorted() { mapProducts(token: token) }
    for token in oneTimeNotifications.keys.sorted() { mapOneTimeNotifications(token: token) }
    for orderID in voided.keys.sorted() { mapVoided(orderID: orderID) }
    for orderID in refundReviews.keys.sorted() { mapRefundReview(orderID: orderID) }
    settleOwners()
  }

  /// Stands in the ledger's orders for tokens that this import has notifications about but no
  /// resource: a notification about a subscription the ledger knows (a cancellation, a
  /// restart, a hold) belongs to its known orders, as it would in one import with them.
  private mutating func addLedgerOrders() {
    for (token, notifications) in subscriptionNotifications where subscriptions[token] == nil {
      let known = knowledge.charges(ofSubscription: token)
      guard options.knownTokens[token] != nil, !known.isEmpty else { continue }
      let line = notifications.map(\.line).min() ?? 0
      subscriptions[token] = known.compactMap { transaction, charge in
        guard let expires = knowledge.periodEnd(of: transaction) ?? charge.expires else {
          return nil
        }
        let item = GooglePlayLineItem(
          productID: "", basePlanID: nil, offerID: nil, expiryTime: expires, orderID: transaction,
          autoRenewEnabled: nil, offerPhase: nil, recurringPrice: nil, isPrepaid: false)
        return GooglePlaySubscriptionPayload(
          line: line, path: "", token: token, startTime: nil, state: nil, linkedToken: nil,
          lineItems: [item], isTest: false, accountID: nil, cancellation: nil, cancelTime: nil,
          autoResumeTime: nil, knownAt: nil, isFromLedger: true)
      }
      if subscriptions[token]?.isEmpty == true { subscriptions[token] = nil }
    }
  }

  /// Files a payload under its token or order.
  private mutating func index(_ payload: GooglePlayPayload) {
    switch payload {
    case .subscription(let subscription):
      for item in subscription.items() {
        subscriptions[item.key, default: []].append(item)
        countPriceChange(item)
        if item.isAddOnItem, let orderID = item.lineItems.first?.orderID {
          addOnTransactions[orderID, default: []].insert(orderID + item.transactionSuffix)
          addOnKeys[item.token, default: []].insert(item.key)
        }
      }
    case .product(let product):
      products[product.token, default: []].append(product)
      // Several line items of one order: a voided order revokes each item's charge.
      if let orderID = product.orderID, product.transaction != orderID {
        addOnTransactions[orderID, default: []].insert(product.transaction)
      }
    case .voided(let entry):
      voided[entry.orderID, default: []].append(entry)
    case .order(let order):
      if let kept = orders[order.orderID], !order.isNewer(than: kept) { return }
      orders[order.orderID] = order
    case .plans(let plans):
      // Product configuration: read by `emitCatalog`, kept beside the log, no ledger fact.
      skipped["monetization.subscriptions", default: []].insert(plans.identity)
    case .notification(let notification):
      switch notification.body {
      case .subscription(let type, let token):
        guard let known = GooglePlaySubscriptionNotificationType(rawValue: type) else {
          problems.unknownValue(
            notification.line, field: "subscriptionNotification.notificationType",
            raw: .integer(type), consequence: "counted as skipped; nothing is imported for it")
          skip(notification)
          return
        }
        if Self.countedOnly.contains(known) {
          skip(notification)
        } else {
          subscriptionNotifications[token, default: []].append(notification)
        }
      case .oneTime(let type, let token, _):
        switch GooglePlayOneTimeNotificationType(rawValue: type) {
        case .purchased?: oneTimeNotifications[token, default: []].append(notification)
        case .canceled?: skip(notification)
        case nil:
          problems.unknownValue(
            notification.line, field: "oneTimeProductNotification.notificationType",
            raw: .integer(type), consequence: "counted as skipped; nothing is imported for it")
          skip(notification)
        }
      case .voided(let entry):
        voided[entry.orderID, default: []].append(entry)
      case .refundReview(_, let orderID, _):
        refundReviews[orderID, default: []].append(notification)
      case .test:
        skip(notification)
      case .other(let name, let isKnown):
        if !isKnown {
          problems.unknownValue(
            notification.line, field: "DeveloperNotification", raw: .string(name),
            consequence: "counted as skipped; nothing is imported for it")
        }
        skip(notification)
      }
    }
  }

  /// Counts the price change and the price step-up a resource's line item shows
  /// (Docs/import-googleplay.md, "Price increases"), each state once per subscription and
  /// change: their states change between copies of one order, so no event carries them.
  private mutating func countPriceChange(_ resource: GooglePlaySubscriptionPayload) {
    guard let item = resource.lineItems.first else { return }
    if let change = item.priceChange {
      let price = change.newPrice.map { "\($0.thousandths) \($0.currency)" } ?? ""
      let time = change.expectedChargeTime?.rfc3339 ?? ""
      priceChanges[change.summaryKey, default: []].insert(resource.key + "|" + price + "|" + time)
    }
    if let stepUp = item.priceStepUp {
      priceChanges[stepUp.summaryKey, default: []].insert(resource.key + "|" + (stepUp.deadline?.rfc3339 ?? ""))
    }
  }

  /// Subscription notification types that change no entitlement by themselves.
  ///
  /// Price changes take effect through later renewals (with their own orders), a pause
  /// schedule only through SUBSCRIPTION_PAUSED, a canceled pending purchase never granted
  /// anything, and add-on changes need add-on support (not imported).
  static let countedOnly: Set<GooglePlaySubscriptionNotificationType> = [
    .priceChangeConfirmed, .pauseScheduleChanged, .priceChangeUpdated, .pendingPurchaseCanceled,
    .priceStepUpConsentUpdated, .itemsChanged, .cancellationScheduled,
  ]

  /// Counts a notification that changes no entitlement, once per identity.
  mutating func skip(_ notification: GooglePlayNotificationPayload) {
    skipped[notification.typeName, default: []].insert(notification.identity)
  }

  // MARK: - Shared rules

  /// Whether a test purchase may be imported; reports the refusal when not.
  mutating func isTestAllowed(_ isTest: Bool, line: Int, field: String) -> Bool {
    guard isTest, !options.allowsTestPurchases else { return true }
    problems.error(
      line,
      "field '\(field)': a license tester's purchase (no real money) is refused; import it with test purchases allowed (--allow-test) if that is intended"
    )
    return false
  }

  /// The catalog product of a Google product id: `PRODUCT_ID:BASE_PLAN_ID` when the catalog
  /// has that id, else `PRODUCT_ID`; an error naming both when neither is there.
  mutating func product(_ productID: String, basePlanID: String?, line: Int, field: String)
    -> Product?
  {
    if let basePlanID, let index = catalog.index(of: productID + ":" + basePlanID) {
      return catalog[index]
    }
    if let index = catalog.index(of: productID) { return catalog[index] }
    let tried = basePlanID.map { "'\(productID):\($0)' nor '\(productID)'" } ?? "'\(productID)'"
    problems.error(
      line, "field '\(field)': unknown product: the catalog has neither \(tried); add it")
    return nil
  }

  /// The `meta` of an event of a subscription resource (`addOnProduct` for an add-on item).
  static func baseMeta(isTest: Bool, resource: GooglePlaySubscriptionPayload)
    -> [(String, JSONValue)]
  {
    baseMeta(isTest: isTest, token: resource.token)
      + (resource.addOnProduct.map { [("addOnProduct", .string($0))] } ?? [])
  }

  /// The `meta` every imported event starts with.
  static func baseMeta(isTest: Bool, token: String) -> [(String, JSONValue)] {
    [
      ("source", .string("googleplay")),
      (
        "environment",
        .string(isTest ? GooglePlayEnvironment.test : GooglePlayEnvironment.production)
      ),
      ("purchaseToken", .string(token)),
    ]
  }

  /// A short, stable stand-in for a purchase token in event ids (tokens are longer than ids
  /// may be): the first 12 bytes of its SHA-256, in hex.
  static func tokenKey(_ token: String) -> String {
    String(SHA256.hash(Array(token.utf8)).hex.prefix(24))
  }
}
