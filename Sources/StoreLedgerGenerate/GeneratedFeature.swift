import StoreLedger

/// The metered features of the generated catalog's policy, modelled on the seed apps.
///
/// A daily AI query quota (5 free, 100 on Pro, 150 in the first week, unlimited in the
/// trial), patterns the AI finds (trial and Pro only), saved items that are held and
/// released (1 free, unlimited on Pro), and an export for Pro only. Raw values are the
/// policy's feature indices (features are sorted by name).
enum GeneratedFeature: UInt8, CaseIterable {
  case aiQuery
  case export
  case pattern
  case savedItem

  /// The feature's name as written in the log and the catalog.
  var name: StaticString {
    switch self {
    case .aiQuery: return "ai_query"
    case .export: return "export"
    case .pattern: return "pattern"
    case .savedItem: return "saved_item"
    }
  }

  /// The policy's entry for this feature: its window and each tier's limit.
  var policyEntry: JSONValue {
    let limits: [(String, JSONValue)]
    let window: String
    switch self {
    case .aiQuery:
      window = "day"
      limits = [
        ("pro", .integer(GeneratedPolicy.proQueriesPerDay)), ("trial", .null),
        ("intro", .object([("limit", .integer(GeneratedPolicy.introQueries)), ("window", .string("ever"))])),
        ("free", .integer(GeneratedPolicy.freeQueriesPerDay)),
      ]
    case .export:
      window = "day"
      limits = [("pro", .null)]
    case .pattern:
      window = "ever"
      limits = [("pro", .null), ("trial", .null)]
    case .savedItem:
      window = "ever"
      limits = [("pro", .null), ("trial", .null), ("free", .integer(GeneratedPolicy.freeSavedItems))]
    }
    return .object([("limits", .object(limits)), ("window", .string(window))])
  }
}

/// The numbers of the generated policy, shared by the catalog and the simulated clients.
enum GeneratedPolicy {
  /// Where calendar days begin: US Eastern standard time, where most customers are.
  static let utcOffset = "-05:00"
  static let utcOffsetMs: Int64 = -5 * Span.hour
  static let freeQueriesPerDay: Int64 = 5
  static let proQueriesPerDay: Int64 = 100
  /// AI queries in the first week (the `intro` tier, counted since the first event).
  static let introQueries: Int64 = 150
  static let introDays: Int64 = 7
  static let freeSavedItems: Int64 = 1
  /// The trial: 50 AI queries, or 3 patterns, or 21 days, then 48 hours of grace.
  static let trialQueries: Int64 = 50
  static let trialPatterns: Int64 = 3
  static let trialDays: Int64 = 21
  static let graceHours: Int64 = 48

  /// The catalog's `policy` object.
  static var json: JSONValue {
    .object([
      ("utc_offset", .string(utcOffset)),
      (
        "trial",
        .object([
          ("entitlement", .string("pro")), ("duration", .string("P\(trialDays)D")),
          ("usage", .object([("ai_query", .integer(trialQueries)), ("pattern", .integer(trialPatterns))])),
          ("grace", .string("PT\(graceHours)H")),
        ])
      ),
      (
        "tiers",
        .array([
          .object([("name", .string("pro")), ("entitlement", .string("pro"))]),
          .object([("name", .string("trial")), ("trial", .bool(true))]),
          .object([("name", .string("intro")), ("within", .string("P\(introDays)D"))]),
          .object([("name", .string("free"))]),
        ])
      ),
      (
        "features",
        .object(GeneratedFeature.allCases.map { (String(describing: $0.name), $0.policyEntry) })
      ),
    ])
  }
}
