import StoreLedgerCore

/// A customer's time zone, for dates in sentences they read (`query --format reply --tz`).
///
/// The zone's rules (its offset at each instant, summer time included) are given by the caller:
/// the CLI reads them from the system's zone files (`ZoneRules.swift`), so this layer needs no
/// Foundation and the fold, the answers and the log only ever hold UTC instants
/// (Docs/decisions.md, "Replies to customers").
package struct CustomerZone: Sendable {
  private let offsetSecondsAt: @Sendable (Timestamp) -> Int

  /// A zone whose offset from UTC at each instant is `offsetSeconds(instant)`.
  package init(offsetSeconds: @escaping @Sendable (Timestamp) -> Int) { offsetSecondsAt = offsetSeconds }

  /// A zone at a fixed offset from UTC.
  package init(fixedMinutes: Int64) {
    let seconds = Int(fixedMinutes) * 60
    offsetSecondsAt = { _ in seconds }
  }

  /// UTC.
  package static let utc = CustomerZone(fixedMinutes: 0)

  /// The zone's offset from UTC at `time`, in seconds.
  package func offsetSeconds(at time: Timestamp) -> Int { offsetSecondsAt(time) }

  /// The offset, in minutes, that makes the wall-clock reading `local` (written as if it were
  /// UTC) a real instant in this zone; in a summer-time gap or overlap, the offset in force
  /// just before the change.
  package func utcOffsetMinutes(forWallClock local: Timestamp) -> Int64 {
    let first = Int64(offsetSeconds(at: local)) * 1000
    let second = offsetSeconds(at: Timestamp(millisecondsSinceEpoch: local.millisecondsSinceEpoch - first))
    return Int64(second / 60)
  }

  /// The first instant whose wall clock reads `local` (written as if it were UTC) or later: the
  /// earlier of two readings in an overlap, and in a summer-time gap the instant the clocks jump
  /// (so a local day without a midnight starts at its first instant).
  /// - Complexity: O(log of the gap's length) offset look-ups in a gap, O(1) otherwise.
  package func firstInstant(ofWallClock local: Timestamp) -> Timestamp {
    let dayMs: Int64 = 86_400_000
    let before = Int64(offsetSeconds(at: local.adding(milliseconds: -dayMs))) * 1000
    let after = Int64(offsetSeconds(at: local.adding(milliseconds: dayMs))) * 1000
    func reads(_ time: Timestamp) -> Timestamp { time.adding(milliseconds: Int64(offsetSeconds(at: time)) * 1000) }
    let candidates = [local.adding(milliseconds: -before), local.adding(milliseconds: -after)].filter { reads($0) == local }
    if let earliest = candidates.min() { return earliest }
    // A gap: the clocks jump past `local` at one transition between these two instants.
    var low = local.adding(milliseconds: -max(before, after))
    var high = local.adding(milliseconds: -min(before, after))
    while low < high {
      let middle = Timestamp(millisecondsSinceEpoch: low.millisecondsSinceEpoch + (high.millisecondsSinceEpoch - low.millisecondsSinceEpoch) / 2)
      if reads(middle) >= local { high = middle } else { low = middle.adding(milliseconds: 1) }
    }
    return low
  }

  /// The wall clock at `time`, written as if it were UTC.
  package func wallClock(_ time: Timestamp) -> Timestamp { local(time) }

  /// The local day of `time`: `10 Aug 2025`; `25 Jul` when `omittingYearOf` falls in the same local year.
  package func day(_ time: Timestamp, omittingYearOf other: Timestamp? = nil) -> String {
    let text = AnswerWords.day(local(time))
    guard let other, local(other).rfc3339.prefix(4) == local(time).rfc3339.prefix(4) else { return text }
    return String(text.dropLast(5))
  }

  /// The instant shifted by the zone's offset, so its UTC fields read as the local wall clock.
  private func local(_ time: Timestamp) -> Timestamp {
    Timestamp(millisecondsSinceEpoch: time.millisecondsSinceEpoch + Int64(offsetSeconds(at: time)) * 1000)
  }
}
