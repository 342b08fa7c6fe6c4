import StoreLedgerCore

/// Who a report's customers are at its knowledge time R: subjects joined by the transfers known
/// at R (contract v1.3, section 9), so MRR movement, ARPPU and lifetime value count a customer
/// once however many ids it used, and a transfer inside a customer moves nothing.
///
/// A customer is numbered by its group's first subject (in symbol order); a subject no transfer
/// known at R names is its own customer, so a transfer learned after R does not join two ids yet
/// (Docs/reports.md, "Owners and customers"). The builder folds the subjects of one customer one
/// after another (`subjects`), and a group's parties together through the owner model (`parties`).
package struct ReportCustomers: Sendable {
  /// Each subject's customer; empty when no transfer known at R joins subjects (each is its own).
  private let customerOf: [Int]
  /// The subjects in folding order; empty when it is symbol order.
  private let order: [Symbol]
  /// The parties of each customer joined by transfers, by customer (parties without lines included).
  private let groups: [Int: [Int32]]
  /// How many subjects the ledger has.
  let subjectCount: Int

  /// The customers of `ledger`'s subjects as known at `knownBy`.
  /// - Complexity: O(transfers + subjects log subjects) when transfers known at R join subjects, else O(1).
  package init(ledger: Ledger, knownBy: Timestamp = .distantFuture) {
    subjectCount = ledger.subjectCount
    let owners = ledger.owners
    var joined: [Int32: [Int32]] = [:]
    if !owners.isEmpty {
      let leaders = owners.groupLeaders(knownBy: knownBy)
      for (party, leader) in leaders.enumerated() { joined[leader, default: []].append(Int32(party)) }
      joined = joined.filter { $0.value.count > 1 }
    }
    guard !joined.isEmpty else {
      customerOf = []
      order = []
      groups = [:]
      return
    }
    var customers = Array(0..<ledger.subjectCount)
    var groups: [Int: [Int32]] = [:]
    for parties in joined.values {
      // The first owner of a chain has lines (section 9), so every group has a subject.
      let subjects = parties.map { owners.partySubjects[Int($0)] }.filter(\.isSome).map { Int($0.rawValue) }
      guard let first = subjects.min() else { continue }
      for subject in subjects where subject < customers.count { customers[subject] = first }
      groups[first] = parties
    }
    customerOf = customers
    self.groups = groups
    order = customers.indices.sorted { (customers[$0], $0) < (customers[$1], $1) }.map { Symbol(rawValue: UInt32($0)) }
  }

  /// The customer `subject` belongs to: its transfer group's first subject, else itself.
  package func customer(of subject: Symbol) -> Int {
    customerOf.isEmpty ? Int(subject.rawValue) : customerOf[Int(subject.rawValue)]
  }

  /// The parties of `customer` when transfers known at R join it to other subjects, else nil.
  package func parties(of customer: Int) -> [Int32]? { groups.isEmpty ? nil : groups[customer] }

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
