import StoreLedgerCore

/// What one copy of a transaction of a transferable unit says about its owner.
struct AppStoreOwnerClaim {
  /// The unit: the `original_transaction` of an auto-renewable, else the transaction.
  var unit: String
  /// Whether the unit is an auto-renewable subscription (a transfer names it by
  /// `original_transaction`) rather than a purchase (by `transaction`).
  var isSubscription: Bool
  /// `transactionId`.
  var transactionID: String
  /// `purchaseDate`.
  var purchaseDate: Timestamp
  /// `signedDate` of this copy.
  var signedDate: Timestamp?
  /// The subject the copy names.
  var owner: String
  /// Whether an `appAccountToken` names it (else it is a fallback that names no account).
  var isNamed: Bool
  /// The input line.
  var line: Int
  /// `environment`, for the transfer's `meta`.
  var environment: String?
}

extension AppStoreMapper {
  /// Notes who a transaction of a transferable unit (not a consumable: its credit stays with
  /// its buyer) names as the owner.
  mutating func claimOwner(_ transaction: TransactionPayload, product: Product, subject: String) {
    guard product.kind != .consumable else { return }
    let isSubscription = product.kind == .autoRenewable
    let token = transaction.appAccountToken ?? ""
    ownerClaims.append(
      AppStoreOwnerClaim(
        unit: isSubscription ? transaction.originalTransactionID : transaction.transactionID,
        isSubscription: isSubscription, transactionID: transaction.transactionID,
        purchaseDate: transaction.purchaseDate, signedDate: transaction.signedDate, owner: subject,
        isNamed: !token.isEmpty, line: transaction.line, environment: transaction.environment))
  }

  /// Gives every event of a unit the subject it was first imported under (the log's, else the
  /// one the earliest transaction naming an account names), and writes a `transfer` where a
  /// later transaction names another account (contract v1.3, section 9).
  /// - Complexity: O(n log n) in the events and claims.
  mutating func settleOwners(_ knowledge: LedgerKnowledge) {
    let byUnit = Dictionary(grouping: ownerClaims, by: \.unit)
    var transactionUnits: [String: String] = [:]
    for claim in ownerClaims { transactionUnits[claim.transactionID] = claim.unit }
    var firstOwners: [String: String] = [:]
    for (unit, claims) in byUnit {
      let earliest = claims.sorted {
        ($0.isNamed ? 0 : 1, $0.purchaseDate, $0.signedDate ?? $0.purchaseDate, $0.owner)
          < ($1.isNamed ? 0 : 1, $1.purchaseDate, $1.signedDate ?? $1.purchaseDate, $1.owner)
      }[0]
      firstOwners[unit] = knowledge.appStoreUnitSubjects[unit] ?? earliest.owner
    }
    func unit(ofTransaction transaction: String) -> String? {
      if let unit = transactionUnits[transaction] { return unit }
      return knowledge.charges[transaction].map { $0.originalTransaction ?? transaction }
    }
    for index in events.indices {
      let event = events[index].event
      guard
        let unit = event.originalTransaction?.rawValue
          ?? event.transaction.flatMap({ unit(ofTransaction: $0.rawValue) }),
        let subject = firstOwners[unit] ?? knowledge.appStoreUnitSubjects[unit]
      else { continue }
      events[index].subject = subject
    }
    for unit in byUnit.keys.sorted() {
      transfers(of: unit, claims: byUnit[unit]!, firstOwner: firstOwners[unit]!, knowledge)
    }
  }

  /// Writes the transfers that make the unit's claims true.
  private mutating func transfers(
    of unit: String, claims: [AppStoreOwnerClaim], firstOwner: String, _ knowledge: LedgerKnowledge
  ) {
    var ownership = UnitOwnership(firstOwner: firstOwner, known: knowledge.transfers[unit] ?? [])
    let ownerClaims = Self.ownerClaims(claims, ownership: ownership, knowledge)
    let (changes, refused) = ownership.changes(for: ownerClaims)
    let first = claims.min { ($0.line, $0.transactionID) < ($1.line, $1.transactionID) }!
    let field = first.isSubscription ? "original_transaction" : "transaction"
    for claim in refused {
      problems.warning(
        claim.line,
        "the App Store names '\(claim.owner)' as the owner of \(field) '\(unit)' from \(claim.at.rfc3339), but the log moves it later from another subject; no transfer is written for it (a transfer comes from the unit's owner, contract section 9): write one by hand if '\(claim.owner)' owned it"
      )
    }
    for change in changes {
      let id = "appstore:\(unit):transfer:\(change.at.millisecondsSinceEpoch)"
      let line = change.line == 0 ? first.line : change.line
      transferNotes[id] = "\(field) '\(unit)' from '\(change.from)' to '\(change.to)' at \(change.at.rfc3339)"
      emit(
        ImportedEvent(
          id: id, kind: .transfer, subject: change.from, at: change.at, recorded: change.recorded,
          meta: baseMeta(environment: first.environment), line: line, identity: id
        ) { $0.setTransfer(to: change.to, unit: unit, isSubscription: first.isSubscription) })
    }
  }

  /// The claims of a unit's transactions: the earliest-signed copy of a transaction the log
  /// does not hold names its owner from `purchaseDate`; a copy naming another owner (Apple
  /// re-signed it after Set App Account Token) shows that owner from its `signedDate`. A charge
  /// the log holds, and this import does not carry, keeps the owner the log gives it then.
  private static func ownerClaims(
    _ claims: [AppStoreOwnerClaim], ownership: UnitOwnership, _ knowledge: LedgerKnowledge
  ) -> [OwnerClaim] {
    var result: [OwnerClaim] = []
    let byTransaction = Dictionary(grouping: claims.filter(\.isNamed), by: \.transactionID)
    for (transaction, copies) in byTransaction {
      let ordered = copies.sorted {
        ($0.signedDate ?? $0.purchaseDate, $0.owner) < ($1.signedDate ?? $1.purchaseDate, $1.owner)
      }
      let base: String
      if knowledge.charges[transaction] != nil {
        base = ownership.owner(at: ordered[0].purchaseDate)
      } else {
        base = ordered[0].owner
        result.append(
          OwnerClaim(owner: base, at: ordered[0].purchaseDate, recorded: ordered[0].signedDate, line: ordered[0].line))
      }
      var seen: Set<String> = [base]
      for copy in ordered where seen.insert(copy.owner).inserted {
        let at = max(copy.signedDate ?? copy.purchaseDate, copy.purchaseDate)
        result.append(OwnerClaim(owner: copy.owner, at: at, recorded: copy.signedDate, line: copy.line))
      }
    }
    guard let unit = claims.first?.unit else { return result }
    let carried = Set(claims.map(\.transactionID))
    let known = knowledge.chargesByOriginal[unit] ?? (knowledge.charges[unit] != nil ? [unit] : [])
    for transaction in known where !carried.contains(transaction) {
      guard let charge = knowledge.charges[transaction] else { continue }
      result.append(
        OwnerClaim(
          owner: ownership.owner(at: charge.at), at: charge.at, recorded: knowledge.knownAt[charge.id],
          line: 0))
    }
    return result
  }
}
