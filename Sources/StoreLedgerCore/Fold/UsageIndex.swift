/// Every subject's uses, by feature, with running sums, so a point-in-time fold sums a usage
/// window with binary searches instead of visiting every use (issue 25: audit with usage).
///
/// Built once over a loaded ledger's events (grouped by subject, in effective order) for a
/// batch of queries. Per subject it keeps a copy of the events that are not uses (what the
/// fold still applies one by one) and, per (subject, feature), a run of that feature's uses
/// in effective order with their `at` and `recorded`, the running sum of quantities and the
/// running maximum of `recorded`. Uses recorded after R are excluded exactly: the running maximum says up to
/// where every use counts, and only the uses after that point are looked at one by one.
/// `PointInTimeFold` answers the same as without it; a differential test pins the two.
package final class UsageIndex: @unchecked Sendable {
  /// One use: what the sums and the knowledge cut need, 32 bytes (two per cache line), a
  /// subject's uses contiguous.
  struct Use {
    /// Its `at`.
    var at: Timestamp
    /// The wrapping sum of its run's quantities up to and including it.
    var sum: Int64
    /// The latest `recorded` of its run up to and including it.
    var recordedMax: Timestamp
    /// Its own `recorded` (for the uses after the running maximum passes R).
    var recorded: Timestamp
  }

  /// One (subject, feature) run of uses, as a query reads it from the subject's header.
  struct Run {
    /// Its uses, positions in `uses`.
    var uses: Range<Int>
    /// The position in `uses` of the first use whose running sum reaches the feature's trial
    /// threshold when every use counts; nil: none, or no threshold.
    var reach: Int?
    /// Whether every use in it has `recorded` ≥ `at` (then none after R is known by R).
    var isRecordedFromAt: Bool
  }

  /// A non-empty run in brief, kept in the subject's header, so that a query before, after or
  /// beside all of a run's uses (most queries) is answered without reading a use.
  struct RunSummary {
    /// The `at` of its first use and of its last (uses are in effective order).
    var firstAt: Timestamp
    var lastAt: Timestamp
    /// The earliest `recorded` of its uses, and the latest (its last use's `recordedMax`).
    var recordedMin: Timestamp
    var recordedMax: Timestamp
    /// The wrapping sum of all its quantities (its last use's `sum`).
    var total: Int64
    /// The `at` of the use whose running sum first reaches the feature's trial threshold
    /// (`Run.reach`), `distantFuture` when none does or there is no threshold.
    var reachAt: Timestamp

    /// How many of the run's uses count at T as known at R: none (every `at` is after T, or
    /// every `recorded` after R), every one (every `at` before T and every `recorded` by R),
    /// or some, which only the uses themselves say.
    @inline(__always)
    func share(at time: Timestamp, knownBy: Timestamp) -> Share {
      if time < firstAt || knownBy < recordedMin { return .none }
      return time > lastAt && knownBy >= recordedMax ? .every : .some
    }
  }

  /// What `RunSummary.share` finds.
  enum Share {
    case none
    case every
    case some
  }

  /// The policy's feature count.
  let featureCount: Int
  /// Per feature: the smallest trial threshold count, or nil when the trial has none for it.
  let thresholdCount: [Int64?]
  /// 32-bit words per subject header, a multiple of 16 so that a header is whole 64-byte lines:
  /// `[0]` first other event, `[1]` one past the last, `[2]` item count, `[3 + f]` feature f's
  /// first use, `[3 + featureCount]` one past the subject's last use, `[4 + featureCount + f]`
  /// feature f's reach (+1, 0: none) with bit 31 set when its run is recorded from `at`; then,
  /// from byte `summaryOffset`, feature f's `RunSummary` (zeros for an empty run).
  let headerStride: Int
  /// Where a header's run summaries start, in bytes (8-byte aligned).
  let summaryOffset: Int
  /// Every subject's header, one after the other, 64-byte aligned.
  private let headers: UnsafeMutableBufferPointer<UInt32>
  /// Every subject's events that are not uses, subject by subject, in effective order: a copy,
  /// so the fold reads them contiguously (reading them in place among the uses costs a cache miss each).
  private let otherBuffer: UnsafeMutableBufferPointer<Event>
  /// Every use, subject by subject and feature by feature.
  private let useBuffer: UnsafeMutableBufferPointer<Use>
  /// `thresholdCount` for `View`: per feature its count, then per feature 1 when it has one.
  private let thresholdWords: UnsafeMutableBufferPointer<Int64>

  /// Indexes `events`, subject `s` owning `events[subjectStarts[s]..<subjectStarts[s + 1]]`;
  /// nil when every 31st event from the first is not a use (then uses are rare or absent), or
  /// when a use names no feature of `policy`; the fold then visits every event.
  /// `capacityGuess` replaces the sizes guessed for the copies (tests force regrowth with it).
  /// - Complexity: O(events + subjects × features).
  package init?(
    events: UnsafeBufferPointer<Event>, subjectStarts: [UInt32], policy: Policy, capacityGuess: Int? = nil
  ) {
    // Without (many) uses there is little to skip: the plain fold is as fast and needs no copy.
    // A sample decides, so a log without usage is not read whole for nothing.
    let sampled = stride(from: 0, to: events.count, by: 31).lazy.filter { events[$0].kind == .usage }.count
    guard sampled > 0 else { return nil }
    let subjectCount = subjectStarts.count - 1
    // The sample's share of uses sizes the copies; a wrong guess only costs a regrowth.
    let sampleCount = (events.count + 30) / 31
    let usesGuess = min(events.count, events.count / sampleCount * sampled + events.count / 16 + 4096)
    let othersGuess = min(events.count, events.count - usesGuess + events.count / 8 + 4096)
    var builder = Builder(
      policy: policy, subjectCount: subjectCount, usesGuess: capacityGuess ?? usesGuess,
      othersGuess: capacityGuess ?? othersGuess)
    for s in 0..<subjectCount {
      let subjectEvents = UnsafeBufferPointer(rebasing: events[Int(subjectStarts[s])..<Int(subjectStarts[s + 1])])
      guard builder.add(subjectEvents, header: s) else {
        builder.deallocate()
        return nil
      }
    }
    featureCount = builder.featureCount
    thresholdCount = builder.thresholdCount
    headerStride = builder.headerStride
    summaryOffset = builder.summaryOffset
    headers = builder.headers
    otherBuffer = builder.others.storage
    useBuffer = builder.uses.storage
    thresholdWords = .allocate(capacity: max(1, 2 * featureCount))
    for (feature, count) in thresholdCount.enumerated() {
      thresholdWords[feature] = count ?? 0
      thresholdWords[featureCount + feature] = count == nil ? 0 : 1
    }
  }

  deinit {
    headers.deallocate()
    otherBuffer.deallocate()
    useBuffer.deallocate()
    thresholdWords.deallocate()
  }

  /// The index's buffers, read with no reference counting per query.
  package var view: View {
    View(
      featureCount: featureCount, headerStride: headerStride, summaryOffset: summaryOffset,
      headers: UnsafePointer(headers.baseAddress),
      otherBase: UnsafePointer(otherBuffer.baseAddress), useBase: UnsafePointer(useBuffer.baseAddress),
      thresholdWords: UnsafePointer(thresholdWords.baseAddress))
  }

  /// A buffer that grows by doubling, on huge pages where the kernel allows (the index is
  /// read at random, one subject per query).
  private struct Growing<Element> {
    var storage: UnsafeMutableBufferPointer<Element>
    var count = 0

    init(capacity: Int) { storage = Self.allocate(max(capacity, 1)) }

    static func allocate(_ capacity: Int) -> UnsafeMutableBufferPointer<Element> {
      let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: capacity)
      PageAdvice.preferHugePages(UnsafeMutableRawBufferPointer(buffer))
      return buffer
    }

    /// Room for `more` elements after `count`.
    mutating func reserve(_ more: Int) {
      guard count + more > storage.count else { return }
      let larger = Self.allocate(max(storage.count * 2, count + more))
      larger.baseAddress!.moveInitialize(from: storage.baseAddress!, count: count)
      storage.deallocate()
      storage = larger
    }

    mutating func append(_ element: Element) {
      reserve(1)
      (storage.baseAddress! + count).initialize(to: element)
      count += 1
    }
  }

  /// The buffers of a `UsageIndex`, filled one subject at a time.
  private struct Builder {
    let featureCount: Int
    let thresholdCount: [Int64?]
    let headerStride: Int
    let summaryOffset: Int
    let headers: UnsafeMutableBufferPointer<UInt32>
    var others: Growing<Event>
    var uses: Growing<Use>
    /// Per feature, the current subject's next use position, then its running sums (reused).
    var next: [Int]
    var sums: [Int64]
    var recordedMax: [Timestamp]
    var recordedMin: [Timestamp]

    init(policy: Policy, subjectCount: Int, usesGuess: Int, othersGuess: Int) {
      featureCount = policy.features.count
      var counts = [Int64?](repeating: nil, count: featureCount)
      for threshold in policy.trial?.thresholds ?? [] where threshold.feature < featureCount {
        counts[threshold.feature] = min(counts[threshold.feature] ?? Int64.max, threshold.count)
      }
      thresholdCount = counts
      summaryOffset = (4 + 2 * featureCount + 1) / 2 * 8
      headerStride = (summaryOffset + featureCount * MemoryLayout<RunSummary>.stride + 63) / 64 * 16
      let words = UnsafeMutableRawBufferPointer.allocate(
        byteCount: max(1, subjectCount * headerStride) * 4, alignment: 64)
      PageAdvice.preferHugePages(words)
      headers = words.bindMemory(to: UInt32.self)
      headers.initialize(repeating: 0)
      others = Growing(capacity: othersGuess)
      uses = Growing(capacity: usesGuess)
      next = [Int](repeating: 0, count: featureCount)
      sums = [Int64](repeating: 0, count: featureCount)
      recordedMax = [Timestamp](repeating: .distantPast, count: featureCount)
      recordedMin = [Timestamp](repeating: .distantFuture, count: featureCount)
    }

    func deallocate() {
      headers.deallocate()
      others.storage.deallocate()
      uses.storage.deallocate()
    }

    /// Adds subject `header`'s events; false when a use names no feature.
    mutating func add(_ events: UnsafeBufferPointer<Event>, header: Int) -> Bool {
      let words = headers.baseAddress! + header * headerStride
      words[0] = UInt32(others.count)
      for feature in 0..<featureCount { next[feature] = 0 }
      var itemCount = 0
      // First pass: the other events copied, the uses counted per feature.
      for position in events.indices {
        let event = events[position]
        guard event.kind == .usage else {
          others.append(event)
          // Only a one-time purchase or a grant fills an item, at its own position (`Resolver`); a
          // subscription purchase numbered like its position only makes the count safely larger.
          if (event.kind == .purchase || event.kind == .grant) && Int(event.slot) == position { itemCount = position + 1 }
          continue
        }
        guard Int(event.feature) < featureCount else { return false }
        next[Int(event.feature)] += 1
      }
      words[1] = UInt32(others.count)
      words[2] = UInt32(itemCount)
      let useCount = events.count - (others.count - Int(words[0]))
      uses.reserve(useCount)
      var start = uses.count
      for feature in 0..<featureCount {
        words[3 + feature] = UInt32(start)
        let count = next[feature]
        next[feature] = start
        start += count
        sums[feature] = 0
        recordedMax[feature] = .distantPast
        recordedMin[feature] = .distantFuture
        words[4 + featureCount + feature] = 1 << 31
      }
      words[3 + featureCount] = UInt32(start)
      // Second pass (the events are in cache): each use into its feature's run.
      for event in events where event.kind == .usage {
        append(event, words: words)
      }
      uses.count = start
      for feature in 0..<featureCount { summarize(feature, words: words) }
      return true
    }

    /// Writes feature `feature`'s `RunSummary` into the header at `words` (nothing for an empty run).
    private func summarize(_ feature: Int, words: UnsafeMutablePointer<UInt32>) {
      let start = Int(words[3 + feature])
      let end = Int(words[4 + feature])
      guard start < end else { return }
      let uses = self.uses.storage.baseAddress!
      let reach = Int(words[4 + featureCount + feature] & ~(1 << 31))
      let summary = RunSummary(
        firstAt: uses[start].at, lastAt: uses[end - 1].at, recordedMin: recordedMin[feature],
        recordedMax: recordedMax[feature], total: sums[feature],
        reachAt: reach == 0 ? .distantFuture : uses[start + reach - 1].at)
      UnsafeMutableRawPointer(words).storeBytes(
        of: summary, toByteOffset: summaryOffset + feature * MemoryLayout<RunSummary>.stride, as: RunSummary.self)
    }

    /// Writes one use at its feature's next position, with the running sum and `recorded` maximum.
    private mutating func append(_ event: Event, words: UnsafeMutablePointer<UInt32>) {
      let feature = Int(event.feature)
      let position = next[feature]
      next[feature] = position + 1
      sums[feature] &+= event.quantity
      recordedMax[feature] = max(recordedMax[feature], event.recorded)
      recordedMin[feature] = min(recordedMin[feature], event.recorded)
      let reachWord = 4 + featureCount + feature
      if event.recorded < event.at { words[reachWord] &= ~(1 << 31) }
      // As `TrialThresholds.add` sums: wrapping, the first use at or over the count.
      if words[reachWord] & ~(1 << 31) == 0, let threshold = thresholdCount[feature], sums[feature] >= threshold {
        words[reachWord] |= UInt32(position - Int(words[3 + feature]) + 1)
      }
      (uses.storage.baseAddress! + position).initialize(
        to: Use(at: event.at, sum: sums[feature], recordedMax: recordedMax[feature], recorded: event.recorded))
    }
  }

  /// A `UsageIndex`'s buffers as plain pointers, so that a query reads them without
  /// retaining the index (three retains and releases per query otherwise); valid while the
  /// index lives (`IndexedUsage` holds both).
  package struct View {
    /// The policy's feature count.
    let featureCount: Int
    let headerStride: Int
    let summaryOffset: Int
    let headers: UnsafePointer<UInt32>?
    let otherBase: UnsafePointer<Event>?
    let useBase: UnsafePointer<Use>?
    let thresholdWords: UnsafePointer<Int64>?

    /// A view of no index (`IndexedUsage` before one is set).
    static var empty: View {
      View(
        featureCount: 0, headerStride: 0, summaryOffset: 0, headers: nil, otherBase: nil, useBase: nil,
        thresholdWords: nil)
    }

    /// Every use, subject by subject and feature by feature (index it with a run's positions).
    @inline(__always)
    var uses: UnsafePointer<Use> { useBase.unsafelyUnwrapped }

    /// The header words of `subject`.
    @inline(__always)
    func header(_ subject: Int) -> UnsafePointer<UInt32> { headers.unsafelyUnwrapped + subject * headerStride }

    /// Feature `feature`'s smallest trial threshold count, or nil when the trial has none for it.
    @inline(__always)
    func thresholdCount(_ feature: Int) -> Int64? {
      let words = thresholdWords.unsafelyUnwrapped
      return words[featureCount + feature] != 0 ? words[feature] : nil
    }

    /// Subject `subject`'s events that are not uses, in effective order.
    @inline(__always)
    func others(of subject: Int) -> UnsafeBufferPointer<Event> {
      let words = header(subject)
      return UnsafeBufferPointer(start: otherBase.unsafelyUnwrapped + Int(words[0]), count: Int(words[1] - words[0]))
    }

    /// One past the position (within the subject) of its last one-time purchase: the items a
    /// fold of its other events needs (`SubjectState.items` is indexed by position).
    @inline(__always)
    func itemCount(of subject: Int) -> Int { Int(header(subject)[2]) }

    /// Subject `subject`'s run of `feature`.
    @inline(__always)
    func run(of subject: Int, feature: Int) -> Run {
      let words = header(subject)
      let start = Int(words[3 + feature])
      let reachWord = words[4 + featureCount + feature]
      let reach = Int(reachWord & ~(1 << 31))
      return Run(
        uses: start..<Int(words[4 + feature]), reach: reach == 0 ? nil : start + reach - 1,
        isRecordedFromAt: reachWord & (1 << 31) != 0)
    }

    /// Calls `body` with the address of every cache line of `subject`'s header (to prefetch it
    /// well ahead of its query).
    @inline(__always)
    package func forEachHeaderLine(of subject: Int, _ body: (UnsafeRawPointer) -> Void) {
      let header = UnsafeRawPointer(header(subject))
      for line in stride(from: 0, to: headerStride * 4, by: 64) { body(header + line) }
    }

    /// Calls `body` with the addresses a query of `subject` at T as known at `knownBy` reads
    /// first (to prefetch them once its header is in cache): the first lines of its other
    /// events, and for each run whose summary does not answer the query, its first and last
    /// use and the use reaching the trial's threshold, where the searches start.
    @inline(__always)
    package func forEachAddress(
      of subject: Int, at time: Timestamp, knownBy: Timestamp, _ body: (UnsafeRawPointer) -> Void
    ) {
      let others = others(of: subject)
      var address = UnsafeRawPointer(others.baseAddress!)
      let last = UnsafeRawPointer(others.baseAddress! + others.count)
      var count = 0
      while address < last && count < 8 {
        body(address)
        address += 64
        count += 1
      }
      for feature in 0..<featureCount {
        let run = run(of: subject, feature: feature)
        guard !run.uses.isEmpty, summary(of: subject, feature: feature).share(at: time, knownBy: knownBy) == .some
        else { continue }
        body(UnsafeRawPointer(uses + run.uses.lowerBound))
        body(UnsafeRawPointer(uses + run.uses.upperBound - 1))
        if let reach = run.reach { body(UnsafeRawPointer(uses + reach)) }
      }
    }

    /// Subject `subject`'s summary of its run of `feature` (meaningless for an empty run).
    @inline(__always)
    func summary(of subject: Int, feature: Int) -> RunSummary {
      UnsafeRawPointer(header(subject)).load(
        fromByteOffset: summaryOffset + feature * MemoryLayout<RunSummary>.stride, as: RunSummary.self)
    }

    /// The first position of `range` whose use fails `isBefore` (which holds for a prefix of the run).
    ///
    /// A query's instant is often before or after all of a subject's uses, so both ends are
    /// tried first; between them the number of steps depends only on the length (the compiler
    /// still branches on each comparison).
    /// - Complexity: O(log range).
    @inline(__always)
    func partition(_ range: Range<Int>, isBefore: (Use) -> Bool) -> Int {
      guard !range.isEmpty, isBefore(uses[range.lowerBound]) else { return range.lowerBound }
      if isBefore(uses[range.upperBound - 1]) { return range.upperBound }
      // The answer is in (lower, upper - 1]: the last use before it is at `base` or later.
      var base = range.lowerBound
      var count = range.count - 1
      while count > 1 {
        let half = count / 2
        base = isBefore(uses[base + half]) ? base + half : base
        count -= half
      }
      return base + 1
    }

    /// The wrapping sum of the uses in `lower..<upper` of the run starting at `runStart`.
    @inline(__always)
    func sum(_ lower: Int, _ upper: Int, runStart: Int) -> Int64 {
      guard lower < upper else { return 0 }
      return uses[upper - 1].sum &- (lower > runStart ? uses[lower - 1].sum : 0)
    }
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
  /// Per feature, where its run is cut (written through one buffer pointer per query).
  private var cuts: [Cut] = []
  /// The index read (set once per engine: resetting does not copy it); it keeps `view` valid.
  var index: UsageIndex? = nil {
    didSet { view = index?.view ?? .empty }
  }
  /// `index`'s buffers, read without retaining it.
  private(set) var view = UsageIndex.View.empty

  /// Where one feature's run is cut at T as known at R.
  private struct Cut {
    /// The run.
    var run: Range<Int> = 0..<0
    /// Its first index whose running `recorded` maximum is after R.
    var late = 0
    /// The end of the uses that may be known by R.
    var lateEnd = 0
    /// Its first index at T or later.
    var atTime = 0
    /// When the counted uses first reach the feature's trial threshold (`distantFuture`: not yet).
    var reached = Timestamp.distantFuture
    /// Whether every use of the run counts: then a window starting at or before `firstAt` sums
    /// to `total`, and one starting after `lastAt` to nothing.
    var isWhole = false
    var firstAt = Timestamp.distantPast
    var lastAt = Timestamp.distantPast
    var total: Int64 = 0

    /// A run none of whose uses counts at T as known at R (or an empty one).
    static func nothing(_ run: Range<Int>) -> Cut {
      Cut(run: run, late: run.lowerBound, lateEnd: run.lowerBound, atTime: run.lowerBound)
    }
  }

  /// Reads `subject`'s uses from `index` at T as known at `knownBy`; `fold` holds what the fold
  /// of its other events found.
  /// - Complexity: O(features × log uses), plus the uses recorded after `knownBy`; O(features)
  ///   when each run is wholly before or after T, or wholly known or unknown by R.
  mutating func reset(subject: Int, at time: Timestamp, knownBy: Timestamp, windows: CalendarWindows, fold: UsageFold) {
    let index = view
    self.time = time
    self.knownBy = knownBy
    self.windows = windows
    conversion = fold.conversion
    var first = fold.first
    // Moved out and back, so the buffer stays unique and `search` may read `self`.
    var cutBuffer = self.cuts
    self.cuts = []
    if cutBuffer.count != index.featureCount { cutBuffer = Array(repeating: Cut(), count: index.featureCount) }
    cutBuffer.withUnsafeMutableBufferPointer { cuts in
      for feature in 0..<index.featureCount {
        let header = index.run(of: subject, feature: feature)
        let run = header.uses
        guard !run.isEmpty else {
          cuts[feature] = .nothing(run)
          continue
        }
        // Most queries fall before, after or beside all of a run's uses: its summary answers them.
        let summary = index.summary(of: subject, feature: feature)
        switch summary.share(at: time, knownBy: knownBy) {
        case .none:
          cuts[feature] = .nothing(run)
        case .every:
          cuts[feature] = Cut(
            run: run, late: run.upperBound, lateEnd: run.upperBound, atTime: run.upperBound, reached: summary.reachAt,
            isWhole: true, firstAt: summary.firstAt, lastAt: summary.lastAt, total: summary.total)
          if first.map({ summary.firstAt < $0 }) ?? true { first = summary.firstAt }
        case .some:
          cuts[feature] = search(index, feature: feature, header, first: &first)
        }
      }
    }
    self.cuts = cutBuffer
    self.first = first
  }

  /// Cuts a run that its summary could not, by binary searches and the uses recorded after R;
  /// lowers `first` to its first counted use.
  private func search(_ index: UsageIndex.View, feature: Int, _ header: UsageIndex.Run, first: inout Timestamp?) -> Cut {
    let run = header.uses
    let late = knownBy == .distantFuture ? run.upperBound : index.partition(run) { $0.recordedMax <= knownBy }
    // A use recorded no earlier than its `at` and after R has `at` after R too.
    let lateEnd = header.isRecordedFromAt ? index.partition(late..<run.upperBound) { $0.at <= knownBy } : run.upperBound
    let atTime = index.partition(run) { $0.at < time }
    if let earliest = firstCounted(index, run, late: late, lateEnd: lateEnd), first.map({ earliest < $0 }) ?? true {
      first = earliest
    }
    let reached = reachedAt(
      index, run, late: late, lateEnd: lateEnd, reach: header.reach, count: index.thresholdCount(feature))
    return Cut(run: run, late: late, lateEnd: lateEnd, atTime: atTime, reached: reached)
  }

  /// Whether use `u` (at or after the run's first late use) was known by R.
  @inline(__always)
  private func isKnown(_ index: UsageIndex.View, _ u: Int) -> Bool { index.uses[u].recorded <= knownBy }

  /// The `at` of the run's first use counted at T as known at R.
  private func firstCounted(_ index: UsageIndex.View, _ run: Range<Int>, late: Int, lateEnd: Int) -> Timestamp? {
    for u in run.lowerBound..<max(late, lateEnd) where u < late || isKnown(index, u) {
      return index.uses[u].at <= time ? index.uses[u].at : nil
    }
    return nil
  }

  /// When the run's counted uses (at ≤ T) first reach `count`, as `TrialThresholds` finds it.
  private func reachedAt(
    _ index: UsageIndex.View, _ run: Range<Int>, late: Int, lateEnd: Int, reach: Int?, count: Int64?
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

  func thresholdReachedAt(_ feature: Int) -> Timestamp { cuts[feature].reached }

  func windowEnd(_ window: UsageWindow) -> Timestamp? { windows.end(window) }

  /// The sum of uses of `feature` in the `window` that contains T, before T, known by R.
  /// - Complexity: O(log uses), plus the run's uses recorded after R; O(1) when every use of
  ///   the run counts and the window starts before the first or after the last.
  func used(_ feature: Int, in window: UsageWindow) -> Int64 {
    let index = view
    let cut = cuts[feature]
    let startInstant = windows.start(window)
    if cut.isWhole {
      if startInstant <= cut.firstAt { return cut.total }
      if startInstant > cut.lastAt { return 0 }
    }
    let (run, late, lateEnd, atTime) = (cut.run, cut.late, cut.lateEnd, cut.atTime)
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
