extension RefundPreferencePolicy {
  /// The catalog's `refund_preference` section: `{"grant_full_up_to": N, "decline_from": M}`,
  /// shares in milliunits (0 to 100,000), each optional (the default's value), with N < M.
  /// Problems are said through `bad`, naming the field; nil then.
  static func parse(_ value: JSONValue, bad: (String) -> Void) -> RefundPreferencePolicy? {
    let here = "field 'refund_preference'"
    guard let members = value.objectMembers else {
      bad("\(here): expected an object with 'grant_full_up_to' and 'decline_from', found \(value.kindName)")
      return nil
    }
    var policy = RefundPreferencePolicy.standard
    policy.isFromCatalog = true
    var ok = true
    for (key, raw) in members {
      guard key == "grant_full_up_to" || key == "decline_from" else {
        bad("\(here): unknown field '\(key)'; expected 'grant_full_up_to' or 'decline_from'")
        ok = false
        continue
      }
      guard case .integer(let share) = raw, (0...wholeMilliunits).contains(share) else {
        bad("field 'refund_preference.\(key)': expected a share consumed in milliunits, an integer from 0 to 100000 (45200 is 45.2%)")
        ok = false
        continue
      }
      if key == "grant_full_up_to" { policy.grantFullUpToMilliunits = share } else { policy.declineFromMilliunits = share }
    }
    if ok && policy.grantFullUpToMilliunits >= policy.declineFromMilliunits {
      bad("\(here): 'grant_full_up_to' (\(policy.grantFullUpToMilliunits)) must be below 'decline_from' (\(policy.declineFromMilliunits))")
      ok = false
    }
    return ok ? policy : nil
  }
}
