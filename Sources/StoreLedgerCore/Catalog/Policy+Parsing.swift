extension Policy {
  /// The most tiers and features one policy may have; more is a catalog error.
  static let namesMax = 256

  /// Parses and validates the catalog's `policy`; every problem is passed to `bad`.
  ///
  /// `entitlementNames` are the catalog's (sorted) entitlement ids: a tier or trial naming an
  /// entitlement no product grants never matches (Docs/decisions.md).
  /// - Complexity: O(tiers × features).
  static func parse(_ value: JSONValue, entitlementNames: [String], bad: (String) -> Void) -> Policy? {
    guard let members = value.objectMembers else {
      bad("field 'policy': expected an object, found \(value.kindName)")
      return nil
    }
    var ok = true
    func fail(_ detail: String) {
      bad("policy: " + detail)
      ok = false
    }
    for (key, _) in members where !["utc_offset", "trial", "tiers", "features"].contains(key) {
      fail("unknown field '\(key)'; expected utc_offset, trial, tiers, features")
    }
    var offsetMs: Int64 = 0
    if let raw = value["utc_offset"] {
      if let text = raw.stringValue, let parsed = parseUTCOffset(text) {
        offsetMs = parsed
      } else {
        fail("field 'utc_offset': expected an offset such as +00:00 or -05:30 (±HH:MM, at most ±18:00)")
      }
    }
    func entitlementIndex(_ name: String) -> Int {
      entitlementNames.firstIndex(of: name) ?? -1
    }
    let tiers = parseTiers(value["tiers"], entitlementIndex: entitlementIndex, fail: fail)
    let features = parseFeatures(value["features"], tiers: tiers ?? [], fail: fail)
    var trial: UsageTrial? = nil
    if let raw = value["trial"] {
      trial = parseTrial(raw, features: features ?? [], entitlementIndex: entitlementIndex, fail: fail)
      if trial == nil { ok = false }
    } else if let tiers, let tier = tiers.first(where: \.requiresTrial) {
      fail("tier '\(tier.name)' has 'trial: true' but the policy has no 'trial' section")
    }
    guard ok, let tiers, let features else { return nil }
    return Policy(utcOffsetMs: offsetMs, trial: trial, tiers: tiers, features: features)
  }

  /// Parses `±HH:MM` into milliseconds east of UTC.
  static func parseUTCOffset(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
      bytes[3] == UInt8(ascii: ":")
    else { return nil }
    let digits = [bytes[1], bytes[2], bytes[4], bytes[5]]
    guard digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
    let hours = Int64(digits[0] - 48) * 10 + Int64(digits[1] - 48)
    let minutes = Int64(digits[2] - 48) * 10 + Int64(digits[3] - 48)
    guard minutes < 60, hours * 60 + minutes <= 18 * 60 else { return nil }
    let magnitude = (hours * 60 + minutes) * 60_000
    return bytes[0] == UInt8(ascii: "-") ? -magnitude : magnitude
  }

  private static func isName(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.count <= Limits.referenceBytesMax
  }

  private static func parseTiers(
    _ value: JSONValue?, entitlementIndex: (String) -> Int, fail: (String) -> Void
  ) -> [PolicyTier]? {
    guard case .array(let items)? = value, !items.isEmpty, items.count <= namesMax else {
      fail("field 'tiers': expected a non-empty list (at most \(namesMax)) of tier objects")
      return nil
    }
    var tiers: [PolicyTier] = []
    var ok = true
    for (position, item) in items.enumerated() {
      let here = "tiers[\(position)]"
      guard let members = item.objectMembers else {
        fail("\(here): expected an object, found \(item.kindName)")
        ok = false
        continue
      }
      for (key, _) in members where !["name", "entitlement", "trial", "within", "label"].contains(key) {
        fail("\(here): unknown field '\(key)'; expected name, entitlement, trial, within, label")
        ok = false
      }
      guard let name = item["name"]?.stringValue, isName(name) else {
        fail("\(here): field 'name': expected a non-empty string")
        ok = false
        continue
      }
      if tiers.contains(where: { $0.name == name }) {
        fail("\(here): tier name '\(name)' is used twice")
        ok = false
      }
      var tier = PolicyTier(name: name, entitlement: nil, requiresTrial: false, within: nil)
      switch item["entitlement"] {
      case nil: break
      case .string(let entitlement)? where isName(entitlement): tier.entitlement = entitlementIndex(entitlement)
      case _?:
        fail("tier '\(name)': field 'entitlement': expected a non-empty entitlement id")
        ok = false
      }
      switch item["trial"] {
      case nil: break
      case .bool(true)?: tier.requiresTrial = true
      case _?:
        fail("tier '\(name)': field 'trial': expected true (omit it for no trial condition)")
        ok = false
      }
      if let raw = item["within"] {
        if let text = raw.stringValue, let duration = ISODuration(text) {
          tier.within = duration
        } else {
          fail("tier '\(name)': field 'within': expected an ISO 8601 duration such as P7D, \(ISODuration.lengthLimitDescription)")
          ok = false
        }
      }
      if let raw = item["label"] {
        tier.label = parseLabel(raw, here: "tier '\(name)'", fail: fail)
        ok = ok && tier.label != nil
      }
      tiers.append(tier)
    }
    return ok ? tiers : nil
  }

  /// Longest label or unit name, in bytes.
  static let labelBytesMax = 200

  /// A `label`: a non-empty string of at most `labelBytesMax` bytes, without control characters.
  private static func parseLabel(_ value: JSONValue, here: String, fail: (String) -> Void) -> String? {
    guard let text = value.stringValue, isWords(text) else {
      fail("\(here): field 'label': expected a non-empty string of at most \(labelBytesMax) bytes without control characters")
      return nil
    }
    return text
  }

  /// A `unit`: `{"one": "decision session", "other": "decision sessions"}`.
  private static func parseUnit(_ value: JSONValue, here: String, fail: (String) -> Void) -> UsageUnit? {
    guard let members = value.objectMembers, members.count == 2, let one = value["one"]?.stringValue,
      let other = value["other"]?.stringValue, isWords(one), isWords(other)
    else {
      fail(
        "\(here): field 'unit': expected {\"one\": \"decision session\", \"other\": \"decision sessions\"} "
          + "(non-empty strings of at most \(labelBytesMax) bytes without control characters)")
      return nil
    }
    return UsageUnit(one: one, other: other)
  }

  /// Text shown to people: non-empty, bounded, no control characters (they would reach a terminal or a page).
  private static func isWords(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.count <= labelBytesMax
      && !text.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }
  }

  private static func parseWindow(_ value: JSONValue?) -> UsageWindow? {
    guard let text = value?.stringValue else { return nil }
    return UsageWindow.allCases.first { $0.name == text }
  }

  /// The names of `window`, as messages list them.
  private static let windowNames = "day, week, month or ever"

  private static func parseFeatures(
    _ value: JSONValue?, tiers: [PolicyTier], fail: (String) -> Void
  ) -> [PolicyFeature]? {
    guard let members = value?.objectMembers, members.count <= namesMax else {
      fail("field 'features': expected an object of feature name → {window, limits} (at most \(namesMax))")
      return nil
    }
    var features: [PolicyFeature] = []
    var ok = true
    for (name, item) in members {
      if let feature = parseFeature(name, item, tiers: tiers, fail: fail) { features.append(feature) } else { ok = false }
    }
    features.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    return ok ? features : nil
  }

  /// One feature: its window, limits by tier, label and unit; nil (after saying why) when wrong.
  private static func parseFeature(
    _ name: String, _ item: JSONValue, tiers: [PolicyTier], fail: (String) -> Void
  ) -> PolicyFeature? {
    let here = "feature '\(name)'"
    guard isName(name) else {
      fail("feature names must be 1–\(Limits.referenceBytesMax) bytes")
      return nil
    }
    guard let fields = item.objectMembers else {
      fail("\(here): expected an object, found \(item.kindName)")
      return nil
    }
    var ok = true
    for (key, _) in fields where !["window", "limits", "label", "unit"].contains(key) {
      fail("\(here): unknown field '\(key)'; expected window, limits, label, unit")
      ok = false
    }
    var label: String? = nil
    if let raw = item["label"] {
      label = parseLabel(raw, here: here, fail: fail)
      ok = ok && label != nil
    }
    var unit: UsageUnit? = nil
    if let raw = item["unit"] {
      unit = parseUnit(raw, here: here, fail: fail)
      ok = ok && unit != nil
    }
    guard let window = parseWindow(item["window"]) else {
      fail("\(here): field 'window': expected \(windowNames)")
      return nil
    }
    guard let limitMembers = item["limits"]?.objectMembers else {
      fail("\(here): field 'limits': expected an object of tier name → limit")
      return nil
    }
    var limits = [TierLimit?](repeating: nil, count: tiers.count)
    for (tierName, raw) in limitMembers {
      guard let tier = tiers.firstIndex(where: { $0.name == tierName }) else {
        let known = tiers.map(\.name).joined(separator: ", ")
        fail("\(here): field 'limits': unknown tier '\(tierName)'; the tiers are \(known)")
        ok = false
        continue
      }
      limits[tier] = parseLimit(raw, of: "\(here): limit of tier '\(tierName)'", window: window, fail: fail)
      if limits[tier] == nil { ok = false }
    }
    return ok ? PolicyFeature(name: name, window: window, limits: limits, label: label, unit: unit) : nil
  }

  /// One tier's limit of a feature whose window is `window`: a count, null (unlimited) or
  /// `{"limit": n or null, "window": w}`; nil (after saying why, each message starting with `here`) when wrong.
  private static func parseLimit(
    _ raw: JSONValue, of here: String, window: UsageWindow, fail: (String) -> Void
  ) -> TierLimit? {
    switch raw {
    case .null:
      return TierLimit(limit: nil, window: window)
    case .integer(let n) where n >= 0 && n <= Limits.amountMax:
      return TierLimit(limit: n, window: window)
    case .object(let pairs):
      var limit: TierLimit? = TierLimit(limit: nil, window: window)
      for (key, _) in pairs where key != "limit" && key != "window" {
        fail("\(here): unknown field '\(key)'; expected limit, window")
        limit = nil
      }
      switch raw["limit"] {
      case .null?: break
      case .integer(let n)? where n >= 0 && n <= Limits.amountMax: limit?.limit = n
      default:
        fail("\(here): field 'limit': expected an integer ≥ 0 or null")
        limit = nil
      }
      if let rawWindow = raw["window"] {
        if let parsed = parseWindow(rawWindow) {
          limit?.window = parsed
        } else {
          fail("\(here): field 'window': expected \(windowNames)")
          limit = nil
        }
      }
      return limit
    default:
      let expected = "an integer ≥ 0, null (unlimited) or {\"limit\": n or null, \"window\": w}"
      fail("\(here): expected \(expected), found \(raw.kindName)")
      return nil
    }
  }

  private static func parseTrial(
    _ value: JSONValue, features: [PolicyFeature], entitlementIndex: (String) -> Int,
    fail: (String) -> Void
  ) -> UsageTrial? {
    guard let members = value.objectMembers else {
      fail("field 'trial': expected an object, found \(value.kindName)")
      return nil
    }
    var ok = true
    for (key, _) in members where !["entitlement", "duration", "usage", "grace"].contains(key) {
      fail("trial: unknown field '\(key)'; expected entitlement, duration, usage, grace")
      ok = false
    }
    var entitlement = -1
    if let name = value["entitlement"]?.stringValue, isName(name) {
      entitlement = entitlementIndex(name)
    } else {
      fail("trial: field 'entitlement' is required: the entitlement whose start ends the trial")
      ok = false
    }
    var duration: ISODuration? = nil
    if let text = value["duration"]?.stringValue, let parsed = ISODuration(text) {
      duration = parsed
    } else {
      fail("trial: field 'duration' is required: an ISO 8601 duration such as P21D, \(ISODuration.lengthLimitDescription)")
      ok = false
    }
    var grace: ISODuration? = nil
    if let raw = value["grace"] {
      if let text = raw.stringValue, let parsed = ISODuration(text) {
        grace = parsed
      } else {
        fail("trial: field 'grace': expected an ISO 8601 duration such as PT48H, \(ISODuration.lengthLimitDescription)")
        ok = false
      }
    }
    var thresholds: [(feature: Int, count: Int64)] = []
    if let raw = value["usage"] {
      if let pairs = raw.objectMembers {
        for (name, count) in pairs {
          guard let feature = features.firstIndex(where: { $0.name == name }) else {
            let known = features.map(\.name).joined(separator: ", ")
            fail("trial: field 'usage': unknown feature '\(name)'; the features are \(known)")
            ok = false
            continue
          }
          guard case .integer(let n) = count, n >= 1, n <= Limits.amountMax else {
            fail("trial: field 'usage': feature '\(name)': expected an integer ≥ 1")
            ok = false
            continue
          }
          thresholds.append((feature, n))
        }
      } else {
        fail("trial: field 'usage': expected an object of feature name → count")
        ok = false
      }
    }
    guard ok, let duration else { return nil }
    thresholds.sort { $0.feature < $1.feature }
    return UsageTrial(entitlement: entitlement, duration: duration, thresholds: thresholds, grace: grace)
  }
}
