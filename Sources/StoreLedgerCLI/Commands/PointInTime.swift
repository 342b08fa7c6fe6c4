import StoreLedger

/// The `--at`, `--as-of`, `--cached-at` and `--max-staleness` options shared by `query` and `can`.
struct PointInTime {
  /// Effective time T.
  var at: Timestamp
  /// Knowledge time R (nil: everything known).
  var asOf: Timestamp?
  /// A cached answer asked for (`--cached-at`).
  var cache: CacheRequest?

  /// The option specs, in help order.
  static let options: [OptionSpec] = [
    .value("at", "time", "Effective time T: RFC 3339, a date (start of that day), now, today or yesterday. Default: now."),
    .value("as-of", "time", "Knowledge time R: count only events recorded by then (same forms). Default: all."),
    .value(
      "cached-at", "time",
      "Answer as an offline app that last verified at this time would show it (not with --as-of)."),
    .value(
      "max-staleness", "duration",
      "With --cached-at: how long after it the answer may show access (ISO 8601). Default: PT24H."),
    CommandSpec.tzZoneOption,
  ]

  /// Reads and checks the options: V after T, S without V, and V with R are usage errors.
  static func parse(_ arguments: ParsedArguments) throws(UsageError) -> PointInTime {
    let time = try ArgumentParser.timeInput(arguments, zoneNames: true)
    let zone = try ArgumentParser.zone(arguments)
    func instant(_ option: String) throws(UsageError) -> Timestamp? {
      guard let text = arguments.value(option) else { return nil }
      return try ArgumentParser.instant(text, option: option, time: time, zone: zone)
    }
    let at = try instant("at") ?? time.now!
    let asOf = try instant("as-of")
    let cachedAt = try instant("cached-at")
    var staleness = CacheRequest.defaultMaxStaleness
    if let text = arguments.value("max-staleness") {
      guard cachedAt != nil else {
        throw UsageError(message: "'--max-staleness' needs '--cached-at' (the time the answer was last verified).")
      }
      guard let parsed = ISODuration(text) else {
        throw UsageError(
          message: "Invalid value for '--max-staleness': '\(text)' (expected an ISO 8601 duration such as PT24H or P3D, \(ISODuration.lengthLimitDescription)).")
      }
      staleness = parsed
    }
    guard let cachedAt else { return PointInTime(at: at, asOf: asOf, cache: nil) }
    guard asOf == nil else {
      throw UsageError(
        message: "'--cached-at' and '--as-of' cannot be used together: a cached answer is as known at '--cached-at'.")
    }
    guard cachedAt <= at else {
      throw UsageError(
        message: "'--cached-at' (\(cachedAt.rfc3339)) is after '--at' (\(at.rfc3339)): an app cannot have verified in the future.")
    }
    return PointInTime(at: at, asOf: nil, cache: CacheRequest(verifiedAt: cachedAt, maxStaleness: staleness))
  }
}
