import StoreLedgerCore

/// Who a report's customers are: subjects joined by transfers (contract v1.3, section 9), so
/// MRR movement, ARPPU and lifetime value count a customer once however many ids it used.
///
/// The engine does not fold transfers yet, so today every subject is its own customer. This is
/// the one place to map a subject to its transfer group (as known at the report's R) once the
/// engine has them; the builder only needs the subjects of a customer to come one after another
/// in `subjects` (as shards already keep a group together).
package struct ReportCustomers: Sendable {
  /// How many subjects the ledger has.
  let subjectCount: Int

  /// The customers of `ledger`'s subjects.
  package init(ledger: Ledger) {
    subjectCount = ledger.subjectCount
  }

  /// The customer `subject` belongs to: today the subject itself.
  package func customer(of subject: Symbol) -> Int { Int(subject.rawValue) }

  /// The subjects in the order the builder folds them: the subjects of one customer together.
  package var subjects: some Sequence<Symbol> { (0..<subjectCount).lazy.map { Symbol(rawValue: UInt32($0)) } }
}

/// One customer's figures while its subjects are folded, summed into the tallies once its last
/// subject is done (`ReportBuilder.flushCustomer()`).
struct CustomerTally {
  /// The customer, `-1` before the first.
  var customer = -1
  /// What each owned paid subscription adds to MRR at each bucket boundary: (boundary, currency, thousandths).
  var boundaryMRR: [(boundary: Int, currency: Int, thousandths: Int64)] = []
  /// Per currency, the first instant an owned paid charge of a subscription gave MRR above 0.
  var firstMRR: [(currency: Int, at: Timestamp)] = []
  /// Net revenue (charges, less refunded amounts, plus reversals) by bucket and currency.
  var revenue: [(bucket: Int, currency: Int, amount: Int64)] = []
  /// The buckets with an owned charge of a price above 0 (repeats allowed).
  var paidBuckets: [Int] = []
  /// The first owned charge of a price above 0, and its bucket (the outside tally's index when outside).
  var firstPayment = Timestamp.distantFuture
  var firstPaymentBucket = -1

  /// Starts `customer`, keeping the arrays' room.
  mutating func reset(customer: Int) {
    self.customer = customer
    boundaryMRR.removeAll(keepingCapacity: true)
    firstMRR.removeAll(keepingCapacity: true)
    revenue.removeAll(keepingCapacity: true)
    paidBuckets.removeAll(keepingCapacity: true)
    firstPayment = .distantFuture
    firstPaymentBucket = -1
  }

  /// Notes an owned paid subscription charge giving MRR above 0 in `currency` from `time`.
  mutating func noteMRR(currency: Int, from time: Timestamp) {
    if let index = firstMRR.firstIndex(where: { $0.currency == currency }) {
      firstMRR[index].at = min(firstMRR[index].at, time)
    } else {
      firstMRR.append((currency, time))
    }
  }

  /// Notes an owned charge of a price above 0 at `time`, in `bucket`.
  mutating func notePayment(at time: Timestamp, bucket: Int) {
    paidBuckets.append(bucket)
    if time < firstPayment {
      firstPayment = time
      firstPaymentBucket = bucket
    }
  }
}
