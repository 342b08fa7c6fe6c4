import StoreLedgerCore

/// What every event of one purchase token shares, through its chain of linked tokens.
struct GooglePlayChain {
  /// The first token of the chain: the ledger's `original_transaction`, so that upgrades,
  /// downgrades and resubscriptions (new tokens linking to the old one) keep the
  /// subscription's identity, as Apple's original transaction does.
  var root: String
  /// The subject of every token of the chain.
  var subject: String
  /// Whether any resource of the chain is a test purchase.
  var isTest: Bool
  /// When a later token that replaces this one started: state changes of this token from
  /// then on (its cancellation by the replacement, its expiry) belong to the old purchase,
  /// not to the subscription, which continues under the new token.
  var replacedAt: Timestamp?
}

extension GooglePlayMapper {
  /// Resolves every subscription token's chain (`linkedPurchaseToken`), its subject and
  /// whether it is a test purchase. A cycle is an error.
  /// - Complexity: O(n) in the number of tokens and links.
  mutating func resolveChains() {
    let linked = linkedTokens()
    var successors: [String: String] = [:]
    for (token, link) in linked.sorted(by: { $0.key < $1.key }) where successors[link] == nil {
      successors[link] = token
    }
    let (paths, knownRoots) = chainPaths(linked)
    var members: [String: [(depth: Int, token: String)]] = [:]
    for (token, path) in paths {
      members[path.last!, default: []].append((path.count - 1, token))
    }
    for root in members.keys.sorted() {
      // Nearest the root first, so the first purchase's account and mapping win.
      let tokens = members[root]!.sorted { ($0.depth, $0.token) < ($1.depth, $1.token) }.map(\.token)
      guard let subject = chainSubject(root: root, tokens: tokens, logged: knownRoots[root]?.subject)
      else { continue }
      let isTest = tokens.contains { (subscriptions[$0] ?? []).contains(where: \.isTest) }
      for member in tokens {
        let start = (subscriptions[member] ?? []).compactMap(\.startTime).min()
        // A successor in this import, else one the ledger already holds.
        let replacedAt =
          successors[member].flatMap { successor in
            (subscriptions[successor] ?? []).compactMap(\.startTime).min()
          }
          ?? start.flatMap { knowledge.replacement(of: member, root: root, after: $0) }
        chains[member] = GooglePlayChain(
          root: root, subject: subject, isTest: isTest, replacedAt: replacedAt)
      }
    }
  }

  /// The token each token's resources say it replaces (`linkedPurchaseToken`); a token naming
  /// several, or itself, is an error.
  private mutating func linkedTokens() -> [String: String] {
    var linked: [String: String] = [:]
    for token in subscriptions.keys.sorted() {
      let resources = subscriptions[token]!
      let links = Set(resources.compactMap(\.linkedKey)).sorted()
      if links.count > 1 {
        problems.error(
          resources.map(\.line).max()!,
          "field 'subscriptionPurchaseV2.linkedPurchaseToken': the resources of token '\(token)' name \(links.count) different tokens (\(links.joined(separator: ", "))); a token replaces at most one"
        )
      }
      if let link = links.first {
        guard link != token else {
          problems.error(
            resources[0].line,
            "field 'subscriptionPurchaseV2.linkedPurchaseToken': token '\(token)' links to itself")
          continue
        }
        linked[token] = link
      }
    }
    return linked
  }

  /// The path from each token to its root; a token an earlier import wrote to the log ends
  /// the walk with the root it got there (returned with it). A cycle is an error.
  private mutating func chainPaths(_ linked: [String: String]) -> (
    paths: [String: [String]], knownRoots: [String: GooglePlayKnownToken]
  ) {
    var paths: [String: [String]] = [:]
    var knownRoots: [String: GooglePlayKnownToken] = [:]
    for token in subscriptions.keys.sorted() {
      var path = [token]
      var seen: Set<String> = [token]
      var current = token
      var hasCycle = false
      while options.knownTokens[current] == nil, let next = linked[current] {
        guard seen.insert(next).inserted else {
          hasCycle = true
          break
        }
        path.append(next)
        current = next
      }
      if hasCycle {
        problems.error(
          subscriptions[token]![0].line,
          "field 'subscriptionPurchaseV2.linkedPurchaseToken': the purchase tokens link in a cycle (\(path.joined(separator: " → ")) → \(linked[current]!)); a chain of replacements must end at a first purchase"
        )
        continue
      }
      if let known = options.knownTokens[current] {
        knownRoots[known.originalTransaction] = known
        path.append(known.originalTransaction)
      }
      paths[token] = path
    }
    return (paths, knownRoots)
  }

  /// The subject of a chain (`tokens` nearest the root first): the one the log has for it,
  /// else the first account id, else the `--subjects` mapping, else `googleplay:<root>`;
  /// nil (with an error) when the root or the subject is unusable. A later account id of the
  /// chain is a transfer (`settleOwners`), not another subject.
  private mutating func chainSubject(root: String, tokens: [String], logged: String?) -> String? {
    let line = subscriptions[tokens[0]]![0].line
    guard root.utf8.count <= Limits.referenceBytesMax else {
      problems.error(
        line,
        "purchase token '\(root)' is longer than \(Limits.referenceBytesMax) bytes, too long to be an original_transaction"
      )
      return nil
    }
    let account = tokens.compactMap { firstAccount(of: $0)?.accountID }.first
    let subjectMap = options.subjects
    let mapped = tokens.compactMap { member in
      subscriptions[member]?.first.flatMap { subjectMap[$0.token] }
    }.first
    // The subject the log already has for this subscription keeps it whole.
    let unitLogged = logged ?? knowledge.googlePlayUnitSubject(root)
    return checkedSubject(
      unitLogged ?? account ?? mapped ?? "googleplay:" + root,
      source: "purchase token '\(root)'", line: line)
  }

  /// The copy of a subscription key that names an account first: the earliest fetched, then
  /// the least account id (copies without `fetchTime` only when none has one), so the choice
  /// does not depend on input order; nil when no copy names one.
  /// - Complexity: O(c) in the key's copies.
  func firstAccount(of key: String) -> GooglePlaySubscriptionPayload? {
    (subscriptions[key] ?? []).filter { !($0.accountID ?? "").isEmpty }.min {
      ($0.knownAt?.millisecondsSinceEpoch ?? .max, $0.accountID!)
        < ($1.knownAt?.millisecondsSinceEpoch ?? .max, $1.accountID!)
    }
  }
}
