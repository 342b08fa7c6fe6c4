/// An answer's parts in sentences for people: `query --format text` and `snapshot diff` word
/// grants, plans and instants the same way (the tier, the trial and feature usage are in
/// `Report/AnswerWords+Policy.swift`). Nothing here says more than the answer holds: a revoked
/// or expired plan never "renews".
package enum AnswerWords {
  /// A grant: `pass.week (active, purchased, until 27 Dec 2025)`; `period` is left out when `normal`.
  package static func grant(product: String?, state: String, ownership: String, period: String, until: Timestamp?) -> String {
    "\(product ?? "a support grant") (\(state), \(ownership)" + (period == "normal" ? "" : ", \(period)")
      + (until.map { ", until \(instant($0))" } ?? ", no end") + ")"
  }

  /// A plan at T, saying only what the store will do: `pro.monthly, active until 1 Apr 2026, renews`;
  /// `pro.monthly, revoked; its period would have run until 1 Apr 2026`; `…, expired; its last period ended 10 Feb 2026`.
  package static func plan(
    product: String, state: String, expires: Timestamp, willRenew: Bool, renewsTo: String?, at time: Timestamp
  ) -> String {
    let end = instant(expires)
    let isOver = time >= expires
    switch state {
    case "active":
      return "\(product), active until \(end), "
        + (willRenew ? "renews" + (renewsTo.map { " to \($0)" } ?? "") : "does not renew (auto-renew is off)")
    case "grace":
      return "\(product), in grace: its period ended \(end) and the store is retrying the charge; access continues"
    case "billing_retry":
      return isOver
        ? "\(product), in billing retry since \(end): the store is retrying the charge; no access"
        : "\(product), in billing retry: access until \(end) while the store retries the charge"
    case "expired", "revoked":
      return isOver
        ? "\(product), \(state); its last period ended \(end)" : "\(product), \(state); its period would have run until \(end)"
    default:
      return "\(product), \(state) until \(end)"
    }
  }

  /// `5 Mar 2026 16:00 UTC`, or `5 Mar 2026` at midnight.
  package static func instant(_ time: Timestamp) -> String {
    let text = time.rfc3339  // 2026-03-05T16:00:00Z or with .mmm
    let clock = text.dropFirst(11).prefix(8)
    if clock == "00:00:00" && !text.contains(".") { return day(time) }
    return day(time) + " " + (clock.hasSuffix(":00") ? String(clock.prefix(5)) : String(clock)) + " UTC"
  }

  /// `5 Mar 2026`.
  package static func day(_ time: Timestamp) -> String {
    let text = time.rfc3339
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    let parts = text.prefix(10).split(separator: "-")
    guard parts.count == 3, let month = Int(parts[1]), let dayOfMonth = Int(parts[2]) else { return text }
    return "\(dayOfMonth) \(months[month - 1]) \(parts[0])"
  }
}
