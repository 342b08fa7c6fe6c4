import StoreLedgerCore

extension AppStoreImporter {
  /// The prefix that marks every value `emitCatalog` had to invent.
  package static let catalogPlaceholderPrefix = "TODO:"

  /// A starting catalog (Docs/log-format.md, "The catalog") for the products that `inputText`'s payloads name.
  ///
  /// Types come from each transaction's `type`, groups from `subscriptionGroupIdentifier`, and
  /// `family_shareable` is set when a FAMILY_SHARED transaction was seen. A renewal preference's
  /// `autoRenewProductId` is added to the group of its transaction. What payloads cannot tell is
  /// a placeholder starting with `TODO:`: entitlement ids (`TODO:entitlement-for-…`; one per
  /// subscription group, so a group's products share an entitlement until edited) and a
  /// non-renewing product's duration (`TODO:duration`, which the catalog parser rejects on
  /// purpose so that it cannot be forgotten). Levels are left out.
  /// - Throws: invalid input, a payload without `type`, or a product seen with two types or
  ///   groups.
  /// - Complexity: O(n log n) in the number of payloads.
  package static func emitCatalog(_ inputText: String, file: String) throws(DiagnosticList)
    -> String
  {
    var problems = ImportProblems(file: file)
    let (documents, syntaxErrors) = ImportInput.documents(in: inputText, file: file)
    problems.errors += syntaxErrors
    let payloads = AppStoreDocuments.payloads(in: documents, &problems)
    var drafts = CatalogDrafts()
    for payload in payloads {
      switch payload {
      case .transaction(let transaction):
        drafts.add(transaction, &problems)
      case .notification(let notification):
        if let transaction = notification.transaction {
          drafts.add(transaction, &problems)
          drafts.addRenewalTarget(notification.renewalInfo, of: transaction, &problems)
        }
      case .subscriptionStatus(let entry):
        drafts.add(entry.transaction, &problems)
        drafts.addRenewalTarget(entry.renewalInfo, of: entry.transaction, &problems)
      case .ignored:
        break
      }
    }
    guard problems.errors.isEmpty else {
      throw DiagnosticList(problems.errors + problems.warnings)
    }
    return JSONWriter.pretty(.object([("products", .object(drafts.products()))])) + "\n"
  }
}

/// Products gathered from payloads by `emitCatalog`, checked for agreement.
private struct CatalogDrafts {
  /// What the payloads say about one product.
  struct Draft {
    var kind: ProductKind
    var group: String?
    var isFamilyShared: Bool
    var line: Int
    /// Nominal periods the payloads state (`advancedCommerceInfo.period`), by how often.
    var statedPeriods: [NominalPeriod: Int] = [:]
    /// Nominal periods nearest to full-price transactions' lengths, by how often.
    var measuredPeriods: [NominalPeriod: Int] = [:]

    /// The plan's period: the one stated most often, else the length measured most often
    /// (ties to the shorter); nil when no transaction tells.
    var period: NominalPeriod? {
      let counts = statedPeriods.isEmpty ? measuredPeriods : statedPeriods
      return NominalPeriod.allCases.filter { counts[$0] != nil }
        .max { (counts[$0]!, $0.periodsPerYear) < (counts[$1]!, $1.periodsPerYear) }
    }
  }

  var drafts: [String: Draft] = [:]

  /// Adds a transaction's product.
  mutating func add(_ transaction: TransactionPayload, _ problems: inout ImportProblems) {
    let field = AppStoreMapper.field(transaction.path, "type")
    guard let raw = transaction.productType else {
      problems.error(
        transaction.line,
        "field '\(field)' is missing; it is needed to tell the type of product '\(transaction.productID)'"
      )
      return
    }
    guard let kind = AppStoreProductType.kind(raw) else {
      problems.error(
        transaction.line,
        "field '\(field)': unknown product type \"\(raw)\" for '\(transaction.productID)'; write its catalog entry by hand"
      )
      return
    }
    var group: String?
    if kind == .autoRenewable {
      guard let identifier = transaction.subscriptionGroupID, !identifier.isEmpty else {
        problems.error(
          transaction.line,
          "field '\(AppStoreMapper.field(transaction.path, "subscriptionGroupIdentifier"))' is missing; it is needed for the auto-renewable product '\(transaction.productID)'"
        )
        return
      }
      group = identifier
    }
    var draft = Draft(
      kind: kind, group: group, isFamilyShared: transaction.ownership == "FAMILY_SHARED",
      line: transaction.line)
    if kind == .autoRenewable { Self.addPeriod(of: transaction, to: &draft) }
    merge(transaction.productID, draft, &problems)
  }

  /// Counts the plan period a transaction tells: the one it states, else (a full-price
  /// transaction only: an offer's period is not the plan's) its length rounded to the nearest
  /// nominal period.
  private static func addPeriod(of transaction: TransactionPayload, to draft: inout Draft) {
    if let stated = transaction.plan.statedPeriod.flatMap(NominalPeriod.init(rawValue:)) {
      draft.statedPeriods[stated, default: 0] += 1
    } else if transaction.offerType == nil, let expires = transaction.expiresDate,
      expires > transaction.purchaseDate
    {
      let length = expires.millisecondsSinceEpoch - transaction.purchaseDate.millisecondsSinceEpoch
      let period =
        transaction.environment == "Sandbox" ? sandboxPeriod(length) : NominalPeriod.nearest(toMilliseconds: length)
      draft.measuredPeriods[period, default: 0] += 1
    }
  }

  /// Sandbox renews on Apple's accelerated clock (a week lasts 3 minutes, a month 5, two months
  /// 10, three 15, six 30, a year an hour): the nominal period nearest to `length` on it.
  private static func sandboxPeriod(_ length: Int64) -> NominalPeriod {
    let minutes: [(NominalPeriod, Int64)] = [
      (.week, 3), (.month, 5), (.twoMonths, 10), (.quarter, 15), (.halfYear, 30), (.year, 60),
    ]
    return minutes.min { abs($0.1 * 60_000 - length) < abs($1.1 * 60_000 - length) }!.0
  }

  /// Adds the product a subscription renews to: an auto-renewable of the same group.
  mutating func addRenewalTarget(
    _ renewal: RenewalInfoPayload?, of transaction: TransactionPayload,
    _ problems: inout ImportProblems
  ) {
    guard let next = renewal?.autoRenewProductID, next != transaction.productID,
      let group = transaction.subscriptionGroupID,
      AppStoreProductType.kind(transaction.productType ?? "") == .autoRenewable
    else { return }
    merge(
      next,
      Draft(kind: .autoRenewable, group: group, isFamilyShared: false, line: transaction.line),
      &problems)
  }

  private mutating func merge(_ id: String, _ draft: Draft, _ problems: inout ImportProblems) {
    guard var known = drafts[id] else {
      drafts[id] = draft
      return
    }
    if known.kind != draft.kind || known.group != draft.group {
      problems.error(
        draft.line,
        "product '\(id)' is \(describe(draft)) here but \(describe(known)) on line \(known.line)")
      return
    }
    known.isFamilyShared = known.isFamilyShared || draft.isFamilyShared
    known.statedPeriods.merge(draft.statedPeriods, uniquingKeysWith: +)
    known.measuredPeriods.merge(draft.measuredPeriods, uniquingKeysWith: +)
    drafts[id] = known
  }

  private func describe(_ draft: Draft) -> String {
    draft.kind.rawValue + (draft.group.map { " in group '\($0)'" } ?? "")
  }

  /// The catalog's `products` members.
  func products() -> [(String, JSONValue)] {
    let placeholder = AppStoreImporter.catalogPlaceholderPrefix
    return drafts.keys.sorted().map { id in
      let draft = drafts[id]!
      var members: [(String, JSONValue)] = [("type", .string(draft.kind.rawValue))]
      switch draft.kind {
      case .autoRenewable:
        let group = draft.group ?? ""
        members.append(("group", .string(group)))
        if let period = draft.period { members.append(("period", .string(period.rawValue))) }
        members.append(
          ("entitlements", .array([.string(placeholder + "entitlement-for-group-" + group)])))
      case .nonRenewing:
        members.append(("duration", .string(placeholder + "duration")))
        members.append(("entitlements", .array([.string(placeholder + "entitlement-for-" + id)])))
      case .nonConsumable:
        members.append(("entitlements", .array([.string(placeholder + "entitlement-for-" + id)])))
      case .consumable:
        break
      }
      if draft.isFamilyShared && draft.kind != .consumable {
        members.append(("family_shareable", .bool(true)))
      }
      return (id, .object(members))
    }
  }
}
