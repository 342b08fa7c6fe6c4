import StoreLedgerCore

/// A Play Store resubscription (`outOfAppPurchaseContext`): who owned the expired purchase it
/// comes back from, and from when the new purchase shows it.
struct GooglePlayResubscription {
  /// The expired purchase's subject: its first owner.
  var subject: String
  /// The expired purchase's subscription (its `original_transaction`), whose owner at `at`
  /// the new purchase joins.
  var expiredUnit: String?
  /// The new token's `startTime`.
  var at: Timestamp
  /// When the new token's first copy was fetched.
  var recorded: Timestamp?
  /// The input line of that copy.
  var line: Int
}

extension GooglePlayMapper {
  /// The members of every chain, by its root, each sorted.
  /// - Complexity: O(k log k) in the chains' keys.
  var chainMembers: [String: [String]] {
    var members: [String: [String]] = [:]
    for (key, chain) in chains { members[chain.root, default: []].append(key) }
    return members.mapValues { $0.sorted() }
  }

  /// Gives a Play Store resubscription the subject of the expired purchase it comes back
  /// from, where the chain names no subject itself (no account id, no `--subjects` mapping,
  /// nothing in the log): the same customer, so reports count a reactivation. Resubscriptions
  /// are taken by start time, so one that comes back from another takes its subject.
  /// - Complexity: O(k log k) in the chains.
  mutating func joinResubscriptions() {
    let members = chainMembers
    var roots: [(start: Timestamp, root: String)] = []
    for (root, keys) in members {
      if let start = (subscriptions[keys[0]] ?? []).compactMap(\.startTime).min() {
        roots.append((start, root))
      }
    }
    for (_, root) in roots.sorted(by: { ($0.start, $0.root) < ($1.start, $1.root) }) {
      let keys = members[root]!
      guard !keys.contains(where: { options.knownTokens[$0] != nil }),
        knowledge.googlePlayUnitSubject(root) == nil,
        let join = resubscription(root: root, keys: keys),
        let subject = checkedSubject(
          UnitOwnership(firstOwner: join.subject, known: knowledge.transfers[join.expiredUnit ?? ""] ?? [])
            .owner(at: join.at),
          source: "the expired purchase of '\(root)'", line: join.line)
      else { continue }
      for key in keys { chains[key]?.subject = subject }
    }
  }

  /// The resubscription a chain's first token is (its copies' `outOfAppPurchaseContext`),
  /// when no token of the chain names its own account or mapping and the expired purchase's
  /// subject is known (this import, the kept documents, the log, else the expired account id).
  /// - Complexity: O(c) in the chain's copies.
  func resubscription(root: String, keys: [String]) -> GooglePlayResubscription? {
    let copies = (subscriptions[root] ?? []).filter { $0.expiredToken != nil && !$0.isFromLedger }
    guard
      let copy = copies.min(by: {
        ($0.expiredToken!, $0.knownAt?.millisecondsSinceEpoch ?? .min)
          < ($1.expiredToken!, $1.knownAt?.millisecondsSinceEpoch ?? .min)
      }),
      let expired = copy.expiredToken, !keys.contains(expired),
      let start = copies.compactMap(\.startTime).min(),
      !keys.contains(where: { firstAccount(of: $0) != nil || options.subjects[$0] != nil })
    else { return nil }
    let expiredKey = addOnKeys[expired]?.sorted().first ?? expired
    let unit = chains[expiredKey]?.root ?? options.knownTokens[expired]?.originalTransaction
    let subject =
      chains[expiredKey]?.subject ?? knowledge.googlePlaySubjects[expired]
      ?? copy.expiredAccountID.flatMap { $0.isEmpty ? nil : $0 }
    return subject.map {
      GooglePlayResubscription(
        subject: $0, expiredUnit: unit, at: start,
        recorded: Self.earliest(copies.map { recorded($0.knownAt) }), line: copy.line)
    }
  }

  /// Writes a `transfer` wherever the store data names another owner for a subscription or a
  /// one-time purchase than the one its events keep (contract v1.3, section 9).
  mutating func settleOwners() {
    settleSubscriptionOwners()
    settleProductOwners()
  }

  /// The subscriptions' transfers: each token's account from its `startTime`, an account a
  /// re-fetched copy changes to from its `fetchTime`, a resubscription's expired purchase's
  /// subject from its `startTime`; the log's charges this import does not carry keep the owner
  /// the log gives them.
  /// - Complexity: O(c · (log c + t)) per subscription in its claims and transfers.
  private mutating func settleSubscriptionOwners() {
    var units: Set<String> = []
    for event in events {
      if let unit = event.event.originalTransaction { units.insert(unit.rawValue) }
    }
    // By start, so a resubscription joins the owner its expired purchase has by then.
    var owners: [String: UnitOwnership] = [:]
    for (_, root, keys) in chainMembers.map({ root, keys in
      ((subscriptions[keys[0]] ?? []).compactMap(\.startTime).min(), root, keys)
    }).sorted(by: { ($0.0?.millisecondsSinceEpoch ?? .min, $0.1) < ($1.0?.millisecondsSinceEpoch ?? .min, $1.1) }) {
      // A transfer comes from a subject with a line naming the unit (section 9).
      guard let chain = chains[keys[0]], units.contains(root) || knowledge.chargesByOriginal[root] != nil
      else { continue }
      var claims = keys.flatMap { accountClaims(key: $0) }
      if let join = resubscription(root: root, keys: keys) {
        let expired = join.expiredUnit.flatMap { owners[$0] }
          ?? UnitOwnership(firstOwner: join.subject, known: knowledge.transfers[join.expiredUnit ?? ""] ?? [])
        claims.append(
          OwnerClaim(owner: expired.owner(at: join.at), at: join.at, recorded: join.recorded, line: join.line))
      }
      var carried: Set<String> = []
      for key in keys {
        for copy in subscriptions[key] ?? [] where !copy.isFromLedger {
          if let orderID = copy.lineItems.first?.orderID { carried.insert(orderID + copy.transactionSuffix) }
        }
      }
      let first = (subscriptions[keys[0]] ?? []).min { $0.line < $1.line }
      owners[root] = writeTransfers(
        of: root, field: "original_transaction", idKey: Self.tokenKey(root), firstOwner: chain.subject,
        claims: claims, carried: carried, isTest: chain.isTest, line: first?.line ?? 0)
    }
  }

  /// What one subscription key's copies say about its owner: the first account from the
  /// token's `startTime`, and each later-fetched copy's account from its `fetchTime` (while the
  /// token was not yet replaced: a replaced token's copies speak for the old purchase).
  /// - Complexity: O(c) in the key's copies.
  private mutating func accountClaims(key: String) -> [OwnerClaim] {
    let copies = (subscriptions[key] ?? []).filter { !$0.isFromLedger }
    guard let first = firstAccount(of: key), let start = copies.compactMap(\.startTime).min()
    else { return [] }
    var claims = [
      OwnerClaim(owner: first.accountID!, at: start, recorded: recorded(first.knownAt), line: first.line)
    ]
    let replacedAt = chains[key]?.replacedAt
    for copy in copies where !(copy.accountID ?? "").isEmpty && copy.line != first.line {
      let account = copy.accountID!
      guard let fetched = copy.knownAt else {
        if account != first.accountID {
          problems.warning(
            copy.line,
            "purchase token '\(copy.token)' names obfuscatedExternalAccountId '\(account)' on a copy without fetchTime, so nothing tells since when; no transfer is written for it (store the copy with its fetchTime)"
          )
        }
        continue
      }
      if let replacedAt, fetched >= replacedAt { continue }
      claims.append(OwnerClaim(owner: account, at: max(fetched, start), recorded: fetched, line: copy.line))
    }
    return claims.filter { checkedSubject($0.owner, source: "purchase token '\(key)'", line: $0.line) != nil }
  }

  /// The one-time purchases' transfers (a non-consumable or non-renewing purchase: a
  /// consumable's credit stays with its buyer): every event of the purchase token keeps the
  /// first owner (the log's, else the first-fetched copy's account); a re-fetched copy naming
  /// another account moves the purchase from its `fetchTime`.
  /// - Complexity: O(e + p log p) in the events and the purchase tokens, plus the claims.
  private mutating func settleProductOwners() {
    var eventsByToken: [String: [Int]] = [:]
    for index in events.indices {
      if case .string(let token)? = events[index].event.metaValues["purchaseToken"],
        products[token] != nil
      {
        eventsByToken[token, default: []].append(index)
      }
    }
    for token in products.keys.sorted() {
      let copies = products[token]!.filter { $0.state == nil || $0.state == 0 }
      guard
        let first = copies.filter({ !($0.accountID ?? "").isEmpty }).min(by: {
          ($0.knownAt?.millisecondsSinceEpoch ?? .max, $0.accountID!)
            < ($1.knownAt?.millisecondsSinceEpoch ?? .max, $1.accountID!)
        }),
        let index = catalog.index(of: first.productID),
        catalog[index].kind == .nonConsumable || catalog[index].kind == .nonRenewing,
        let firstOwner = checkedSubject(
          knowledge.googlePlaySubjects[token] ?? first.accountID!, source: "purchase token '\(token)'",
          line: first.line)
      else { continue }
      let unit = first.orderID ?? token
      var hasLine = knowledge.charges[unit] != nil
      for index in eventsByToken[token] ?? [] {
        events[index].subject = firstOwner
        hasLine = true
      }
      guard hasLine else { continue }
      var claims = [
        OwnerClaim(owner: first.accountID!, at: first.purchaseTime, recorded: recorded(first.knownAt), line: first.line)
      ]
      for copy in copies where copy.line != first.line && !(copy.accountID ?? "").isEmpty {
        guard let fetched = copy.knownAt,
          checkedSubject(copy.accountID!, source: "purchase token '\(token)'", line: copy.line) != nil
        else { continue }
        claims.append(
          OwnerClaim(owner: copy.accountID!, at: max(fetched, first.purchaseTime), recorded: fetched, line: copy.line))
      }
      _ = writeTransfers(
        of: unit, field: "transaction", idKey: first.orderID ?? Self.tokenKey(token), firstOwner: firstOwner,
        claims: claims, carried: [unit], isTest: first.purchaseType == 0, line: first.line)
    }
  }

  /// Writes the transfers that make `claims` true for one unit, given the transfers the log
  /// holds; a charge of the unit the log holds and `carried` does not name stands in as a claim
  /// of the owner the log gives it then (so a late, earlier document does not move what came
  /// after it). A claim the owner chain cannot take is warned about. Returns the unit's
  /// ownership with them.
  private mutating func writeTransfers(
    of unit: String, field: String, idKey: String, firstOwner: String, claims: [OwnerClaim],
    carried: Set<String>, isTest: Bool, line: Int
  ) -> UnitOwnership {
    var ownership = UnitOwnership(firstOwner: firstOwner, known: knowledge.transfers[unit] ?? [])
    var all = claims
    let logged = knowledge.chargesByOriginal[unit] ?? (knowledge.charges[unit] != nil ? [unit] : [])
    for transaction in logged where !carried.contains(transaction) {
      guard let charge = knowledge.charges[transaction] else { continue }
      all.append(
        OwnerClaim(
          owner: ownership.owner(at: charge.at), at: charge.at, recorded: knowledge.knownAt[charge.id], line: 0))
    }
    let (changes, refused) = ownership.changes(for: all)
    let name = field == "transaction" ? "purchase '\(unit)'" : "subscription '\(unit)'"
    for claim in refused {
      problems.warning(
        claim.line,
        "Google Play names '\(claim.owner)' as the owner of \(name) from \(claim.at.rfc3339), but the log moves it later from another subject; no transfer is written for it (a transfer comes from the unit's owner, contract section 9): write one by hand if '\(claim.owner)' owned it"
      )
    }
    for change in changes {
      // The receiving subject is part of the fact: a later import may add a transfer at the
      // same instant (a late document shows the owner in between).
      let to = SHA256.hash(Array(change.to.utf8)).hex.prefix(8)
      let id = "googleplay:\(idKey):transfer:\(change.at.millisecondsSinceEpoch):\(to)"
      transferNotes[id] = "\(name) from '\(change.from)' to '\(change.to)' at \(change.at.rfc3339)"
      emit(
        ImportedEvent(
          id: id, kind: .transfer, subject: change.from, at: change.at, recorded: change.recorded,
          // No purchaseToken: the log's knowledge of a token comes from its own events.
          meta: Array(Self.baseMeta(isTest: isTest, token: "").prefix(2)),
          line: change.line == 0 ? line : change.line, identity: id
        ) { $0.setTransfer(to: change.to, unit: unit, isSubscription: field == "original_transaction") })
    }
    return ownership
  }
}
