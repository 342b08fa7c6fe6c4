import StoreLedgerCore

/// How long each bucket of a report is: calendar spans in UTC.
package enum ReportInterval: String, Sendable, CaseIterable {
  /// Calendar days, from 00:00 UTC.
  case day
  /// ISO weeks, from Monday 00:00 UTC.
  case week
  /// Calendar months, from the 1st at 00:00 UTC.
  case month

  /// The start of the bucket that contains `time`.
  package func start(of time: Timestamp) -> Timestamp {
    let day = floorDivide(time.millisecondsSinceEpoch, Self.dayMs)
    switch self {
    case .day:
      return Timestamp(millisecondsSinceEpoch: day * Self.dayMs)
    case .week:
      // 1970-01-01 was a Thursday: day 0 is 3 days after a Monday.
      let daysSinceMonday = (day + 3) - floorDivide(day + 3, 7) * 7
      let monday = day - daysSinceMonday
      return Timestamp(millisecondsSinceEpoch: monday * Self.dayMs)
    case .month:
      var civil = CivilDate(daysSinceEpoch: day)
      civil.day = 1
      return Timestamp(millisecondsSinceEpoch: civil.daysSinceEpoch * Self.dayMs)
    }
  }

  /// The start of the bucket after the one starting at `start`.
  package func next(after start: Timestamp) -> Timestamp {
    switch self {
    case .day: return start.adding(milliseconds: Self.dayMs)
    case .week: return start.adding(milliseconds: 7 * Self.dayMs)
    case .month:
      var civil = CivilDate(daysSinceEpoch: floorDivide(start.millisecondsSinceEpoch, Self.dayMs))
      civil.month += 1
      if civil.month == 13 {
        civil.month = 1
        civil.year += 1
      }
      civil.day = 1
      return Timestamp(millisecondsSinceEpoch: civil.daysSinceEpoch * Self.dayMs)
    }
  }

  static let dayMs: Int64 = 86_400_000

  /// The start of the local bucket containing `time` in `zone`: local midnight (Monday's, the
  /// 1st's), or the first instant of a local day that has no midnight.
  package func start(of time: Timestamp, in zone: CustomerZone) -> Timestamp {
    zone.firstInstant(ofWallClock: start(of: zone.wallClock(time)))
  }

  /// The start of the local bucket after the one starting at `start` in `zone`.
  package func next(after start: Timestamp, in zone: CustomerZone) -> Timestamp {
    zone.firstInstant(ofWallClock: next(after: self.start(of: zone.wallClock(start))))
  }
}

/// The buckets of a report: consecutive half-open spans `[start, end)` covering `--from` to `--to`.
///
/// The first bucket is the one containing `from`; buckets follow until one ends at or after
/// `to` (at least one bucket, so `from == to` gives the bucket containing it).
package struct ReportBuckets: Sendable, Equatable {
  /// The bucket length.
  package let interval: ReportInterval
  /// Bucket boundaries: bucket `k` is `[boundaries[k], boundaries[k + 1])`.
  package let boundaries: [Timestamp]
  /// The wall clock of the zone at each boundary (written as if it were UTC), for labels.
  package let wallClocks: [Timestamp]

  /// The buckets from the one containing `from` until one ends at or after `to`, in `zone`
  /// (buckets start at local midnight, across summer-time changes; bounds stay UTC instants).
  /// - Complexity: O(buckets).
  package init(from: Timestamp, to: Timestamp, every interval: ReportInterval, zone: CustomerZone = .utc) throws(Diagnostic) {
    guard from <= to else {
      throw Diagnostic(.usage("--from (\(from.rfc3339)) is after --to (\(to.rfc3339))."))
    }
    self.interval = interval
    var boundaries = [interval.start(of: from, in: zone)]
    repeat {
      guard boundaries.count <= Limits.reportBucketsMax else {
        throw Diagnostic(
          .usage(
            "--from \(from.rfc3339) to --to \(to.rfc3339) makes more than \(Limits.reportBucketsMax) \(interval.rawValue) buckets; use a longer --every or a shorter span"
          ))
      }
      boundaries.append(interval.next(after: boundaries[boundaries.count - 1], in: zone))
    } while boundaries[boundaries.count - 1] < to
    // A bucket that starts before 0000-01-01 or ends after 9999 could not be printed and read back.
    for (boundary, option) in [(boundaries[0], "--from"), (boundaries[boundaries.count - 1], "--to")]
    where !boundary.isReadable {
      throw Diagnostic(
        .usage(
          "\(option) \(option == "--from" ? from.rfc3339 : to.rfc3339): its \(interval.rawValue) bucket "
            + "\(option == "--from" ? "starts" : "ends") at \(boundary.rfc3339), outside the times a report can print "
            + "(\(TimeInput.rangeDescription)); use \(option == "--from" ? "a later --from" : "an earlier --to") or a shorter --every"))
    }
    self.boundaries = boundaries
    wallClocks = boundaries.map(zone.wallClock)
  }

  /// The number of buckets.
  package var count: Int { boundaries.count - 1 }

  /// Start of the first bucket.
  package var start: Timestamp { boundaries[0] }

  /// End of the last bucket (exclusive).
  package var end: Timestamp { boundaries[boundaries.count - 1] }

  /// The bucket containing `time`, or nil outside `[start, end)`.
  /// - Complexity: O(log buckets).
  package func index(of time: Timestamp) -> Int? {
    guard time >= start, time < end else { return nil }
    var low = 0
    var high = count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if boundaries[middle] <= time { low = middle } else { high = middle - 1 }
    }
    return low
  }
}
