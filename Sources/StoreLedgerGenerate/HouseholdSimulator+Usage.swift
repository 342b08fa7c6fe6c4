import StoreLedger

/// A stretch of time in which a subject holds `pro`, as its app believes.
///
/// Gathered while the purchase story is simulated; the app's idea can differ from the
/// ledger's (billing retry, a member removed from sharing, a purchase the ledger learns
/// late), and uses in those gaps are leaks, as they are in real apps.
struct ProSpan {
  var subject: UInt32
  var from: Int64
  var to: Int64
}

/// The rates of the usage simulation, in parts per million unless named otherwise.
///
/// Chosen so that usage is most of a log (about five uses per purchase-side event),
/// most customers use the app lightly for a few weeks, a long tail uses it heavily
/// and for months, free users hit the daily limit, and a few percent of clients are
/// buggy enough to let a blocked use through.
enum UsageRates {
  /// Of customers, by how many AI queries a session holds on average, per mille (the rest are power users).
  static let lightPerMille: UInt64 = 600
  static let regularPerMille: UInt64 = 300
  static let heavyPerMille: UInt64 = 80
  /// Share of days on which an engaged customer opens the app: 5 % plus up to this.
  static let activeDayBase: UInt64 = 50_000
  static let activeDaySpread: UInt64 = 300_000
  /// Customers who stay engaged for months rather than weeks.
  static let loyal: UInt64 = 100_000
  /// Another session the same day, after one ends.
  static let anotherSession: UInt64 = 450_000
  /// A batch request counted as several queries at once.
  static let batchQuery: UInt64 = 20_000
  /// A pattern found after a query (trial and Pro only).
  static let patternAfterQuery: UInt64 = 40_000
  /// A session that touches saved items, and of those, one that deletes some.
  static let savedItemsTouched: UInt64 = 250_000
  static let releaseWhenHeld: UInt64 = 350_000
  /// A blocked save the customer resolves by deleting a held item first (delete, save again).
  static let releaseToSave: UInt64 = 300_000
  /// A Pro session with an export.
  static let export: UInt64 = 120_000
  /// `quantity` written although it is the default 1.
  static let explicitQuantity: UInt64 = 100_000
  /// A client that lets blocked uses through, and how often it does when a use is blocked.
  static let leakyClient: UInt64 = 40_000
  static let leakWhenBlocked: UInt64 = 300_000
  /// A leaky free client's session that tries the Pro-only export.
  static let premiumLeak: UInt64 = 40_000
  /// Most usage events of one subject (an explicit bound on the long tail).
  static let eventsPerSubjectMax = 20_000
}

/// What a simulated app knows about its customer's policy standing, mirroring the
/// generated policy (see `GeneratedPolicy`) so that uses stop at limits as a
/// well-behaved client's would.
private struct ClientView {
  /// The subject's first event: the trial's start and the intro week's.
  var first: Int64
  /// When the subject first held `pro` (the trial's conversion), or `Int64.max`.
  var conversion: Int64
  /// The trial's maturity so far: `first + 21 days` until a threshold is reached earlier.
  var maturity: Int64
  var trialQueries: Int64 = 0
  var trialPatterns: Int64 = 0
  /// The local day the daily counters are for.
  var day: Int64 = .min
  var dayQueries: Int64 = 0
  var everQueries: Int64 = 0
  /// Saved items held: the plain sum of saves and releases.
  var held: Int64 = 0

  init(first: Int64, conversion: Int64) {
    self.first = first
    self.conversion = conversion
    maturity = first + GeneratedPolicy.trialDays * Span.day
  }

  /// Whether the usage-based trial (or its grace) is on at `at`.
  func isInTrial(_ at: Int64) -> Bool {
    at < conversion && at < maturity + GeneratedPolicy.graceHours * Span.hour
  }

  /// Whether a use of `feature` at `at` is allowed, given `isPro`.
  mutating func allows(_ feature: GeneratedFeature, at: Int64, isPro: Bool) -> Bool {
    rollDay(at)
    let inTrial = isInTrial(at)
    switch feature {
    case .aiQuery:
      return isPro && dayQueries < GeneratedPolicy.proQueriesPerDay || inTrial
        || at < first + GeneratedPolicy.introDays * Span.day && everQueries < GeneratedPolicy.introQueries
        || dayQueries < GeneratedPolicy.freeQueriesPerDay
    case .export:
      return isPro
    case .pattern:
      return isPro || inTrial
    case .savedItem:
      return isPro || inTrial || held < GeneratedPolicy.freeSavedItems
    }
  }

  /// Counts a use of `quantity` at `at`.
  mutating func count(_ feature: GeneratedFeature, _ quantity: Int64, at: Int64) {
    rollDay(at)
    switch feature {
    case .aiQuery:
      dayQueries += quantity
      everQueries += quantity
      trialQueries += quantity
      if trialQueries >= GeneratedPolicy.trialQueries { maturity = min(maturity, at) }
    case .pattern:
      trialPatterns += quantity
      if trialPatterns >= GeneratedPolicy.trialPatterns { maturity = min(maturity, at) }
    case .savedItem:
      held += quantity
    case .export:
      break
    }
  }

  private mutating func rollDay(_ at: Int64) {
    let day = floorDivide(at + GeneratedPolicy.utcOffsetMs, Span.day)
    if day != self.day {
      self.day = day
      dayQueries = 0
    }
  }
}

extension HouseholdSimulator {
  /// Notes that `subject`'s app shows `pro` from `from` until `to`.
  mutating func grantPro(_ subject: UInt32, from: Int64, to: Int64) {
    if to > from { proSpans.append(ProSpan(subject: subject, from: from, to: to)) }
  }

  private func isPro(_ subject: UInt32, at: Int64) -> Bool {
    proSpans.contains { $0.subject == subject && $0.from <= at && at < $0.to }
      && !blockedSpans.contains { $0.subject == subject && $0.from <= at && at < $0.to }
  }

  /// How one subject uses the app: when it installs and drifts away, and how hard it uses it.
  private struct UsageHabit {
    let install: Int64
    let lastActive: Int64
    let queriesPerSession: Int64
    /// Chance, per million, that a day after the first is active.
    let activeDay: UInt64
    let isLeaky: Bool
  }

  /// Where one subject's usage stands within a day.
  private struct UsageCursor {
    /// The next instant of use.
    var at: Int64
    /// The last use written (uses are at least a second apart).
    var lastUse = Int64.min
    /// Usage events written.
    var written = 0
    /// What the client knows of its policy standing.
    var view: ClientView
  }

  /// One subject's `usage` events, from installing the app until it drifts away.
  ///
  /// The organiser installs before its first purchase (so the usage-based trial
  /// runs before subscribing, and matures first for some); a family member starts
  /// once the plan is shared. Each active day holds sessions of bursts of queries
  /// seconds apart; saves and releases of saved items, patterns and exports follow
  /// what the customer's tier allows, except on leaky clients.
  /// - Complexity: O(days active + uses), uses at most `UsageRates.eventsPerSubjectMax`.
  mutating func simulateUsage(subject: UInt32, arrival: Int64, isOrganiser: Bool) {
    var firstPro = Int64.max
    for span in proSpans where span.subject == subject { firstPro = min(firstPro, span.from) }
    guard let habit = usageHabit(arrival: arrival, isOrganiser: isOrganiser, firstPro: firstPro) else { return }
    // The trial starts at the subject's first event: the install or, for members, the shared purchase.
    var cursor = UsageCursor(at: habit.install, view: ClientView(first: min(habit.install, firstPro), conversion: firstPro))
    let offset = GeneratedPolicy.utcOffsetMs
    var dayStart = floorDivide(habit.install + offset, Span.day) * Span.day - offset
    var isFirstDay = true
    while dayStart < habit.lastActive, cursor.written < UsageRates.eventsPerSubjectMax {
      defer {
        dayStart += Span.day
        isFirstDay = false
      }
      guard isFirstDay || random.chance(habit.activeDay) else { continue }
      let dayEnd = min(dayStart + Span.day - Span.minute, horizonAt)
      cursor.at = max(dayStart + random.between(7 * Span.hour, 12 * Span.hour), habit.install)
      while cursor.at < dayEnd, cursor.written < UsageRates.eventsPerSubjectMax {
        session(subject: subject, habit: habit, dayEnd: dayEnd, cursor: &cursor)
        guard random.chance(UsageRates.anotherSession) else { break }
        cursor.at = max(cursor.at, cursor.lastUse) + random.between(30 * Span.minute, 6 * Span.hour)
      }
    }
  }

  /// When a subject installs (nil when it never does within the history), how long it stays
  /// and how hard it uses the app.
  private mutating func usageHabit(arrival: Int64, isOrganiser: Bool, firstPro: Int64) -> UsageHabit? {
    let install: Int64
    if isOrganiser {
      // Before the first purchase: within the trial for some, weeks or months earlier for others.
      let roll = random.below(100)
      let lead =
        roll < 40
        ? random.between(Span.hour, 3 * Span.day)
        : roll < 70 ? random.between(3 * Span.day, 21 * Span.day) : random.between(21 * Span.day, 120 * Span.day)
      install = max(startAt + random.between(0, Span.day), arrival - lead)
    } else {
      guard firstPro != .max else { return nil }
      install = firstPro + random.between(Span.hour, 7 * Span.day)
    }
    guard install < horizonAt else { return nil }
    let heavy = usageLevel == .heavy
    let classRoll = random.below(1000)
    var queriesPerSession: Int64 =
      classRoll < UsageRates.lightPerMille
      ? 1 + Int64(random.below(2))
      : classRoll < UsageRates.lightPerMille + UsageRates.regularPerMille
        ? 2 + Int64(random.below(4))
        : classRoll < UsageRates.lightPerMille + UsageRates.regularPerMille + UsageRates.heavyPerMille
          ? 6 + Int64(random.below(12)) : 20 + Int64(random.below(40))
    var activeDay = UsageRates.activeDayBase + random.below(UsageRates.activeDaySpread)
    var engaged =
      random.chance(UsageRates.loyal)
      ? random.between(30 * Span.day, 300 * Span.day) : random.between(2 * Span.day, 30 * Span.day)
    if heavy {
      queriesPerSession *= 2
      activeDay += 150_000
      engaged += engaged / 2
    }
    let isLeaky = random.chance(UsageRates.leakyClient)
    var lastActive = install + engaged
    // Paying keeps a customer around for a while, not for the whole subscription.
    if firstPro != .max { lastActive = max(lastActive, firstPro + random.between(7 * Span.day, 60 * Span.day)) }
    lastActive = min(lastActive, horizonAt)
    return UsageHabit(
      install: install, lastActive: lastActive, queriesPerSession: queriesPerSession, activeDay: activeDay,
      isLeaky: isLeaky)
  }

  /// One session: a burst of queries seconds apart, then maybe saved items, patterns, an export.
  private mutating func session(subject: UInt32, habit: UsageHabit, dayEnd: Int64, cursor: inout UsageCursor) {
    let isLeaky = habit.isLeaky
    let queries = 1 + Int64(random.below(UInt64(habit.queriesPerSession)))
    for _ in 0..<queries {
      cursor.at = max(cursor.at, cursor.lastUse + Span.second)
      guard cursor.at < dayEnd else { break }
      let at = cursor.at
      let pro = isPro(subject, at: at)
      let quantity: Int64 = random.chance(UsageRates.batchQuery) ? 2 + Int64(random.below(4)) : 1
      guard attempt(.aiQuery, quantity, subject: subject, at: at, isPro: pro, isLeaky: isLeaky, view: &cursor.view)
      else {
        // Blocked: the burst ends here.
        cursor.at += random.between(2 * Span.second, 90 * Span.second)
        break
      }
      cursor.lastUse = at
      cursor.written += 1
      if pro || cursor.view.isInTrial(at), random.chance(UsageRates.patternAfterQuery) {
        let patternAt = at + random.between(Span.second, 5 * Span.second)
        if patternAt < dayEnd,
          attempt(.pattern, 1, subject: subject, at: patternAt, isPro: pro, isLeaky: isLeaky, view: &cursor.view)
        {
          cursor.lastUse = patternAt
          cursor.written += 1
        }
      }
      cursor.at += random.between(2 * Span.second, 90 * Span.second)
    }
    if random.chance(UsageRates.savedItemsTouched) {
      cursor.at = max(cursor.at, cursor.lastUse + Span.second)
      if cursor.at < dayEnd {
        cursor.written += savedItems(
          subject: subject, at: cursor.at, isLeaky: isLeaky, view: &cursor.view, lastUse: &cursor.lastUse)
      }
    }
    cursor.at = max(cursor.at, cursor.lastUse + Span.second)
    let at = cursor.at
    let pro = at < dayEnd && isPro(subject, at: at)
    if at < dayEnd, pro ? random.chance(UsageRates.export) : isLeaky && random.chance(UsageRates.premiumLeak) {
      if attempt(.export, 1, subject: subject, at: at, isPro: pro, isLeaky: isLeaky, view: &cursor.view) {
        cursor.lastUse = at
        cursor.written += 1
      }
    }
  }

  /// A session's saved items: a release of held items, or a save (after deleting one when
  /// the tier's limit blocks it). Returns how many events it recorded.
  private mutating func savedItems(
    subject: UInt32, at start: Int64, isLeaky: Bool, view: inout ClientView, lastUse: inout Int64
  ) -> Int {
    var at = start
    var written = 0
    let pro = isPro(subject, at: at)
    if view.held > 0, random.chance(UsageRates.releaseWhenHeld) {
      // Deleting held items: usually one, sometimes several at once (a negative quantity).
      let released = view.held > 1 && random.chance(250_000) ? min(view.held, 2 + Int64(random.below(3))) : 1
      recordUse(.savedItem, -released, subject: subject, at: at, view: &view)
      lastUse = at
      return 1
    }
    if !view.allows(.savedItem, at: at, isPro: pro), view.held > 0, random.chance(UsageRates.releaseToSave) {
      recordUse(.savedItem, -1, subject: subject, at: at, view: &view)
      lastUse = at
      written += 1
      at += random.between(Span.second, 2 * Span.minute)
    }
    if attempt(.savedItem, 1, subject: subject, at: at, isPro: pro, isLeaky: isLeaky, view: &view) {
      lastUse = at
      written += 1
    }
    return written
  }

  /// A use the client makes when its view allows it, or, on a leaky client, sometimes anyway.
  private mutating func attempt(
    _ feature: GeneratedFeature, _ quantity: Int64, subject: UInt32, at: Int64, isPro: Bool, isLeaky: Bool,
    view: inout ClientView
  ) -> Bool {
    guard view.allows(feature, at: at, isPro: isPro) || isLeaky && random.chance(UsageRates.leakWhenBlocked) else {
      return false
    }
    recordUse(feature, quantity, subject: subject, at: at, view: &view)
    return true
  }

  private mutating func recordUse(
    _ feature: GeneratedFeature, _ quantity: Int64, subject: UInt32, at: Int64, view: inout ClientView
  ) {
    var use = GeneratedEvent(.usage, subject: subject, at: at)
    use.feature = feature
    // `quantity` defaults to 1; some clients write it anyway.
    use.quantity = quantity != 1 || random.chance(UsageRates.explicitQuantity) ? quantity : 0
    view.count(feature, quantity, at: at)
    record(use)
  }
}
