import StoreLedger

/// What to generate: how many subjects, from which seed, over which stretch of time.
///
/// The same options give byte-identical logs on every platform and toolchain.
package struct GeneratorOptions: Sendable, Equatable {
  /// Number of subjects in the log (customers and the family members sharing their plans).
  package var subjects: Int
  /// The seed of every random choice.
  package var seed: UInt64
  /// When the history begins: no event takes effect earlier.
  package var start: Timestamp
  /// Length of the history in calendar months: no event takes effect or is recorded later.
  package var months: Int
  /// How much `usage` the customers generate; `.none` writes the v1-shaped log and catalog.
  package var usage: UsageLevel
  /// Which contract's event types the log uses: `.v1_2` writes the pinned logs, `.v1_3` adds
  /// grants, blocks, refund notices, prorated and partial refunds and charge details (Docs/generator.md).
  package var contract: GeneratedContract
  /// Whether a v1.3 log also moves units between subjects with `transfer` (contract §9).
  ///
  /// Off by default and apart from `contract`: readers that do not know `transfer` refuse such a log.
  package var transfers: Bool

  /// 2024-01-01T00:00:00Z.
  package static let defaultStart = Timestamp(millisecondsSinceEpoch: 1_704_067_200_000)
  /// Largest `subjects` (subject indices and per-batch counters are 32-bit).
  package static let subjectsMax = 100_000_000
  /// Allowed `months`.
  package static let monthsRange = 1...1200
  /// Allowed `start`: 1970-01-01 through 9000-01-01, so that every instant written has a four-digit year.
  package static let startRange =
    Timestamp(millisecondsSinceEpoch: 0)...Timestamp(millisecondsSinceEpoch: 221_845_392_000_000)

  /// Options for `subjects` subjects from `seed`, by default 24 months from 2024-01-01 with typical usage
  /// and the event types of contract v1.2.
  package init(
    subjects: Int, seed: UInt64, start: Timestamp = GeneratorOptions.defaultStart, months: Int = 24,
    usage: UsageLevel = .typical, contract: GeneratedContract = .v1_2, transfers: Bool = false
  ) {
    self.subjects = subjects
    self.seed = seed
    self.start = start
    self.months = months
    self.usage = usage
    self.contract = contract
    self.transfers = transfers
  }

  /// Why these options cannot be used, or nil when they can (for the CLI's usage errors).
  package var problem: String? {
    if subjects < 0 || subjects > Self.subjectsMax {
      return "subjects must be between 0 and \(Self.subjectsMax), not \(subjects)"
    }
    if !Self.monthsRange.contains(months) {
      return
        "months must be between \(Self.monthsRange.lowerBound) and \(Self.monthsRange.upperBound), not \(months)"
    }
    if !Self.startRange.contains(start) {
      return
        "start must be between \(Self.startRange.lowerBound) and \(Self.startRange.upperBound), not \(start)"
    }
    if transfers && contract != .v1_3 {
      return "transfers are a contract v1.3 event: use them with contract 1.3"
    }
    return nil
  }
}

/// The contract version whose event types a generated log uses.
package enum GeneratedContract: String, Sendable, Equatable, CaseIterable {
  /// The types of contract v1.2 only (and `usage`): the logs every pinned digest describes.
  case v1_2 = "1.2"
  /// Also the v1.3 types and fields of sections 10 and 11 (`transfer` only with `transfers`).
  case v1_3 = "1.3"
}

/// How much metered usage (`usage` events, Docs/log-format.md) a generated log holds.
///
/// The purchase stories do not depend on it: a log with usage holds the same purchases,
/// renewals and refunds as the `.none` log of the same seed, plus the uses.
package enum UsageLevel: String, Sendable, Equatable, CaseIterable {
  /// No `usage` events and a catalog without a policy: the v1-shaped log.
  case none
  /// Several uses per active customer per day, a long tail of heavy users.
  case typical
  /// About three times the uses of `typical`: a stress test of the policy path.
  case heavy
}
