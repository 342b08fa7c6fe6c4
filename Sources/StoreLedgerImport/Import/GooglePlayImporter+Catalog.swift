import StoreLedgerCore

extension GooglePlayImporter {
  /// The pseudo purchase token the document store keeps `monetization.subscriptions`
  /// documents under (no real token has a space or a dot-separated API name): they are about
  /// no purchase, and `emitCatalog` reads them back.
  static let plansToken = "monetization.subscriptions plans"

  /// A starting catalog (Docs/import-googleplay.md, "A starting catalog") for the products
  /// that `inputText`'s documents (and the plans kept in `documentStore`) name, and one note
  /// per plan saying where its `period` came from.
  ///
  /// A subscription's plan is the catalog product `SUBSCRIPTION_ID:BASE_PLAN_ID`, in the group
  /// `SUBSCRIPTION_ID`. Its `period` is the `billingPeriodDuration` a `monetization.subscriptions`
  /// document states, else the nominal period nearest to its full-price charges' lengths (the
  /// contract's nearest of 7, 30.44, 60.88, 91.31, 182.62 and 365.25 days; the most frequent
  /// wins, ties to the shorter), else none. A one-time product's type cannot be told from
  /// Google's documents and is a `TODO:` placeholder, as every invented value is.
  /// - Throws: invalid input, or a document (a malformed `monetization.subscriptions` one
  ///   among them) with a field of the wrong shape; with file, line and field.
  /// - Complexity: O(n log n) in the number of documents.
  package static func emitCatalog(_ inputText: String, file: String, documentStore: [UInt8] = [])
    throws(DiagnosticList) -> (catalog: String, notes: [String])
  {
    var problems = ImportProblems(file: file)
    let (documents, syntaxErrors) = ImportInput.documents(in: inputText, file: file, acceptsJWS: false)
    problems.errors += syntaxErrors
    var payloads = GooglePlayDocuments.payloads(in: documents, &problems)
    guard problems.errors.isEmpty else { throw DiagnosticList(problems.errors + problems.warnings) }
    // Kept plans (already checked when they were imported) come after the input's lines.
    let firstKeptLine = (documents.map(\.line).max() ?? 0) + 1
    let kept = GooglePlayDocumentStore.lines(in: documentStore, tokens: [plansToken]).enumerated()
      .compactMap { index, line in
        GooglePlayDocumentStore.document(ofLine: line).map {
          InputDocument(line: firstKeptLine + index, value: $0)
        }
      }
    var scratch = ImportProblems(file: file)
    payloads += GooglePlayDocuments.payloads(in: kept, &scratch)
    var drafts = GooglePlayCatalogDrafts()
    for payload in payloads {
      switch payload {
      case .plans(let plans): drafts.add(plans)
      case .subscription(let resource):
        for item in resource.items() { drafts.add(item) }
      case .product(let product):
        drafts.addOneTime(
          product.v2?.purchaseOptionID.map { product.productID + ":" + $0 } ?? product.productID)
      case .notification, .voided, .order: break
      }
    }
    let (products, notes) = drafts.products(firstKeptLine: firstKeptLine)
    return (JSONWriter.pretty(.object([("products", .object(products))])) + "\n", notes)
  }
}

/// What Google's documents tell about each product, gathered by `emitCatalog`.
private struct GooglePlayCatalogDrafts {
  /// A billing period a `monetization.subscriptions` document states.
  struct Stated {
    var text: String
    var line: Int
    var field: String
  }

  /// One order of a subscription as its resource copies show it.
  struct OrderSeen {
    var renewalIndex: Int?
    var product: String
    /// The smallest expiry of a copy in a charged state (active, canceled, paused).
    var expiry: Timestamp?
    var isFullPrice: Bool
    var isTest: Bool
  }

  /// Group per auto-renewable product.
  var groups: [String: String] = [:]
  /// One-time products.
  var oneTime: Set<String> = []
  /// Stated periods per product.
  var stated: [String: [Stated]] = [:]
  /// Orders per subscription key, by order id.
  var orders: [String: [String: OrderSeen]] = [:]
  /// The earliest `startTime` per subscription key.
  var starts: [String: Timestamp] = [:]

  /// Adds a subscription's base plans and the periods they state.
  mutating func add(_ plans: GooglePlayPlansPayload) {
    for plan in plans.basePlans {
      let id = plans.productID(of: plan)
      groups[id] = plans.subscriptionID
      if let text = plan.billingPeriod, let field = plan.billingPeriodField {
        stated[id, default: []].append(Stated(text: text, line: plans.line, field: field))
      }
    }
  }

  /// Adds the plan and the current order of one line item of a subscription resource.
  mutating func add(_ resource: GooglePlaySubscriptionPayload) {
    guard let item = resource.lineItems.first else { return }
    let id = item.basePlanID.map { item.productID + ":" + $0 } ?? item.productID
    groups[id] = item.productID
    if let start = resource.startTime { starts[resource.key] = min(starts[resource.key] ?? start, start) }
    guard let orderID = item.orderID, !orderID.isEmpty else { return }
    let charged: Set<GooglePlaySubscriptionState> = [.active, .canceled, .paused]
    let isCharged =
      resource.cancellation != GooglePlayCancellation.replacement.rawValue
      && (resource.knownState.map(charged.contains) ?? false)
    let isFullPrice =
      item.offerID == nil && (item.offerPhase == nil || item.offerPhase == "basePrice") && !item.isPrepaid
      && !resource.hasSignupPromotion
    var seen =
      orders[resource.key]?[orderID]
      ?? OrderSeen(
        renewalIndex: GooglePlayOrder.renewalIndex(of: orderID), product: id, expiry: nil,
        isFullPrice: isFullPrice, isTest: resource.isTest)
    if isCharged { seen.expiry = min(seen.expiry ?? item.expiryTime, item.expiryTime) }
    seen.isFullPrice = seen.isFullPrice && isFullPrice
    orders[resource.key, default: [:]][orderID] = seen
  }

  /// Adds a one-time product.
  mutating func addOneTime(_ id: String) { oneTime.insert(id) }

  /// Lengths of full-price charges per product, and the products whose only lengths were test
  /// purchases' (renewed on Google's accelerated clock, which tells no period).
  func measured() -> (lengths: [String: [NominalPeriod]], testOnly: Set<String>) {
    var lengths: [String: [NominalPeriod]] = [:]
    var tested: Set<String> = []
    for (key, byID) in orders {
      let ends = Dictionary(byID.values.map { ($0.renewalIndex ?? -1, $0.expiry) }, uniquingKeysWith: { $0 ?? $1 })
      for order in byID.values where order.isFullPrice {
        let index = order.renewalIndex ?? -1
        let previousEnd = index == -1 ? starts[key] : ends[index - 1] ?? nil
        guard let end = order.expiry, let previousEnd, end > previousEnd else { continue }
        if order.isTest {
          tested.insert(order.product)
          continue
        }
        let length = end.millisecondsSinceEpoch - previousEnd.millisecondsSinceEpoch
        lengths[order.product, default: []].append(NominalPeriod.nearest(toMilliseconds: length))
      }
    }
    return (lengths, tested.subtracting(lengths.keys))
  }

  /// The catalog's `products` members, and a note per auto-renewable product on its period.
  func products(firstKeptLine: Int) -> (products: [(String, JSONValue)], notes: [String]) {
    let placeholder = AppStoreImporter.catalogPlaceholderPrefix
    let (lengths, testOnly) = measured()
    var members: [(String, JSONValue)] = []
    var notes: [String] = []
    for id in Set(groups.keys).union(oneTime).sorted() {
      guard let group = groups[id] else {
        members.append(
          (
            id,
            .object([
              ("type", .string(placeholder + "consumable-or-non_consumable")),
              ("entitlements", .array([.string(placeholder + "entitlement-for-" + id)])),
            ])
          ))
        continue
      }
      let (period, note) = period(of: id, lengths: lengths[id] ?? [], isTestOnly: testOnly.contains(id), firstKeptLine: firstKeptLine)
      var fields: [(String, JSONValue)] = [("type", .string("auto_renewable")), ("group", .string(group))]
      if let period { fields.append(("period", .string(period.rawValue))) }
      fields.append(("entitlements", .array([.string(placeholder + "entitlement-for-group-" + group)])))
      members.append((id, .object(fields)))
      notes.append("period of '\(id)': \(note)")
    }
    return (members, notes)
  }

  /// A plan's period and where it came from, in words.
  private func period(of id: String, lengths: [NominalPeriod], isTestOnly: Bool, firstKeptLine: Int)
    -> (NominalPeriod?, String)
  {
    let statements = (stated[id] ?? []).sorted { ($0.line, $0.field, $0.text) < ($1.line, $1.field, $1.text) }
    if let first = statements.first {
      let usable = statements.compactMap { GooglePlayDocuments.nominalPeriod($0.text) }
      let source = { (statement: Stated) in
        statement.line >= firstKeptLine
          ? "a kept monetization.subscriptions document (field '\(statement.field)')"
          : "monetization.subscriptions on line \(statement.line) (field '\(statement.field)')"
      }
      guard let chosen = Self.mostFrequent(usable) else {
        return (
          nil,
          "left out: \(source(first)) states \(first.text), which is not one of the catalog's periods (P1W, P1M, P2M, P3M, P6M, P1Y)"
        )
      }
      let disagree = Set(statements.map(\.text)).count > 1 ? " (documents disagree: \(Set(statements.map(\.text)).sorted().joined(separator: ", ")); the most frequent is kept)" : ""
      let statement = statements.first { GooglePlayDocuments.nominalPeriod($0.text) == chosen }!
      return (chosen, "\(chosen.rawValue), stated by \(source(statement))\(disagree)")
    }
    if let chosen = Self.mostFrequent(lengths) {
      let count = lengths.count
      return (
        chosen,
        "\(chosen.rawValue), inferred from the length of \(count) full-price charge\(count == 1 ? "" : "s") (the nearest nominal period); no monetization.subscriptions document states it"
      )
    }
    let test = isTestOnly ? "; its test purchases renew on Google's accelerated clock, which tells no period" : ""
    return (
      nil,
      "left out: no monetization.subscriptions document states it, and no full-price charge of it has a known length\(test)"
    )
  }

  /// The most frequent period, ties to the shorter; nil for none.
  private static func mostFrequent(_ periods: [NominalPeriod]) -> NominalPeriod? {
    var counts: [NominalPeriod: Int] = [:]
    for period in periods { counts[period, default: 0] += 1 }
    return NominalPeriod.allCases.filter { counts[$0] != nil }
      .max { (counts[$0]!, $0.periodsPerYear) < (counts[$1]!, $1.periodsPerYear) }
  }
}
