import StoreLedgerCore

/// Who a report's customers are: subjects joined by transfers (contract v1.3, section 9), so
/// MRR movement, ARPPU and lifetime value count a customer once however many ids it used, and a
/// transfer inside a customer moves nothing.
///
/// A customer is numbered by its group's first subject (in symbol order); a subject no transfer
/// names is its own customer. Groups are the whole log's (every transfer, whatever its
/// `recorded`): a report as of R before a transfer was known still counts the two ids as one
/// customer (Docs/reports.md says so). The builder folds the subjects of one customer one after
/// another (`subjects`).
package struct ReportCustomers: Sendable {
  /// Each subject's customer; empty when no transfer joins subjects (each is its own).
  private let customerOf: [Int]
  /// The subjects in folding order; empty when it is symbol order.
  private let order: [Symbol]
  /// How many subjects the ledger has.
  let subjectCount: Int

  /// The customers of `ledger`'s subjects.
  /// - Complexity: O(subjects log subjects) when transfers join subjects, else O(1).
  package init(ledger: Ledger) {
    subjectCount = ledger.subjectCount
    guard !ledger.owners.isEmpty else {
      customerOf = []
      order = []
      return
    }
    let owners = ledger.owners
    let leaders = owners.groupLeaders()
    var first: [Int32: Int] = [:]
    for (party, leader) in leaders.enumerated() where owners.partySubjects[party].isSome {
      first[leader] = min(first[leader] ?? Int.max, Int(owners.partySubjects[party].rawValue))
    }
    var customers = Array(0..<ledger.subjectCount)
    for (party, leader) in leaders.enumerated() where owners.partySubjects[party].isSome {
      let subject = Int(owners.partySubjects[party].rawValue)
      if subject < customers.count { customers[subject] = first[leader]! }
    }
    customerOf = customers
    order = customers.indices.sorted { (customers[$0], $0) < (customers[$1], $1) }.map { Symbol(rawValue: UInt32($0)) }
  }

  /// The customer `subject` belongs to: its transfer group's first subject, else itself.
  package func customer(of subject: Symbol) -> Int {
    customerOf.isEmpty ? Int(subject.rawValue) : customerOf[Int(subject.rawValue)]
  }

  /// The subjects in the order the builder folds them: the subjects of one customer together.
  package var subjects: [Symbol] {
    order.isEmpty ? (0..<subjectCount).map { Symbol(rawValue: UInt32($0)) } : order
  }
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
