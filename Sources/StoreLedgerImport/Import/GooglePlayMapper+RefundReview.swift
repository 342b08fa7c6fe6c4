import StoreLedgerCore

extension GooglePlayMapper {
  /// How long Google waits for a developer's answer to a refund review (`orders.reviewrefund`):
  /// 24 hours from the notification.
  static let refundReviewWindowMilliseconds: Int64 = 24 * 3_600_000

  /// `pendingRefundReviewNotification`: a `refund_requested` of the order at the
  /// notification's event time, answer due 24 hours later (`respond_by`), with the
  /// notification's `pendingRefundToken` in `meta`. It changes no access,
  /// so the notification alone is enough; whose purchase it is comes from its token's
  /// resources or the ledger, and it waits (with `--append`) until one of them is known.
  /// - Complexity: O(r log r) in the order's refund reviews.
  mutating func mapRefundReview(orderID: String) {
    let reviews = refundReviews[orderID]!.sorted {
      ($0.eventTime, $0.line) < ($1.eventTime, $1.line)
    }
    var seen: Set<String> = []
    for review in reviews where seen.insert(review.identity).inserted {
      guard case .refundReview(let token, _, let refundToken) = review.body else { continue }
      guard let (subject, isTest) = purchaseSubject(token: token) else {
        deferredLines.insert(review.line)
        problems.warning(
          review.line,
          "refund review of order '\(orderID)': no resource for its purchase token in this import or the log, so whose purchase it is is not known yet; it is kept pending (with --append) until the purchase is imported"
        )
        continue
      }
      let deadline = review.eventTime.millisecondsSinceEpoch + Self.refundReviewWindowMilliseconds
      // An order of add-on line items charged each item: the request is about each of them.
      for transaction in addOnTransactions[orderID]?.sorted() ?? [orderID] {
        let id = "googleplay:\(transaction):refund_requested:\(review.eventTime.millisecondsSinceEpoch)"
        emit(
          ImportedEvent(
            id: id, kind: .refundRequested, subject: subject, at: review.eventTime,
            recorded: recorded(review.knownAt),
            // `storeledger evidence` copies the refund token into its orders.reviewrefund body.
            meta: Self.baseMeta(isTest: isTest, token: token) + (refundToken.map { [("pendingRefundToken", .string($0))] } ?? []),
            line: review.line, identity: id
          ) {
            $0.transaction = TransactionID(rawValue: transaction)
            $0.respondBy = Timestamp(millisecondsSinceEpoch: deadline)
          })
      }
    }
  }
}
