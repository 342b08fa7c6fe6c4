import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerGenerate

/// Shared fixtures and checks for the App Store import tests (the contract check serves the
/// Google Play tests too).
package enum ImportFixtures {
  /// A catalog covering Apple's sample products and the lifecycle tests' products.
  package static let catalogText = """
    {
      "products": {
        "com.example.product":   {"type": "auto_renewable", "group": "55555", "entitlements": ["example"]},
        "com.example.product.2": {"type": "auto_renewable", "group": "55555", "entitlements": ["example"]},
        "pass.premium":          {"type": "auto_renewable", "group": "6F3A93AB", "entitlements": ["premium"]},
        "pro.monthly":    {"type": "auto_renewable", "group": "pro", "level": 1, "entitlements": ["pro"], "family_shareable": true},
        "pro.annual":     {"type": "auto_renewable", "group": "pro", "level": 1, "entitlements": ["pro"], "family_shareable": true},
        "plus.monthly":   {"type": "auto_renewable", "group": "tiers", "level": 2, "entitlements": ["plus"]},
        "premium.monthly":{"type": "auto_renewable", "group": "tiers", "level": 1, "entitlements": ["plus", "premium"]},
        "pro.lifetime":   {"type": "non_consumable", "entitlements": ["pro"], "family_shareable": true},
        "pass.week":      {"type": "non_renewing", "entitlements": ["pro"], "duration": "P7D"},
        "coins.100":      {"type": "consumable", "currency": "coins", "units": 100}
      }
    }
    """

  /// The parsed test catalog.
  package static let catalog = fixtureCatalog(catalogText)

  /// An unsigned JWS around `payload`, shaped like Apple's (the importer does not verify it).
  package static func jws(_ payload: String) -> String {
    let header = #"{"alg":"ES256","typ":"JWT","x5c":["dGVzdA=="]}"#
    return JWS.base64URLEncode(Array(header.utf8)) + "." + JWS.base64URLEncode(Array(payload.utf8))
      + ".c2lnbmF0dXJlLW5vdC12ZXJpZmllZA"
  }

  /// Milliseconds since the epoch of an RFC 3339 timestamp.
  package static func ms(_ rfc3339: String) -> Int64 {
    guard let timestamp = Timestamp.parseRFC3339(rfc3339) else {
      fatalError("bad timestamp in a test: \(rfc3339)")
    }
    return timestamp.millisecondsSinceEpoch
  }

  /// Imports `input`, failing the test (at the caller) with the diagnostics when it throws,
  /// and checking every line against the contract.
  package static func importEvents(
    _ input: String, allowsSandbox: Bool = false, allowsXcode: Bool = false, subjects: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> AppStoreImport? {
    checked(catalog: catalog, sourceLocation: sourceLocation) { () throws(DiagnosticList) in
      try AppStoreImporter.importEvents(
        input, file: "input.jsonl", catalog: catalog,
        options: AppStoreImportOptions(
          subjects: subjects, allowsSandbox: allowsSandbox, allowsXcode: allowsXcode, verification: .skip))
    }
  }

  /// The result of `run`, an import, with every line checked against the contract; nil when it
  /// throws, failing the test at `sourceLocation` with the diagnostics.
  package static func checked(
    catalog: Catalog, sourceLocation: SourceLocation, _ run: () throws(DiagnosticList) -> ImportResult
  ) -> ImportResult? {
    do {
      let result = try run()
      let problems = ContractCheck.problems(result.eventLines, catalog: catalog)
      #expect(
        problems.isEmpty, "lines break the contract: \(problems)", sourceLocation: sourceLocation)
      return result
    } catch {
      Issue.record(
        "import failed: \(error.diagnostics.map(\.description))", sourceLocation: sourceLocation)
      return nil
    }
  }

  /// The diagnostics (as printed) of an import that must fail.
  package static func importErrors(
    _ input: String, allowsSandbox: Bool = false, allowsXcode: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> [String] {
    do {
      let result = try AppStoreImporter.importEvents(
        input, file: "input.jsonl", catalog: catalog,
        options: AppStoreImportOptions(allowsSandbox: allowsSandbox, allowsXcode: allowsXcode, verification: .skip))
      Issue.record("import succeeded with \(result.eventLines)", sourceLocation: sourceLocation)
      return []
    } catch {
      return error.diagnostics.filter { $0.severity == .error }.map(\.description)
    }
  }
}

/// An independent reading of Docs/log-format.md, used to check every line the importer writes.
package enum ContractCheck {
  /// The contract problems of a list of event lines; empty when all is well.
  package static func problems(_ lines: [String], catalog: Catalog) -> [String] {
    var problems: [String] = []
    var ids: Set<String> = []
    var charged: Set<String> = []
    for line in lines {
      guard let value = try? JSONValue.parse(line), let members = value.objectMembers else {
        problems.append("not a JSON object: \(line)")
        continue
      }
      let fields = Dictionary(uniqueKeysWithValues: members)
      func say(_ text: String) { problems.append("\(text): \(line)") }
      guard let type = fields["type"]?.stringValue, let kind = EventKind(name: type) else {
        say("bad type")
        continue
      }
      let common: Set<String> = ["id", "type", "subject", "at", "recorded", "meta"]
      let required: [EventKind: Set<String>] = [
        .purchase: ["product", "transaction"], .purchasePending: ["product"],
        .renewal: ["product", "transaction", "original_transaction", "expires"],
        .billingRetry: ["original_transaction"],
        .graceEntered: ["original_transaction", "grace_expires"],
        .expiration: ["original_transaction"],
        .autoRenewChanged: ["original_transaction", "auto_renew"],
        .planChanged: ["original_transaction", "product"],
        .renewalExtended: ["original_transaction", "expires"],
        .revocation: ["transaction"], .refundReversed: ["transaction"],
        .refundRequested: ["transaction"], .refundDeclined: ["transaction"], .block: ["service"],
        .transfer: ["to"],
      ]
      let optional: [EventKind: Set<String>] = [
        .purchase: [
          "original_transaction", "expires", "quantity", "ownership", "offer", "price", "currency",
          "store", "country", "proceeds",
        ],
        .renewal: ["offer", "price", "currency", "store", "country", "proceeds"],
        .expiration: ["reason"], .revocation: ["reason", "refunded", "quantity"],
        .refundRequested: ["reason", "respond_by"], .block: ["entitlements", "reason"],
        .transfer: ["original_transaction", "transaction"],
      ]
      guard let needed = required[kind] else {
        say("the importer never writes \(type)")
        continue
      }
      if kind == .transfer, (fields["original_transaction"] == nil) == (fields["transaction"] == nil) {
        say("a transfer names its unit by original_transaction or transaction, one of them")
      }
      let allowed = common.union(needed).union(optional[kind] ?? [])
      for key in fields.keys where !allowed.contains(key) { say("field \(key) not allowed") }
      for key in needed.union(["id", "subject", "at"]) where fields[key] == nil {
        say("field \(key) missing")
      }
      guard let id = fields["id"]?.stringValue, (1...128).contains(id.unicodeScalars.count) else {
        say("bad id")
        continue
      }
      if !ids.insert(id).inserted { say("duplicate id") }
      if let subject = fields["subject"]?.stringValue {
        if !(1...256).contains(subject.unicodeScalars.count) { say("bad subject") }
      } else {
        say("subject is not a string")
      }
      var instants: [String: Timestamp] = [:]
      for key in ["at", "recorded", "expires", "grace_expires", "respond_by"] {
        guard let text = fields[key] else { continue }
        guard let string = text.stringValue, let instant = Timestamp.parseRFC3339(string),
          instant.rfc3339 == string
        else {
          say("\(key) is not canonical RFC 3339 UTC")
          continue
        }
        instants[key] = instant
      }
      if let at = instants["at"] {
        for key in ["expires", "grace_expires"] {
          if let end = instants[key], end <= at { say("\(key) not later than at") }
        }
        if instants["recorded"] == at { say("recorded equal to at should be left out") }
      }
      var product: Product?
      if let name = fields["product"] {
        if let index = name.stringValue.flatMap(catalog.index(of:)) {
          product = catalog[index]
        } else {
          say("product not in catalog")
        }
      }
      if kind == .renewal || kind == .planChanged, product?.kind != .autoRenewable {
        say("product of \(type) must be auto_renewable")
      }
      if kind == .purchase, let product {
        switch product.kind {
        case .autoRenewable:
          if fields["expires"] == nil { say("auto_renewable purchase needs expires") }
        case .nonConsumable, .consumable:
          if fields["expires"] != nil { say("expires not allowed for \(product.kind)") }
        case .nonRenewing: break
        }
        if product.kind != .autoRenewable, fields["original_transaction"] != nil {
          say("original_transaction only for auto_renewable")
        }
        if product.kind != .consumable, fields["quantity"] != nil {
          say("quantity only for consumables")
        }
        if fields["ownership"] == .string("family_shared"), !product.isFamilyShareable {
          say("family_shared for a product that is not family_shareable")
        }
      }
      for key in ["transaction", "original_transaction"] {
        if let value = fields[key], value.stringValue?.isEmpty != false {
          say("\(key) must be a non-empty string")
        }
      }
      if kind == .purchase || kind == .renewal, let transaction = fields["transaction"]?.stringValue
      {
        if !charged.insert(transaction).inserted { say("transaction charged twice") }
      }
      let enums: [String: Set<String>] = [
        "ownership": ["purchased", "family_shared"],
        "offer": ["trial", "intro", "promo", "code", "win_back"],
      ]
      for (key, values) in enums {
        if let value = fields[key], !values.contains(value.stringValue ?? "") { say("bad \(key)") }
      }
      if let reason = fields["reason"]?.stringValue, kind != .block {
        let reasons: Set<String> =
          switch kind {
          case .expiration: ["voluntary", "billing", "price_increase", "product_unavailable", "other"]
          case .refundRequested:
            ["unintended_purchase", "fulfillment_issue", "unsatisfied", "legal", "other"]
          default: ["refund", "family_revoked", "other"]
          }
        if !reasons.contains(reason) { say("bad reason") }
      }
      for problem in v13Problems(fields) { say(problem) }
      if (fields["price"] == nil) != (fields["currency"] == nil) {
        say("price and currency go together")
      }
      if let price = fields["price"], case .integer(let number) = price, number >= 0 {
      } else if fields["price"] != nil {
        say("bad price")
      }
      if let quantity = fields["quantity"], case .integer(let number) = quantity, number >= 1 {
      } else if fields["quantity"] != nil {
        say("bad quantity")
      }
      if let autoRenew = fields["auto_renew"], case .bool = autoRenew {
      } else if fields["auto_renew"] != nil {
        say("auto_renew must be a boolean")
      }
      if let meta = fields["meta"], meta.objectMembers == nil { say("meta must be an object") }
      if JSONWriter.compact(value) != line { say("line is not compact with sorted keys") }
    }
    return problems
  }

  /// What contract v1.3 says of `store`, `country`, `proceeds` and `refunded`.
  package static func v13Problems(_ fields: [String: JSONValue]) -> [String] {
    var problems: [String] = []
    if let store = fields["store"] {
      let text = store.stringValue ?? ""
      let allowed = text.utf8.allSatisfy {
        ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 || $0 == 45
      }
      if !(1...32).contains(text.utf8.count) || !allowed { problems.append("bad store") }
    }
    if let country = fields["country"] {
      let text = country.stringValue ?? ""
      if text.utf8.count != 2 || !text.utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }) {
        problems.append("bad country")
      }
    }
    if let proceeds = fields["proceeds"] {
      guard case .integer(let number) = proceeds, case .integer(let price)? = fields["price"],
        number >= 0, number <= price
      else { return problems + ["proceeds need a price and must be 0...price"] }
    }
    if let refunded = fields["refunded"], case .integer(let number) = refunded, number >= 0 {
    } else if fields["refunded"] != nil {
      problems.append("bad refunded")
    }
    return problems
  }
}

/// A deterministic random number generator (SplitMix64) for reproducible shuffles.
package struct SplitMix64: RandomNumberGenerator {
  package var state: UInt64

  package init(state: UInt64) { self.state = state }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
