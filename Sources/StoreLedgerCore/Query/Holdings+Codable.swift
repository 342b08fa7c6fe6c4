// `Holdings` is coded as the JSON object `storeledger query` prints (Docs/semantics.md,
// "Answers"): snake_case names, nulls kept, the policy's `tier`, `trial` and `usage` at the
// top level, `cache` and `explain` when present. Encoding is the CLI's own writer
// (`Holdings.jsonValue`), so the two cannot drift apart; decoding reads the members by the same
// key table (`AnswerKey`) the writers take their names from.

extension Holdings {
  /// Encodes the CLI's answer object.
  public func encode(to encoder: any Encoder) throws { try jsonValue.encode(to: encoder) }

  /// Decodes the CLI's answer object (`storeledger query` output, or a `Holdings` encoded before).
  public init(from decoder: any Decoder) throws {
    let json = try JSONObjectReader(try JSONValue(from: decoder), codingPath: decoder.codingPath)
    subject = SubjectID(rawValue: try json.string(.subject))
    at = try json.time(.at)
    asOf = try json.optionalTime(.asOf)
    entitlements = try json.table(.entitlements) { item in
      Entitlement(
        product: try item.optionalString(.product).map { ProductID(rawValue: $0) }, state: try item.rawName(.state),
        expires: try item.optionalTime(.expires), graceExpires: try item.optionalTime(.graceExpires),
        ownership: try item.rawName(.ownership), period: try item.rawName(.period))
    }
    plans = try json.table(.plans) { plan in
      Plan(
        product: ProductID(rawValue: try plan.string(.product)), state: try plan.rawName(.state),
        expires: try plan.time(.expires), graceExpires: try plan.optionalTime(.graceExpires),
        willRenew: try plan.bool(.willRenew),
        renewsTo: try plan.optionalString(.renewsTo).map { ProductID(rawValue: $0) }, period: try plan.rawName(.period),
        ownership: try plan.rawName(.ownership),
        originalTransaction: TransactionID(rawValue: try plan.string(.originalTransaction)),
        transaction: TransactionID(rawValue: try plan.string(.transaction)))
    }
    var balances: [String: Int64] = [:]
    for (currency, _) in try json.object(.balances).members {
      balances[currency] = try json.object(.balances).integer(currency)
    }
    self.balances = balances
    // The policy's parts are present exactly when the catalog has a policy.
    if json.members[AnswerKey.usage.name] != nil {
      policy = Policy(
        tier: try json.optionalString(.tier),
        trial: try json.optional(.trial).map { value in
          let trial = try JSONObjectReader(value, codingPath: json.codingPath + [JSONCodingKey(AnswerKey.trial.name)])
          return Trial(
            state: try trial.rawName(.state), started: try trial.time(.started), ends: try trial.time(.ends),
            endsBy: try trial.string(.endsBy), graceEnds: try trial.optionalTime(.graceEnds))
        },
        usage: try json.table(.usage) { usage in
          FeatureUsage(
            allowed: try usage.bool(.allowed), tier: try usage.optionalString(.tier), used: try usage.integer(.used),
            limit: try usage.optionalInteger(.limit), windowEnds: try usage.optionalTime(.windowEnds))
        })
    }
    if json.members[AnswerKey.blocked.name] != nil {
      var table: [String: [Blocker]] = [:]
      for (name, value) in try json.object(.blocked).members {
        guard case .array(let items) = value else { throw DecodingError.dataCorruptedError(in: try decoder.singleValueContainer(), debugDescription: "blocked.\(name) is not a list") }
        table[name] = try items.map { item in
          let blocker = try JSONObjectReader(item, codingPath: json.codingPath + [JSONCodingKey(AnswerKey.blocked.name)])
          return Blocker(
            service: try blocker.string(.service), since: try blocker.time(.since), reason: try blocker.optionalString(.reason))
        }
      }
      blocked = table
    }
    if json.optional(.cache) != nil {
      let cache = try json.object(.cache)
      self.cache = Cache(verifiedAt: try cache.time(.verifiedAt), isStale: try cache.bool(.stale))
    }
    if json.optional(.explain) != nil {
      explanation = try Explanation(json.object(.explain))
    }
  }
}

extension Holdings.Explanation {
  /// Reads `explain`.
  fileprivate init(_ json: JSONObjectReader) throws {
    func references(_ value: JSONValue, _ key: String) throws -> [Holdings.EventReference] {
      guard case .array(let items) = value else { throw json.fail(key, "an array of events") }
      return try items.map { item in
        let event = try JSONObjectReader(item, codingPath: json.codingPath + [JSONCodingKey(key)])
        return Holdings.EventReference(id: EventID(rawValue: try event.string(.id)), line: Int(try event.integer(.line)))
      }
    }
    func table(_ key: AnswerKey) throws -> [String: [Holdings.EventReference]] {
      var result: [String: [Holdings.EventReference]] = [:]
      for (name, value) in try json.object(key).members { result[name] = try references(value, name) }
      return result
    }
    entitlements = try table(.entitlements)
    plans = try table(.plans)
    balances = try table(.balances)
    usage =
      json.optional(.usage) == nil
      ? nil
      : try json.table(.usage) { Holdings.UsageEvidence(tier: try $0.optionalString(.tier), events: try references($0.value(.events), AnswerKey.events.name)) }
    absent =
      json.optional(.absent) == nil
      ? [:]
      : try json.table(.absent) { Holdings.Absence(reason: try $0.string(.reason), events: try references($0.value(.events), AnswerKey.events.name)) }
  }
}

extension JSONObjectReader {
  // The answer's members by their key in the one table (`AnswerKey`).
  fileprivate func value(_ key: AnswerKey) throws -> JSONValue { try value(key.name) }
  fileprivate func optional(_ key: AnswerKey) -> JSONValue? { optional(key.name) }
  fileprivate func string(_ key: AnswerKey) throws -> String { try string(key.name) }
  fileprivate func optionalString(_ key: AnswerKey) throws -> String? { try optionalString(key.name) }
  fileprivate func time(_ key: AnswerKey) throws -> Timestamp { try time(key.name) }
  fileprivate func optionalTime(_ key: AnswerKey) throws -> Timestamp? { try optionalTime(key.name) }
  fileprivate func integer(_ key: AnswerKey) throws -> Int64 { try integer(key.name) }
  fileprivate func optionalInteger(_ key: AnswerKey) throws -> Int64? { try optionalInteger(key.name) }
  fileprivate func bool(_ key: AnswerKey) throws -> Bool { try bool(key.name) }
  fileprivate func rawName<T: RawRepresentable & CaseIterable>(_ key: AnswerKey) throws -> T where T.RawValue == String {
    try rawName(key.name)
  }
  fileprivate func object(_ key: AnswerKey) throws -> JSONObjectReader { try object(key.name) }
  fileprivate func table<T>(_ key: AnswerKey, _ body: (JSONObjectReader) throws -> T) throws -> [String: T] {
    try table(key.name, body)
  }
}
