/// Every subject's uses, by feature, with running sums, so a point-in-time fold sums a usage
/// window with binary searches instead of visiting every use (issue 25: audit with usage).
///
/// Built once over a loaded ledger's events (grouped by subject, in effective order) for a
/// batch of queries. Per subject it keeps the positions of the events that are not uses (what
/// the fold still applies one by one) and, per (subject, feature), a run of that feature's uses
/// in effective order with their `at`, the running sum of quantities and the running maximum
/// of `recorded`. Uses recorded after R are excluded exactly: the running maximum says up to
/// where every use counts, and only the uses after that point are looked at one by one.
/// `PointInTimeFold` answers the same as without it; a differential test pins the two.
package final class UsageIndex: Sendable {
  /// One use: what the sums and the knowledge cut need, 24 bytes, a subject's uses contiguous.
  struct Use {
    /// Its `at`.
    var at: Timestamp
    /// The wrapping sum of its run's quantities up to and including it.
    var sum: Int64
    /// The latest `recorded` of its run up to and including it.
    var recordedMax: Timestamp
  }

  /// One (subject, feature) run of uses.
  struct Run {
    /// Its first use in `uses` (it ends where the next run starts).
    var start: UInt32
    /// The index within it of the first use whose running sum reaches the feature's trial
    /// threshold when every use counts (-1: none, or no threshold).
    var reach: Int32
    /// Whether every use in it has `recorded` ≥ `at` (then none after R is known by R).
    var isRecordedFromAt: Bool
  }

  /// The policy's feature count.
  let featureCount: Int
  /// Subject `s`'s events that are not uses are `others[otherStarts[s]..<otherStarts[s + 1]]`,
  /// in effective order: a copy, so the fold reads them contiguously (reading them in place
  /// among the uses costs a cache miss each).
  let otherStarts: [UInt32]
  let others: [Event]
  /// Per subject: one past the position of its last event that is not a use, the items a
  /// fold of those events needs (`SubjectState.items` is indexed by position).
  let itemCounts: [UInt32]
  /// Run `s * featureCount + f` is subject `s`'s uses of feature `f`, in effective order; one
  /// extra run at the end marks where the last ends.
  let runs: [Run]
  /// Every use, subject by subject and feature by feature.
  let uses: [Use]
  /// Per use: its position within the subject (for `recorded` of uses after the running maximum passes R).
  let usePosition: [UInt32]
  /// Per feature: the smallest trial threshold count, or nil when the trial has none for it.
  let thresholdCount: [Int64?]

  /// Indexes `events`, subject `s` owning `events[subjectStarts[s]..<subjectStarts[s + 1]]`;
  /// nil when every 31st event from the first is not a use (then uses are rare or absent), or
  /// when a use names no feature of `policy`; the fold then visits every event.
  /// - Complexity: O(events + subjects × features).
  package init?(events: UnsafeBufferPointer<Event>, subjectStarts: [UInt32], policy: Policy) {
    // Without (many) uses there is little to skip: the plain fold is as fast and needs no copy.
    // A sample decides, so a log without usage is not read whole for nothing.
    guard stride(from: 0, to: events.count, by: 31).contains(where: { events[$0].kind == .usage }) else { return nil }
    var builder = Builder(policy: policy, subjectCount: subjectStarts.count - 1)
    for s in 0..<(subjectStarts.count - 1) {
      let subjectEvents = UnsafeBufferPointer(rebasing: events[Int(subjectStarts[s])..<Int(subjectStarts[s + 1])])
      guard builder.add(subjectEvents) else { return nil }
    }
    builder.runs.append(Run(start: UInt32(builder.uses.count), reach: -1, isRecordedFromAt: true))
    featureCount = builder.featureCount
    thresholdCount = builder.thresholdCount
    otherStarts = builder.otherStarts
    others = builder.others
    itemCounts = builder.itemCounts
    runs = builder.runs
    uses = builder.uses
    usePosition = builder.usePosition
  }

  /// The arrays of a `UsageIndex`, filled one subject at a time.
  private struct Builder {
    let featureCount: Int
    var thresholdCount: [Int64?]
    var otherStarts: [UInt32] = [0]
    var others: [Event] = []
    var itemCounts: [UInt32] = []
    var runs: [Run] = []
    var uses: [Use] = []
    var usePosition: [UInt32] = []
    /// Per feature, the positions of the current subject's uses (reused).
    var positions: [[UInt32]]

    init(policy: Policy, subjectCount: Int) {
      featureCount = policy.features.count
      var counts = [Int64?](repeating: nil, count: featureCount)
      for threshold in policy.trial?.thresholds ?? [] where threshold.feature < featureCount {
        counts[threshold.feature] = min(counts[threshold.feature] ?? Int64.max, threshold.count)
      }
      thresholdCount = counts
      positions = [[UInt32]](repeating: [], count: featureCount)
      otherStarts.reserveCapacity(subjectCount + 1)
      itemCounts.reserveCapacity(subjectCount)
      runs.reserveCapacity(subjectCount * featureCount + 1)
    }

    /// Adds the next subject's events; false when a use names no feature.
    mutating func add(_ events: UnsafeBufferPointer<Event>) -> Bool {
      var itemCount = 0
      for position in events.indices {
        let event = events[position]
        guard event.kind == .usage else {
          others.append(event)
          itemCount = position + 1
          continue
        }
        guard Int(event.feature) < featureCount else { return false }
        positions[Int(event.feature)].append(UInt32(position))
      }
      otherStarts.append(UInt32(others.count))
      itemCounts.append(UInt32(itemCount))
      for feature in 0..<featureCount {
        appendRun(positions[feature], events: events, threshold: thresholdCount[feature])
        positions[feature].removeAll(keepingCapacity: true)
      }
      return true
    }

    private mutating func appendRun(_ positions: [UInt32], events: UnsafeBufferPointer<Event>, threshold: Int64?) {
      var sum: Int64 = 0
      var recordedMax = Timestamp.distantPast
      var run = Run(start: UInt32(uses.count), reach: -1, isRecordedFromAt: true)
      for position in positions {
        let event = events[Int(position)]
        sum &+= event.quantity
        recordedMax = max(recordedMax, event.recorded)
        run.isRecordedFromAt = run.isRecordedFromAt && event.recorded >= event.at
        // As `TrialThresholds.add` sums: wrapping, the first use at or over the count.
        if run.reach < 0, let threshold, sum >= threshold { run.reach = Int32(uses.count - Int(run.start)) }
        uses.append(Use(at: event.at, sum: sum, recordedMax: recordedMax))
        usePosition.append(position)
      }
      runs.append(run)
    }
  }

  /// Where subject `s`'s events that are not uses lie in `others`.
  @inline(__always)
  func others(of subject: Int) -> Range<Int> { Int(otherStarts[subject])..<Int(otherStarts[subject + 1]) }

  /// Calls `body` with the addresses a query of `subject` reads first (to prefetch them).
  package func forEachAddress(of subject: Int, _ body: (UnsafeRawPointer) -> Void) {
    func lines<Element>(_ array: [Element], _ range: Range<Int>, max: Int) {
      array.withUnsafeBufferPointer { buffer in
        var address = UnsafeRawPointer(buffer.baseAddress! + range.lowerBound)
        let last = UnsafeRawPointer(buffer.baseAddress! + range.upperBound)
        var count = 0
        while address < last && count < max {
          body(address)
          address += 64
          count += 1
        }
      }
    }
    let r = subject * featureCount
    lines(others, others(of: subject), max: 8)
    lines(runs, r..<(r + featureCount + 1), max: 2)
    lines(uses, Int(runs[r].start)..<Int(runs[r + featureCount].start), max: 24)
  }

  /// The first index of `range` whose use fails `isBefore` (which holds for a prefix of the run).
  /// - Complexity: O(log range).
  @inline(__always)
  func partition(_ range: Range<Int>, isBefore: (Use) -> Bool) -> Int {
    var low = range.lowerBound
    var high = range.upperBound
    while low < high {
      let middle = (low + high) / 2
      if isBefore(uses[middle]) { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The wrapping sum of the uses in `lower..<upper` of the run starting at `runStart`.
  @inline(__always)
  func sum(_ lower: Int, _ upper: Int, runStart: Int) -> Int64 {
    guard lower < upper else { return 0 }
    return uses[upper - 1].sum &- (lower > runStart ? uses[lower - 1].sum : 0)
  }
}

/// What deciding the policy at T as known at R needs, read from a `UsageIndex` for one
/// subject: the `UsageFacts` that `UsageFold` gathers by visiting every use.
struct IndexedUsage: UsageFacts {
  /// The earliest `at` of a counted event (uses from the index, other events from the fold).
  var first: Timestamp? = nil
  /// The trial's conversion, from the fold of the other events.
  var conversion: Timestamp? = nil
  private var windows = CalendarWindows(containing: Timestamp(millisecondsSinceEpoch: 0), offsetMs: 0)
  private var time = Timestamp(millisecondsSinceEpoch: 0)
  private var knownBy = Timestamp.distantFuture
  private var reached: [Timestamp] = []
  /// Per feature: the run, its first index whose running `recorded` maximum is after R, the
  /// end of the uses that may be known by R, and its first index at T or later.
  private var runs: [(run: Range<Int>, late: Int, lateEnd: Int, atTime: Int)] = []
  /// The index read (set once per engine: resetting does not copy it).
  var index: UsageIndex? = nil
  private var events: UnsafeBufferPointer<Event> = UnsafeBufferPointer(start: nil, count: 0)

  /// Reads `subject`'s uses (`events` are its events) from `index` at T as known at `knownBy`; `fold` holds
  /// what the fold of its other events found.
  /// - Complexity: O(features × log uses), plus the uses recorded after `knownBy`.
  mutating func reset(
    subject: Int, events: UnsafeBufferPointer<Event>, at time: Timestamp, knownBy: Timestamp,
    windows: CalendarWindows, fold: UsageFold
  ) {
    let index = self.index.unsafelyUnwrapped
    self.events = events
    self.time = time
    self.knownBy = knownBy
    self.windows = windows
    conversion = fold.conversion
    first = fold.first
    runs.removeAll(keepingCapacity: true)
    reached.removeAll(keepingCapacity: true)
    let firstRun = subject * index.featureCount
    for feature in 0..<index.featureCount {
      let header = index.runs[firstRun + feature]
      let run = Int(header.start)..<Int(index.runs[firstRun + feature + 1].start)
      let late = knownBy == .distantFuture ? run.upperBound : index.partition(run) { $0.recordedMax <= knownBy }
      // A use recorded no earlier than its `at` and after R has `at` after R too.
      let lateEnd = header.isRecordedFromAt ? index.partition(late..<run.upperBound) { $0.at <= knownBy } : run.upperBound
      let atTime = index.partition(run) { $0.at < time }
      runs.append((run, late, lateEnd, atTime))
      if !run.isEmpty, let earliest = firstCounted(index, run, late: late, lateEnd: lateEnd),
        first.map({ earliest < $0 }) ?? true
      {
        first = earliest
      }
      let reach = header.reach < 0 ? nil : run.lowerBound + Int(header.reach)
      reached.append(reachedAt(index, run, late: late, lateEnd: lateEnd, reach: reach, count: index.thresholdCount[feature]))
    }
  }

  /// Whether use `u` (at or after the run's first late use) was known by R.
  @inline(__always)
  private func isKnown(_ index: UsageIndex, _ u: Int) -> Bool { events[Int(index.usePosition[u])].recorded <= knownBy }

  /// The `at` of the run's first use counted at T as known at R.
  private func firstCounted(_ index: UsageIndex, _ run: Range<Int>, late: Int, lateEnd: Int) -> Timestamp? {
    for u in run.lowerBound..<max(late, lateEnd) where u < late || isKnown(index, u) {
      return index.uses[u].at <= time ? index.uses[u].at : nil
    }
    return nil
  }

  /// When the run's counted uses (at ≤ T) first reach `count`, as `TrialThresholds` finds it.
  private func reachedAt(
    _ index: UsageIndex, _ run: Range<Int>, late: Int, lateEnd: Int, reach: Int?, count: Int64?
  ) -> Timestamp {
    guard let count else { return .distantFuture }
    // Every use before `late` counts: the index found where their sum first reaches the count.
    if let reach, reach < late { return index.uses[reach].at <= time ? index.uses[reach].at : .distantFuture }
    var sum = index.sum(run.lowerBound, late, runStart: run.lowerBound)
    for u in late..<lateEnd {
      if index.uses[u].at > time { break }
      if isKnown(index, u) {
        sum &+= index.sum(u, u + 1, runStart: run.lowerBound)
        if sum >= count { return index.uses[u].at }
      }
    }
    return .distantFuture
  }

  func thresholdReachedAt(_ feature: Int) -> Timestamp { reached[feature] }

  func windowEnd(_ window: UsageWindow) -> Timestamp? { windows.end(window) }

  /// The sum of uses of `feature` in the `window` that contains T, before T, known by R.
  /// - Complexity: O(log uses), plus the run's uses recorded after R.
  func used(_ feature: Int, in window: UsageWindow) -> Int64 {
    let index = self.index.unsafelyUnwrapped
    let (run, late, lateEnd, atTime) = runs[feature]
    let startInstant = windows.start(window)
    let start = index.partition(run.lowerBound..<atTime) { $0.at < startInstant }
    var total = index.sum(start, min(atTime, late), runStart: run.lowerBound)
    var u = max(start, late)
    while u < min(atTime, lateEnd) {
      if isKnown(index, u) { total &+= index.sum(u, u + 1, runStart: run.lowerBound) }
      u += 1
    }
    return total
  }
}
