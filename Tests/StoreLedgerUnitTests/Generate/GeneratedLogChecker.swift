import StoreLedger
import StoreLedgerTestSupport

/// A slow, independent reading of the log format (Docs/log-format.md) for generated logs, kept in the tests.
///
/// It parses every line with `JSONValue.parse` and checks it against the contract's field table
/// as Docs/log-format.md writes it (not the library's), then the log-wide
/// rules: id idempotency, transaction uniqueness, references to transactions
/// the subject already has, and no overdraw in effective order. A `usage` line
/// must name a feature of the catalog's policy by its own lookup of the names,
/// with a non-zero integer quantity of at most a million either way. It also
/// counts what the rate tests look at.
struct GeneratedLogChecker {
  /// Fields every event may have.
  static let common: Set<String> = ["id", "type", "subject", "at", "recorded", "meta"]
  /// Required fields beyond the common ones, per type: Docs/log-format.md's type table, read from
  /// the doc (`DocumentedTypeTable`), not from the library's kind table.
  static let required: [String: Set<String>] = Dictionary(
    DocumentedTypeTable.rows.map { ($0.name, Set($0.required)) }, uniquingKeysWith: { first, _ in first })
  /// Optional fields beyond the common ones, per type.
  static let optional: [String: Set<String>] = Dictionary(
    DocumentedTypeTable.rows.map { ($0.name, Set($0.optional)) }, uniquingKeysWith: { first, _ in first })
  static let refundRequestReasons: Set<String> = [
    "unintended_purchase", "fulfillment_issue", "unsatisfied", "legal", "other",
  ]
  static let offers: Set<String> = ["trial", "intro", "promo", "code", "win_back"]
  static let expirationReasons: Set<String> = [
    "voluntary", "billing", "price_increase", "product_unavailable", "other",
  ]
  static let revocationReasons: Set<String> = ["refund", "family_revoked", "other"]

  /// One distinct event, as the log-wide checks need it.
  struct Entry {
    var line: Int
    var type: String
    var at: Timestamp
    var value: JSONValue
  }

  let catalog: Catalog
  /// The names of the policy's features, read from the catalog's own list.
  let featureNames: Set<String>
  /// Every violation found, worded with its line number.
  private(set) var problems: [String] = []
  /// Lines read.
  private(set) var lines = 0
  /// Lines that repeat an earlier id with equal fields.
  private(set) var duplicates = 0
  /// Duplicates whose `recorded` differs from the first line's.
  private(set) var duplicatesWithNewRecorded = 0
  /// Distinct events per type.
  private(set) var countsByType: [String: Int] = [:]
  /// Distinct events per value of selected fields, such as `offer=trial` or `reason=refund`.
  private(set) var countsByValue: [String: Int] = [:]
  /// Distinct events with `recorded` at least a day after `at`.
  private(set) var lateKnowledge = 0
  /// Distinct events written after a line of the same subject with a later `at`.
  private(set) var outOfOrder = 0
  /// Distinct `usage` events with a negative quantity (held items released).
  private(set) var releases = 0
  /// The sum of `quantity` (default 1) of distinct `usage` events, per feature.
  private(set) var usageQuantityByFeature: [String: Int64] = [:]
  /// A subject and a day (UTC), for counting uses per active day.
  struct SubjectDay: Hashable {
    var subject: String
    var day: Int64
  }
  /// Distinct `usage` events per subject and day.
  private(set) var usageBySubjectDay: [SubjectDay: Int] = [:]
  /// Distinct `usage` events less than a minute after the subject's previous use (bursts).
  private(set) var usesWithinAMinute = 0
  /// `usage` events learned at least a day late, redelivered, or written out of order.
  private(set) var usageLateKnowledge = 0
  private(set) var usageDuplicates = 0
  private(set) var usageOutOfOrder = 0
  /// Distinct events per subject.
  private(set) var eventsBySubject: [String: Int] = [:]
  /// Timestamps written with and without milliseconds.
  private(set) var timestampsWithMilliseconds = 0
  private(set) var timestampsInSeconds = 0
  /// The earliest `at` and the latest `at` or `recorded` seen.
  private(set) var earliest = Timestamp.distantFuture
  private(set) var latest = Timestamp.distantPast

  private var firstLineOfID: [String: (line: Int, value: JSONValue, recorded: JSONValue?)] = [:]
  private var firstLineOfTransaction: [String: Int] = [:]
  private var latestAtBySubject: [String: Timestamp] = [:]
  private var entriesBySubject: [String: [Entry]] = [:]
  /// v1.3: each charge's price (nil without one), product kind and quantity, by transaction.
  private var charges: [String: (price: Int64?, kind: ProductKind?, quantity: Int64)] = [:]
  /// v1.3: the subjects with a line other than a transfer naming each unit (`t:` transaction,
  /// `o:` original transaction), the transfers of each unit, and the ids of each subject's grants.
  private var subjectsNamingUnit: [String: Set<String>] = [:]
  private var transfersOfUnit: [String: [(at: Timestamp, line: Int, subject: String, to: String)]] = [:]
  private var grantIDsBySubject: [String: Set<String>] = [:]
  /// Distinct `transfer` events, and those that move a unit back to a subject that held it.
  private(set) var transfersBack = 0

  /// A checker for logs that use `catalog`.
  init(catalog: Catalog) {
    self.catalog = catalog
    featureNames = Set(catalog.policy?.features.map(\.name) ?? [])
  }

  private mutating func fail(_ line: Int, _ message: String) {
    if problems.count < 50 { problems.append("line \(line): \(message)") }
  }

  /// Checks a whole log; read `problems` and the counts afterwards.
  mutating func check(log: [UInt8]) {
    if let last = log.last, last != 10 { fail(0, "the log does not end in a newline") }
    var start = 0
    var lineNumber = 0
    for index in log.indices where log[index] == 10 {
      lineNumber += 1
      checkLine(Array(log[start..<index]), line: lineNumber)
      start = index + 1
    }
    lines = lineNumber
    checkTransferChains()
    for (subject, entries) in entriesBySubject {
      checkEffectiveOrder(subject: subject, entries: entries)
    }
  }

  /// Contract v1.3 §9, as the whole log knows it: every chain starts at a subject with a line
  /// naming the unit and goes on from each transfer's `to`; no consumable moves.
  private mutating func checkTransferChains() {
    for (unit, transfers) in transfersOfUnit {
      let ordered = transfers.sorted { $0.at != $1.at ? $0.at < $1.at : $0.line < $1.line }
      if unit.hasPrefix("t:"), charges[String(unit.dropFirst(2))]?.kind == .consumable {
        fail(ordered[0].line, "transfer of a consumable purchase")
      }
      if !(subjectsNamingUnit[unit] ?? []).contains(ordered[0].subject) {
        fail(ordered[0].line, "first transfer of \(unit) from a subject with no line naming it")
      }
      var held: Set<String> = [ordered[0].subject]
      for (previous, transfer) in zip(ordered, ordered.dropFirst()) where transfer.subject != previous.to {
        fail(transfer.line, "transfer of \(unit) from \(transfer.subject), not its owner \(previous.to)")
      }
      for transfer in ordered {
        if held.contains(transfer.to) { transfersBack += 1 }
        held.insert(transfer.to)
      }
    }
  }

  /// The units transferred to `subject` at any time, as `t:`/`o:` keys.
  private func unitsTransferred(to subject: String) -> (transactions: Set<String>, originals: Set<String>) {
    var transactions: Set<String> = []
    var originals: Set<String> = []
    for (unit, transfers) in transfersOfUnit where transfers.contains(where: { $0.to == subject }) {
      if unit.hasPrefix("t:") { transactions.insert(String(unit.dropFirst(2))) } else { originals.insert(String(unit.dropFirst(2))) }
    }
    return (transactions, originals)
  }

  private mutating func checkLine(_ bytes: [UInt8], line: Int) {
    guard !bytes.isEmpty else { return fail(line, "empty line") }
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes: bytes)
    } catch {
      return fail(line, "invalid JSON: \(error.detail) at column \(error.column)")
    }
    guard let members = value.objectMembers else { return fail(line, "not an object") }
    guard let type = value["type"]?.stringValue, let required = Self.required[type] else {
      return fail(line, "missing or unknown type")
    }
    let allowed = Self.common.union(required).union(Self.optional[type] ?? [])
    let keys = Set(members.map(\.0))
    for key in keys.subtracting(allowed) { fail(line, "field '\(key)' not allowed in \(type)") }
    for key in required.union(["id", "subject", "at"]).subtracting(keys) {
      fail(line, "field '\(key)' missing in \(type)")
    }
    guard let id = value["id"]?.stringValue, (1...128).contains(id.unicodeScalars.count) else {
      return fail(line, "id must be a string of 1–128 characters")
    }
    guard let subject = value["subject"]?.stringValue,
      (1...256).contains(subject.unicodeScalars.count)
    else { return fail(line, "subject must be a string of 1–256 characters") }
    guard let at = timestamp(value["at"], line: line, field: "at") else { return }
    var recorded: Timestamp? = nil
    if value["recorded"] != nil {
      recorded = timestamp(value["recorded"], line: line, field: "recorded")
      if let recorded, recorded < at { fail(line, "recorded before at") }
    }
    if let meta = value["meta"], meta.objectMembers == nil { fail(line, "meta must be an object") }
    earliest = min(earliest, at)
    latest = max(latest, recorded ?? at)

    // Idempotency: a repeated id must be the same event, ignoring `recorded`.
    let withoutRecorded = JSONValue.object(members.filter { $0.0 != "recorded" })
    if let first = firstLineOfID[id] {
      if first.value == withoutRecorded {
        duplicates += 1
        if type == "usage" { usageDuplicates += 1 }
        if first.recorded != value["recorded"] { duplicatesWithNewRecorded += 1 }
      } else {
        fail(line, "id \(id) conflicts with line \(first.line)")
      }
      return
    }
    firstLineOfID[id] = (line, withoutRecorded, value["recorded"])

    checkFields(value, type: type, at: at, line: line)
    noteContract13(value, type: type, subject: subject, id: id, at: at, line: line)
    if type == "purchase" || type == "renewal", let transaction = value["transaction"]?.stringValue
    {
      if let first = firstLineOfTransaction[transaction] {
        fail(line, "transaction \(transaction) already used on line \(first)")
      }
      firstLineOfTransaction[transaction] = line
    }

    countsByType[type, default: 0] += 1
    for field in ["offer", "reason", "ownership", "currency", "feature"] {
      if let text = value[field]?.stringValue { countsByValue["\(field)=\(text)", default: 0] += 1 }
    }
    for field in ["service", "store", "country"] {
      if let text = value[field]?.stringValue { countsByValue["\(field)=\(text)", default: 0] += 1 }
    }
    if type == "transfer" {
      countsByValue[value["transaction"] != nil ? "transfer=transaction" : "transfer=original_transaction", default: 0] += 1
    }
    if value["proceeds"] != nil { countsByValue["proceeds", default: 0] += 1 }
    if value["price"] != nil { countsByValue["price", default: 0] += 1 }
    if value["meta"] != nil { countsByValue["meta", default: 0] += 1 }
    if let recorded, recorded.millisecondsSinceEpoch - at.millisecondsSinceEpoch >= 86_400_000 {
      lateKnowledge += 1
      if type == "usage" { usageLateKnowledge += 1 }
    }
    eventsBySubject[subject, default: 0] += 1
    if type == "usage" {
      let day = at.millisecondsSinceEpoch >= 0 ? at.millisecondsSinceEpoch / 86_400_000 : -1
      usageBySubjectDay[SubjectDay(subject: subject, day: day), default: 0] += 1
    }
    if let latestAt = latestAtBySubject[subject], at < latestAt {
      outOfOrder += 1
      if type == "usage" { usageOutOfOrder += 1 }
    } else {
      latestAtBySubject[subject] = at
    }
    entriesBySubject[subject, default: []].append(
      Entry(line: line, type: type, at: at, value: value))
  }

  /// Keeps what the log-wide v1.3 rules need: charges, the subjects naming each unit,
  /// transfers and grants.
  private mutating func noteContract13(
    _ value: JSONValue, type: String, subject: String, id: String, at: Timestamp, line: Int
  ) {
    let transaction = value["transaction"]?.stringValue
    let original = value["original_transaction"]?.stringValue
    if type == "transfer" {
      guard let to = value["to"]?.stringValue, !to.isEmpty, to != subject else {
        return fail(line, "transfer to must be another subject")
      }
      guard (transaction == nil) != (original == nil) else {
        return fail(line, "transfer names its unit by transaction or original_transaction, never both")
      }
      let unit = transaction.map { "t:" + $0 } ?? "o:" + original!
      transfersOfUnit[unit, default: []].append((at, line, subject, to))
      return
    }
    if type == "grant" { grantIDsBySubject[subject, default: []].insert(id) }
    if let transaction { subjectsNamingUnit["t:" + transaction, default: []].insert(subject) }
    if let original { subjectsNamingUnit["o:" + original, default: []].insert(subject) }
    if type == "purchase", value["original_transaction"] == nil, let transaction {
      subjectsNamingUnit["o:" + transaction, default: []].insert(subject)
    }
    guard type == "purchase" || type == "renewal", let transaction else { return }
    var price: Int64? = nil
    if case .integer(let amount)? = value["price"] { price = amount }
    var quantity: Int64 = 1
    if case .integer(let amount)? = value["quantity"] { quantity = amount }
    let kind = value["product"]?.stringValue.flatMap { catalog.index(of: $0) }.map { catalog[$0].kind }
    charges[transaction] = (price, kind, quantity)
  }

  /// A canonical UTC timestamp: parses, and prints back identically (`Z`, `.mmm` only when non-zero).
  private mutating func timestamp(_ value: JSONValue?, line: Int, field: String) -> Timestamp? {
    guard let text = value?.stringValue, let parsed = Timestamp.parseRFC3339(text) else {
      fail(line, "field '\(field)' is not an RFC 3339 timestamp")
      return nil
    }
    if parsed.rfc3339 != text {
      fail(line, "field '\(field)' is not in canonical UTC form: \(text)")
    }
    if text.count == 24 { timestampsWithMilliseconds += 1 } else { timestampsInSeconds += 1 }
    return parsed
  }

  private mutating func checkFields(_ value: JSONValue, type: String, at: Timestamp, line: Int) {
    var product: Product? = nil
    if value["product"] != nil {
      guard let name = value["product"]?.stringValue, let index = catalog.index(of: name) else {
        return fail(line, "unknown product")
      }
      product = catalog[index]
    }
    for field in ["transaction", "original_transaction"] where value[field] != nil {
      if value[field]?.stringValue?.isEmpty != false {
        fail(line, "\(field) must be a non-empty string")
      }
    }
    for field in ["expires", "grace_expires"] where value[field] != nil {
      if let expires = timestamp(value[field], line: line, field: field), expires <= at {
        fail(line, "\(field) is not later than at")
      }
    }
    if (value["price"] == nil) != (value["currency"] == nil) && type != "consumption" {
      fail(line, "price and currency must come together")
    }
    if let price = value["price"] {
      guard case .integer(let amount) = price, amount >= 0 else { return fail(line, "bad price") }
      let code = value["currency"]?.stringValue ?? ""
      if code.utf8.count != 3 || !code.utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }) {
        fail(line, "currency \(code) is not an ISO 4217 code")
      }
    }
    if let offer = value["offer"], !Self.offers.contains(offer.stringValue ?? "") {
      fail(line, "bad offer")
    }
    checkContract13Fields(value, type: type, line: line)
    switch type {
    case "purchase":
      guard let product else { return }
      let kind = product.kind
      if kind == .autoRenewable, value["expires"] == nil {
        fail(line, "auto-renewable purchase without expires")
      }
      if kind == .nonConsumable || kind == .consumable, value["expires"] != nil {
        fail(line, "expires not allowed for \(kind.rawValue)")
      }
      if kind != .autoRenewable, value["original_transaction"] != nil {
        fail(line, "original_transaction only for auto_renewable")
      }
      if let quantity = value["quantity"] {
        if kind != .consumable { fail(line, "quantity only for consumables") }
        guard case .integer(let amount) = quantity, amount >= 1 else {
          return fail(line, "bad quantity")
        }
      }
      if let ownership = value["ownership"] {
        switch ownership.stringValue {
        case "purchased"?: break
        case "family_shared"?:
          if !product.isFamilyShareable { fail(line, "family_shared on \(product.id)") }
        default: fail(line, "bad ownership")
        }
      }
    case "renewal", "plan_changed":
      if let product, product.kind != .autoRenewable {
        fail(line, "\(type) of a non-auto-renewable")
      }
    case "auto_renew_changed":
      guard case .bool = value["auto_renew"] else {
        return fail(line, "auto_renew must be a boolean")
      }
    case "expiration":
      if let reason = value["reason"], !Self.expirationReasons.contains(reason.stringValue ?? "") {
        fail(line, "bad expiration reason")
      }
    case "revocation":
      if let reason = value["reason"], !Self.revocationReasons.contains(reason.stringValue ?? "") {
        fail(line, "bad revocation reason")
      }
    case "usage":
      guard let feature = value["feature"]?.stringValue, featureNames.contains(feature) else {
        return fail(line, "usage of a feature that is not in the catalog's policy")
      }
      var quantity: Int64 = 1
      if let written = value["quantity"] {
        guard case .integer(let amount) = written, amount != 0, amount.magnitude <= 1_000_000 else {
          return fail(line, "bad usage quantity \(written)")
        }
        quantity = amount
      }
      if quantity < 0 { releases += 1 }
      usageQuantityByFeature[feature, default: 0] += quantity
    case "consumption":
      if value["currency"]?.stringValue?.isEmpty != false { fail(line, "bad consumption currency") }
      guard case .integer(let amount)? = value["quantity"], amount >= 1 else {
        return fail(line, "bad consumption quantity")
      }
    default:
      break
    }
  }

  /// The v1.3 fields' own rules (contract §1, §10, §11); references are checked log-wide.
  private mutating func checkContract13Fields(_ value: JSONValue, type: String, line: Int) {
    if let store = value["store"] {
      let text = store.stringValue ?? ""
      let allowed = text.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 || $0 == 45 }
      if !(1...32).contains(text.utf8.count) || !allowed { fail(line, "bad store \(text)") }
    }
    if let country = value["country"] {
      let text = country.stringValue ?? ""
      if text.utf8.count != 2 || !text.utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }) { fail(line, "bad country \(text)") }
    }
    if let proceeds = value["proceeds"] {
      guard case .integer(let amount) = proceeds, case .integer(let price)? = value["price"], amount >= 0, amount <= price else {
        return fail(line, "proceeds must be 0 to the price, with a price")
      }
    }
    if type == "revocation" {
      for field in ["refunded", "quantity"] where value[field] != nil {
        guard case .integer(let amount)? = value[field], amount >= (field == "quantity" ? 1 : 0) else {
          return fail(line, "bad revocation \(field)")
        }
      }
    }
    if let entitlements = value["entitlements"] {
      guard case .array(let items) = entitlements else { return fail(line, "entitlements must be a list") }
      let names = items.compactMap(\.stringValue)
      let known = Set(catalog.products.flatMap(\.entitlements))
      if names.isEmpty || names.count != items.count || !names.allSatisfy(known.contains) {
        fail(line, "entitlements must be a non-empty list of the catalog's entitlements")
      }
    }
    if let service = value["service"]?.stringValue, !(1...64).contains(service.unicodeScalars.count) {
      fail(line, "bad service")
    }
    if ["grant", "grant_revoked", "block", "unblock"].contains(type), let reason = value["reason"] {
      if !(1...256).contains(reason.stringValue?.unicodeScalars.count ?? 0) { fail(line, "bad \(type) reason") }
    }
    if type == "refund_requested" {
      if let reason = value["reason"], !Self.refundRequestReasons.contains(reason.stringValue ?? "") {
        fail(line, "bad refund request reason")
      }
      if value["respond_by"] != nil { _ = timestamp(value["respond_by"], line: line, field: "respond_by") }
    }
  }

  /// A revocation's `refunded` (at most the charge's price, which it must have) and `quantity`
  /// (a consumable's, at most the packs bought).
  private mutating func checkRefundAmounts(_ value: JSONValue, type: String, transaction: String, line: Int) {
    guard type == "revocation", let charge = charges[transaction] else { return }
    if case .integer(let refunded)? = value["refunded"] {
      guard let price = charge.price, refunded <= price else { return fail(line, "refunded above the price or without one") }
      countsByValue["refunded<price", default: 0] += refunded < price ? 1 : 0
    }
    if case .integer(let packs)? = value["quantity"] {
      if charge.kind != .consumable || packs > charge.quantity { fail(line, "revocation quantity beyond the packs bought") }
      countsByValue["partial packs", default: 0] += packs < charge.quantity ? 1 : 0
    }
  }

  /// References and balances of one subject, in effective order (`at`, then line).
  private mutating func checkEffectiveOrder(subject: String, entries: [Entry]) {
    // A unit transferred to the subject is its to refer to (as the whole log knows it).
    var (transactions, originalTransactions) = unitsTransferred(to: subject)
    var credits: [String: (currency: String, amount: Int64, units: Int64)] = [:]
    var debits: [String: Int64] = [:]
    var balances: [String: Int64] = [:]
    let ordered = entries.sorted { $0.at != $1.at ? $0.at < $1.at : $0.line < $1.line }
    var previousUse: Timestamp? = nil
    for entry in ordered {
      if entry.type == "usage" {
        if let previousUse, entry.at.millisecondsSinceEpoch - previousUse.millisecondsSinceEpoch < 60_000 {
          usesWithinAMinute += 1
        }
        previousUse = entry.at
      }
      let value = entry.value
      let transaction = value["transaction"]?.stringValue
      let originalTransaction = value["original_transaction"]?.stringValue
      switch entry.type {
      case "purchase":
        guard let transaction, let name = value["product"]?.stringValue,
          let index = catalog.index(of: name)
        else { continue }
        let product = catalog[index]
        if let originalTransaction, originalTransaction != transaction,
          !originalTransactions.contains(originalTransaction)
        {
          fail(entry.line, "upgrade of unknown original transaction \(originalTransaction)")
        }
        transactions.insert(transaction)
        if product.kind == .autoRenewable {
          originalTransactions.insert(originalTransaction ?? transaction)
        }
        if product.kind == .consumable {
          var quantity: Int64 = 1
          if case .integer(let amount)? = value["quantity"] { quantity = amount }
          let credit = quantity * product.units
          credits[transaction] = (product.currency, credit, product.units)
          balances[product.currency, default: 0] += credit
        }
      case "renewal":
        if let transaction { transactions.insert(transaction) }
        if let originalTransaction { originalTransactions.insert(originalTransaction) }
      case "revocation", "refund_reversed", "refund_requested", "refund_declined":
        guard let transaction else { continue }
        if !transactions.contains(transaction) {
          fail(
            entry.line,
            "\(entry.type) of transaction \(transaction) unknown to \(subject) at that point")
        }
        checkRefundAmounts(value, type: entry.type, transaction: transaction, line: entry.line)
        if let credit = credits[transaction] {
          if entry.type == "revocation" {
            var packs = credit.amount / max(1, credit.units)
            if case .integer(let amount)? = value["quantity"] { packs = amount }
            debits[transaction] = packs * credit.units
            balances[credit.currency, default: 0] -= packs * credit.units
          } else if entry.type == "refund_reversed" {
            balances[credit.currency, default: 0] += debits[transaction] ?? credit.amount
          }
        }
      case "grant_revoked":
        if let grant = value["grant"]?.stringValue, !(grantIDsBySubject[subject] ?? []).contains(grant) {
          fail(entry.line, "grant_revoked names no grant of \(subject)")
        }
      case "grant", "block", "unblock", "transfer":
        break
      case "consumption":
        guard let currency = value["currency"]?.stringValue,
          case .integer(let quantity)? = value["quantity"]
        else { continue }
        let balance = balances[currency, default: 0]
        if balance < quantity {
          fail(entry.line, "consumption of \(quantity) \(currency) overdraws balance \(balance)")
        }
        balances[currency] = balance - quantity
      case "purchase_pending", "usage":
        break
      default:
        if let originalTransaction, !originalTransactions.contains(originalTransaction) {
          fail(
            entry.line,
            "\(entry.type) of original transaction \(originalTransaction) unknown to \(subject) at that point"
          )
        }
      }
    }
  }
}
