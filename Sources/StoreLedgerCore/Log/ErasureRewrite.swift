/// How an erasure (CONTRACT §12, Docs/erasure.md) rewrites JSON lines: each erased subject
/// becomes a fresh random pseudonym, and each store token that identified one a fresh random
/// value, wherever a line holds it. Pure: bytes in, bytes out; the randomness comes in.
///
/// Invariants that keep every other answer unchanged: a line is changed only where it names an
/// erased subject (`subject`, `to`, or any string equal to it) or a value learned from an erased
/// subject's lines; every value is replaced by the same new value on every line, so references
/// between lines (a transaction and its revocation, a grant and its revocation, a unit and its
/// transfer) still meet; a line that nothing changes keeps its bytes.
package struct ErasureRewrite: Sendable {
  /// The pseudonym of each erased subject.
  package private(set) var pseudonyms: [String: String]
  /// New values of whole strings: store tokens, and the ids and transactions of erased lines
  /// that held an erased subject or token.
  package private(set) var replacements: [String: String] = [:]
  /// Text replaced inside id-like values of erased lines: subjects, tokens, token keys.
  private var fragments: [(from: String, to: String)] = []
  /// Random bits for new names.
  private var random: ErasureNames

  /// Keys of an erased line whose values may hold a subject or token inside them (`u1-t1`).
  static let idKeys: Set<String> = ["id", "grant", "transaction", "original_transaction"]
  /// Keys naming a subject (`to`: the receiver of a v1.3 `transfer`, handled as JSON).
  static let subjectKeys: Set<String> = ["subject", "to"]
  /// Types whose `reason` is free text a support agent wrote (contract v1.3, section 10), which
  /// may hold personal data: removed from an erased subject's lines like `meta` (optional there,
  /// so the line stays valid; the pseudonym's `blocked` then shows no reason).
  static let freeTextReasonTypes: Set<String> = ["grant", "grant_revoked", "block", "unblock"]

  /// A rewrite erasing `subjects`, with names drawn from `random`.
  package init(subjects: [String], random: ErasureNames) {
    self.random = random
    pseudonyms = [:]
    for subject in subjects where pseudonyms[subject] == nil {
      pseudonyms[subject] = self.random.next(prefix: "erased-")
      fragments.append((subject, pseudonyms[subject]!))
    }
  }

  /// The store tokens found so far, each replaced everywhere.
  package private(set) var tokens: Set<String> = []

  /// Adds a store token that identified an erased subject; it is replaced everywhere, and its
  /// key (the first 24 hex digits of its SHA-256, found in Google Play ids) inside erased ids.
  package mutating func addToken(_ token: String) {
    guard !token.isEmpty, replacements[token] == nil, pseudonyms[token] == nil else { return }
    let replacement = random.next(prefix: "erased-token-")
    tokens.insert(token)
    replacements[token] = replacement
    fragments.append((token, replacement))
    fragments.append((String(SHA256.hash(Array(token.utf8)).hex.prefix(24)), String(random.next(prefix: "").prefix(24))))
  }

  /// What the rewrite looks for in raw bytes: lines holding none of these (and no escape)
  /// cannot name an erased subject or token and are kept as they are.
  var needles: [[UInt8]] {
    (Array(pseudonyms.keys) + Array(replacements.keys) + fragments.map(\.from)).filter { !$0.isEmpty }.map { Array($0.utf8) }
  }

  /// Whether `object` is a line of an erased subject.
  package func isErased(_ object: JSONValue) -> Bool {
    guard let subject = object["subject"]?.stringValue else { return false }
    return pseudonyms[subject] != nil
  }

  /// Learns the tokens in an erased line's `meta` (string values under keys that name a token
  /// or an account: `purchaseToken`, `appAccountToken`, `obfuscatedExternalAccountId`, ...).
  package mutating func learnTokens(fromMetaOf object: JSONValue) {
    guard isErased(object), let meta = object["meta"] else { return }
    for token in Self.tokenValues(in: meta, underTokenKey: false) { addToken(token) }
  }

  /// String values under token-like keys, at any depth.
  static func tokenValues(in value: JSONValue, underTokenKey: Bool) -> [String] {
    switch value {
    case .string(let text): return underTokenKey ? [text] : []
    case .array(let items): return items.flatMap { tokenValues(in: $0, underTokenKey: underTokenKey) }
    case .object(let members):
      return members.flatMap { key, member in
        let lowered = key.lowercased()
        return tokenValues(in: member, underTokenKey: underTokenKey || lowered.contains("token") || lowered.contains("account"))
      }
    default: return []
    }
  }

  /// Learns the new values of an erased line's ids and transactions that hold an erased
  /// subject or token, so every line naming them gets the same new value.
  /// - Complexity: O(value) per id-like value, whatever the number of fragments (`finder`).
  mutating func learnIDs(of object: JSONValue, finder: FragmentFinder) {
    guard isErased(object) || namesErased(object), case .object(let members) = object else { return }
    for (key, value) in members where Self.idKeys.contains(key) {
      guard case .string(let text) = value, replacements[text] == nil, pseudonyms[text] == nil else { continue }
      var changed = text
      for (from, to) in finder.fragments(in: text) { changed = changed.replacing(from, with: to) }
      guard changed != text else { continue }
      // Ids are at most 128 characters: a longer result gets a fresh name instead.
      replacements[text] = changed.utf8.count <= Limits.idLengthMax ? changed : random.next(prefix: "erased-")
    }
  }

  /// Which fragments occur in a value: long ones found in one pass (`NeedleSet`), short ones
  /// one by one.
  struct FragmentFinder {
    /// Fragments of at least `NeedleSet.keyBytes` bytes.
    let long: NeedleSet
    /// The replacement of each long fragment.
    let replacementOf: [[UInt8]: String]
    /// The shorter fragments.
    let short: [(from: String, to: String)]

    /// A finder of `fragments`.
    init(_ fragments: [(from: String, to: String)]) {
      let longOnes = fragments.filter { $0.from.utf8.count >= NeedleSet.keyBytes }
      long = NeedleSet(longOnes.map { Array($0.from.utf8) })
      replacementOf = Dictionary(longOnes.map { (Array($0.from.utf8), $0.to) }, uniquingKeysWith: { first, _ in first })
      short = fragments.filter { !$0.from.isEmpty && $0.from.utf8.count < NeedleSet.keyBytes }
    }

    /// The fragments in `text`, longest first (a token before a subject it may contain).
    func fragments(in text: String) -> [(from: String, to: String)] {
      let found = long.occurring(in: Array(text.utf8)).map { (String(decoding: $0, as: UTF8.self), replacementOf[$0]!) }
      return (found + short.filter { text.contains($0.from) }).sorted { $0.from.utf8.count > $1.from.utf8.count }
    }
  }

  /// A finder of this rewrite's fragments.
  var fragmentFinder: FragmentFinder { FragmentFinder(fragments) }

  /// Whether a line names an erased subject in `to` (a transfer to them).
  func namesErased(_ object: JSONValue) -> Bool {
    guard let receiver = object["to"]?.stringValue else { return false }
    return pseudonyms[receiver] != nil
  }

  /// The line rewritten: subjects and learned values replaced, an erased subject's `meta` and
  /// free-text `reason` removed; nil when nothing in it changes. Only `subject` and `to`, the id-like fields and
  /// `meta` are touched: a product, currency or feature that happens to equal an erased
  /// subject or token names a catalog entry, not the customer.
  package func rewritten(_ object: JSONValue) -> JSONValue? {
    guard case .object(let members) = object else { return nil }
    let erased = isErased(object)
    var changed = false
    var kept: [(String, JSONValue)] = []
    for (key, value) in members {
      if erased && (key == "meta" || (key == "reason" && Self.freeTextReasonTypes.contains(object["type"]?.stringValue ?? ""))) {
        changed = true
        continue
      }
      var new = value
      if key == "meta" {
        new = replaced(value)
      } else if Self.subjectKeys.contains(key), let text = value.stringValue, let pseudonym = pseudonyms[text] {
        new = .string(pseudonym)
      } else if Self.idKeys.contains(key), let text = value.stringValue {
        new = .string(pseudonyms[text] ?? replacements[text] ?? text)
      }
      if new != value { changed = true }
      kept.append((key, new))
    }
    return changed ? .object(kept) : nil
  }

  /// `value` with every string equal to an erased subject or learned value replaced, at any depth.
  package func replaced(_ value: JSONValue) -> JSONValue {
    switch value {
    case .string(let text):
      if let pseudonym = pseudonyms[text] { return .string(pseudonym) }
      if let replacement = replacements[text] { return .string(replacement) }
      return value
    case .array(let items): return .array(items.map(replaced))
    case .object(let members): return .object(members.map { ($0.0, replaced($0.1)) })
    default: return value
    }
  }

  /// `text` (free bytes: a torn line, a recovery record) with every subject and token replaced.
  package func replacingFragments(in text: [UInt8]) -> [UInt8] {
    var out = text
    for (from, to) in fragments where !from.isEmpty {
      out = Array(String(decoding: out, as: UTF8.self).replacing(from, with: to).utf8)
    }
    return out
  }
}

/// Fresh random names for an erasure: pseudonyms and token replacements that cannot be derived
/// from what they replace (random, never a digest of it).
package struct ErasureNames: Sendable {
  /// The source of randomness; the system's (a cryptographic generator) unless a test seeds one.
  private var draw: @Sendable () -> UInt64
  /// Names from the system's cryptographically secure generator.
  package static var system: ErasureNames {
    ErasureNames {
      var generator = SystemRandomNumberGenerator()
      return generator.next()
    }
  }

  /// Names from `draw`.
  package init(draw: @escaping @Sendable () -> UInt64) { self.draw = draw }

  /// `count` random bytes (a key).
  package mutating func bytes(_ count: Int) -> [UInt8] {
    (0..<count).map { _ in UInt8(truncatingIfNeeded: draw()) }
  }

  /// `prefix` and 24 random hex digits (96 bits).
  package mutating func next(prefix: String) -> String {
    var text = prefix
    for _ in 0..<3 {
      let word = draw() & 0xffff_ffff
      let digits = String(word, radix: 16)
      text += String(repeating: "0", count: 8 - digits.count) + digits
    }
    return text
  }
}
