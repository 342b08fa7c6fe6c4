import StoreLedgerCore

extension ReportBuilder {
  /// Adds the customer just folded to the tallies: its MRR movement, the buckets it paid in, and
  /// its net revenue to its first-payment cohort (Docs/reports.md). Nothing before the first customer.
  /// - Complexity: O(currencies of the customer · (MRR entries + buckets) + revenue entries · offsets).
  mutating func flushCustomer() {
    guard customerTally.customer >= 0 else { return }
    var currencies: [Int] = []
    for entry in customerTally.boundaryMRR where !currencies.contains(entry.currency) { currencies.append(entry.currency) }
    for currency in currencies { addMovement(currency: currency) }
    addPayments()
  }

  /// The customer's MRR in one currency at every boundary, classified bucket by bucket.
  private mutating func addMovement(currency: Int) {
    let count = buckets.count
    var levels = [Int64](repeating: 0, count: count + 1)
    for entry in customerTally.boundaryMRR where entry.currency == currency {
      let (sum, overflow) = levels[entry.boundary].addingReportingOverflow(entry.thousandths)
      guard !overflow else {
        if outOfRange == nil { outOfRange = (.mrr, currency, max(entry.boundary - 1, 0)) }
        return
      }
      levels[entry.boundary] = sum
    }
    let first = customerTally.firstMRR.first(where: { $0.currency == currency })?.at ?? .distantFuture
    for k in 0..<count {
      let (start, end) = (levels[k], levels[k + 1])
      if start != 0 { add(start, to: \.mrrOpening, .mrrOpening, key: currency, bucket: k) }
      if start == 0 && end > 0 {
        // Back after MRR above 0 at any earlier instant is a reactivation; never before is new.
        let isBack = first < buckets.boundaries[k]
        add(end, to: isBack ? \.mrrReactivation : \.mrrNew, isBack ? .mrrReactivation : .mrrNew, key: currency, bucket: k)
      } else if start > 0 && end == 0 {
        add(start, to: \.mrrChurn, .mrrChurn, key: currency, bucket: k)
      } else if end > start {
        add(end - start, to: \.mrrExpansion, .mrrExpansion, key: currency, bucket: k)
      } else if start > end {
        add(start - end, to: \.mrrContraction, .mrrContraction, key: currency, bucket: k)
      }
    }
  }

  /// `paying_customers` once per bucket paid in; the first-payment cohort and its cumulative net revenue.
  private mutating func addPayments() {
    var last = -1
    for bucket in customerTally.paidBuckets.sorted() where bucket != last && bucket < buckets.count {
      tallies[bucket].payingCustomers += 1
      last = bucket
    }
    let cohort = customerTally.firstPaymentBucket
    guard cohort >= 0 && cohort < buckets.count else { return }
    tallies[cohort].firstPaymentCustomers += 1
    let offsets = tallies[cohort].paidCohortRetained.count
    // Cumulative: an amount k buckets after the first payment counts at every offset from k on.
    for entry in customerTally.revenue where entry.bucket >= cohort && entry.bucket - cohort < offsets {
      for offset in (entry.bucket - cohort)..<offsets {
        add(
          entry.amount, to: \.firstPaymentRevenue, .firstPaymentRevenue, key: entry.currency, bucket: cohort,
          at: entry.currency * offsets + offset)
      }
    }
  }
}
