/// A plan's nominal billing period (contract v1.3, section 2: the catalog's `period`): what
/// finance teams divide a charge by for MRR, whatever the period's length in days.
package enum NominalPeriod: String, Sendable, CaseIterable {
  case week = "P1W"
  case month = "P1M"
  case twoMonths = "P2M"
  case quarter = "P3M"
  case halfYear = "P6M"
  case year = "P1Y"

  /// How many such periods make a year: 52, 12, 6, 4, 2, 1.
  package var periodsPerYear: Int64 {
    switch self {
    case .week: return 52
    case .month: return 12
    case .twoMonths: return 6
    case .quarter: return 4
    case .halfYear: return 2
    case .year: return 1
    }
  }

  /// Its mean length in hundredths of a day: 7, 30.44, 60.88, 91.31, 182.62 and 365.25 days.
  package var hundredthsOfADay: Int64 {
    switch self {
    case .week: return 700
    case .month: return 3044
    case .twoMonths: return 6088
    case .quarter: return 9131
    case .halfYear: return 18262
    case .year: return 36525
    }
  }

  /// The period nearest to a charge's own length (ties go to the shorter one); `.week` for no length.
  /// - Complexity: O(1) (six candidates).
  package static func nearest(toMilliseconds length: Int64) -> NominalPeriod {
    // Hundredths of a day are 864,000 ms; compare in those units × 864,000 to stay exact.
    var best = NominalPeriod.week
    var bestDistance = UInt64.max
    for candidate in allCases {
      let distance = (candidate.hundredthsOfADay * 864_000).subtractingReportingOverflow(length)
      let magnitude = distance.overflow ? UInt64.max : distance.partialValue.magnitude
      if magnitude < bestDistance {
        best = candidate
        bestDistance = magnitude
      }
    }
    return best
  }
}
