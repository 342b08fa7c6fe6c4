import Foundation
import StoreLedger
import StoreLedgerReport

/// Zone names for `--tz` (Europe/Paris): the one place the CLI reads Foundation's `TimeZone`,
/// whose rules the reply's dates and typed times need (Docs/decisions.md, "Replies to customers").
enum ZoneRules {
  /// The zone named `name`: `Z`, `UTC`, an offset such as `+02:00`, or an IANA name with a slash; nil otherwise.
  static func zone(named name: String) -> CustomerZone? {
    if let minutes = TimeInput.utcOffsetMinutes(name) { return CustomerZone(fixedMinutes: minutes) }
    // `TimeZone(identifier:)` also takes abbreviations such as `CET`, whose meaning varies; names have a slash.
    guard name.contains("/"), let zone = TimeZone(identifier: name) else { return nil }
    return CustomerZone { zone.secondsFromGMT(for: $0.date) }
  }
}
