extension Catalog {
  /// Parses and validates a catalog document; every problem found is reported.
  ///
  /// Rejects unknown product types and fields, missing `group` (auto-renewable)
  /// or `duration` (non-renewing), malformed ISO 8601 durations, empty
  /// entitlement lists, and fields that do not belong to the product's type.
  package static func parse(_ text: String, file: String) throws(DiagnosticList) -> Catalog {
    let document: JSONValue
    do {
      document = try JSONValue.parse(text)
    } catch {
      throw DiagnosticList([
        Diagnostic(
          file: file, line: error.line, column: error.column,
          .badCatalog("invalid JSON: \(error.detail)"))
      ])
    }
    var problems: [Diagnostic] = []
    func bad(_ detail: String) {
      problems.append(Diagnostic(file: file, .badCatalog(detail)))
    }
    guard let top = document.objectMembers else {
      throw DiagnosticList([Diagnostic(file: file, .badCatalog("expected a JSON object"))])
    }
    for (key, _) in top where !topLevelFields.contains(key) {
      bad("unknown top-level field '\(key)'; expected 'products', 'policy', 'refund_preference' or 'store_fees'")
    }
    guard let productMembers = document["products"]?.objectMembers else {
      bad("field 'products': expected an object of product id → product")
      throw DiagnosticList(problems)
    }
    var products: [Product] = []
    for (id, value) in productMembers {
      if let product = parseProduct(id: id, value: value, bad: bad) { products.append(product) }
    }
    var policy: Policy? = nil
    if let raw = document["policy"] {
      let entitlementNames = Array(Set(products.flatMap(\.entitlements))).sorted()
      policy = Policy.parse(raw, entitlementNames: entitlementNames, bad: bad)
    }
    let refundPreference = document["refund_preference"].map { RefundPreferencePolicy.parse($0, bad: bad) } ?? .standard
    let storeFees = document["store_fees"].flatMap { section in
      StoreFees.parse(section) { path, detail in
        problems.append(
          Diagnostic(file: file, line: line(of: path, in: text), .badCatalog("field '\(path.joined(separator: "."))': \(detail)")))
      }
    }
    if !problems.isEmpty { throw DiagnosticList(problems) }
    return Catalog(products: products, policy: policy, refundPreference: refundPreference ?? .standard, storeFees: storeFees)
  }

  /// The line of the field at `path` (`["store_fees", "appstore", "rate"]`): each key looked for
  /// as a quoted string after the one before it; a key not found (a required field) gives the line
  /// of the last key found, none found nil (the message still names the field).
  /// - Complexity: O(text length).
  static func line(of path: [String], in text: String) -> Int? {
    let bytes = Array(text.utf8)
    var from = 0
    for key in path {
      let needle = Array(JSONWriter.compact(.string(key)).utf8)
      guard from + needle.count <= bytes.count,
        let at = (from...(bytes.count - needle.count)).first(where: { bytes[$0..<($0 + needle.count)].elementsEqual(needle) })
      else { break }
      from = at + needle.count
    }
    return from == 0 ? nil : 1 + bytes[..<from].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
  }

  /// The catalog's sections: the contract's two (v1.3, section 2 and 7) and the project's
  /// extensions, `refund_preference` and `store_fees` (Docs/evidence.md, Docs/reports.md).
  static let topLevelFields: Set<String> = ["products", "policy", "refund_preference", "store_fees"]

  private static func parseProduct(id: String, value: JSONValue, bad: (String) -> Void) -> Product? {
    let here = "product '\(id)'"
    guard !id.isEmpty, id.utf8.count <= Limits.referenceBytesMax else {
      bad("product ids must be 1–\(Limits.referenceBytesMax) bytes")
      return nil
    }
    guard let members = value.objectMembers else {
      bad("\(here): expected an object, found \(value.kindName)")
      return nil
    }
    guard let typeName = value["type"]?.stringValue else {
      bad("\(here): field 'type' is required (auto_renewable, non_renewing, non_consumable, consumable)")
      return nil
    }
    guard let kind = ProductKind(rawValue: typeName) else {
      bad(
        "\(here): field 'type': unknown product type '\(typeName)'; expected auto_renewable, non_renewing, non_consumable or consumable"
      )
      return nil
    }
    let allowed = allowedFields(of: kind)
    var ok = true
    for (key, _) in members where !allowed.contains(key) {
      bad("\(here): field '\(key)' is not allowed for type '\(typeName)'")
      ok = false
    }
    var product = Product(id: id, kind: kind)
    if kind != .consumable { ok = parseAccess(value, into: &product, here: here, bad: bad) && ok }
    switch kind {
    case .autoRenewable: ok = parseSubscription(value, into: &product, here: here, bad: bad) && ok
    case .nonRenewing:
      switch parseDuration(value, "duration", here: here, bad: bad) {
      case .some(.some(let parsed)): product.duration = parsed
      case .some(nil):
        bad("\(here): field 'duration' is required for non_renewing")
        ok = false
      case nil: ok = false
      }
    case .nonConsumable:
      switch parseDuration(value, "expires_after", here: here, bad: bad) {
      case .some(let parsed): product.expiresAfter = parsed
      case nil: ok = false
      }
    case .consumable: ok = parseConsumable(value, into: &product, here: here, bad: bad) && ok
    }
    return ok ? product : nil
  }

  /// The fields a product of `kind` may have.
  private static func allowedFields(of kind: ProductKind) -> Set<String> {
    switch kind {
    case .autoRenewable: return ["type", "entitlements", "group", "level", "family_shareable", "period"]
    case .nonRenewing: return ["type", "entitlements", "duration", "family_shareable"]
    case .nonConsumable: return ["type", "entitlements", "expires_after", "family_shareable"]
    case .consumable: return ["type", "currency", "units"]
    }
  }

  /// `entitlements` and `family_shareable` of a product that gives access; false when wrong (said through `bad`).
  private static func parseAccess(
    _ value: JSONValue, into product: inout Product, here: String, bad: (String) -> Void
  ) -> Bool {
    var ok = true
    if case .array(let items)? = value["entitlements"], !items.isEmpty,
      items.allSatisfy({ ($0.stringValue?.isEmpty == false) })
    {
      product.entitlements = items.compactMap(\.stringValue)
    } else {
      bad("\(here): field 'entitlements': expected a non-empty list of entitlement ids")
      ok = false
    }
    switch value["family_shareable"] {
    case nil: break
    case .bool(let flag)?: product.isFamilyShareable = flag
    case let other?:
      bad("\(here): field 'family_shareable': expected a boolean, found \(other.kindName)")
      ok = false
    }
    return ok
  }

  /// The duration in `field`: `.some(nil)` when absent, nil (after saying why) when not a duration.
  private static func parseDuration(
    _ value: JSONValue, _ field: String, here: String, bad: (String) -> Void
  ) -> ISODuration?? {
    guard let raw = value[field] else { return .some(nil) }
    guard let text = raw.stringValue, let parsed = ISODuration(text) else {
      bad(
        "\(here): field '\(field)': expected an ISO 8601 duration such as P1M, P2W, PT48H or P1MT12H, \(ISODuration.lengthLimitDescription)"
      )
      return nil
    }
    return .some(parsed)
  }

  /// An auto-renewable product's `group`, `level` and `period`; false when wrong (said through `bad`).
  private static func parseSubscription(
    _ value: JSONValue, into product: inout Product, here: String, bad: (String) -> Void
  ) -> Bool {
    var ok = true
    if let group = value["group"]?.stringValue, !group.isEmpty {
      product.group = group
    } else {
      bad("\(here): field 'group' is required for auto_renewable (the subscription group)")
      ok = false
    }
    switch value["level"] {
    case nil: break
    case .integer(let level)? where level >= 1 && level <= 1000: product.level = Int(level)
    case _?:
      bad("\(here): field 'level': expected an integer ≥ 1 (1 is the highest tier)")
      ok = false
    }
    switch value["period"] {
    case nil: break
    case .string(let text)? where NominalPeriod(rawValue: text) != nil: product.period = NominalPeriod(rawValue: text)
    case _?:
      let names = NominalPeriod.allCases.map(\.rawValue).joined(separator: ", ")
      bad("\(here): field 'period': expected the nominal billing period, one of \(names)")
      ok = false
    }
    return ok
  }

  /// A consumable's `currency` and `units`; false when wrong (said through `bad`).
  private static func parseConsumable(
    _ value: JSONValue, into product: inout Product, here: String, bad: (String) -> Void
  ) -> Bool {
    var ok = true
    switch value["currency"] {
    case nil: break
    case .string(let currency)? where !currency.isEmpty: product.currency = currency
    case _?:
      bad("\(here): field 'currency': expected a non-empty string")
      ok = false
    }
    switch value["units"] {
    case nil: break
    case .integer(let units)? where units >= 1 && units <= Limits.amountMax: product.units = units
    case _?:
      bad("\(here): field 'units': expected an integer ≥ 1")
      ok = false
    }
    return ok
  }
}
