import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage

/// What to answer a store's refund request with (`storeledger evidence`): the App Store's Send
/// Consumption Information body and Google Play's `orders.reviewrefund` body, built from what the
/// ledger knew when the request was made. Nothing is sent: the bodies are for the caller to send.
public struct RefundRequestEvidence: Hashable, Sendable {
  /// The `refund_requested` event answered.
  public var request: EventID
  /// The transaction the customer asked to have refunded.
  public var transaction: TransactionID
  /// The share of the purchase consumed in milliunits (100,000 = all); nil when not measurable.
  public var consumedMilliunits: Int64?
  /// The App Store's `ConsumptionRequest` body, pretty JSON.
  public var appStoreBody: String
  /// Google Play's `orders.reviewrefund` body, pretty JSON.
  public var googlePlayBody: String
  /// Everything `evidence --format json` prints: the facts, both bodies and what is missing.
  public var json: String
  /// The same in words, as `evidence --format text` prints it.
  public var text: String

  /// The typed form of the engine's evidence.
  init(_ evidence: RefundEvidence) {
    request = EventID(rawValue: evidence.request.id)
    transaction = TransactionID(rawValue: evidence.request.transaction)
    consumedMilliunits = evidence.consumedMilliunits
    appStoreBody = JSONWriter.pretty(evidence.appStoreBody)
    googlePlayBody = JSONWriter.pretty(evidence.googlePlayBody)
    json = JSONWriter.pretty(evidence.json)
    text = evidence.text
  }
}

extension LedgerStore {
  /// The evidence for the `refund_requested` event `request` (`storeledger evidence --request`);
  /// `customerConsented` adds Apple's required `customerConsented: true`.
  /// - Throws: `unknown_refund_request` (nearest ids named) or `evidence_without_charge`.
  /// - Complexity: O(events).
  public func refundEvidence(request: EventID, customerConsented: Bool = false) throws(DiagnosticList) -> RefundRequestEvidence {
    try evidence(.id(request.rawValue), customerConsented: customerConsented)
  }

  /// The evidence for the refund request of `transaction` effective at `at`
  /// (`storeledger evidence --transaction --at`).
  /// - Throws: as `refundEvidence(request:customerConsented:)`.
  /// - Complexity: O(events).
  public func refundEvidence(
    transaction: TransactionID, at: Timestamp, customerConsented: Bool = false
  ) throws(DiagnosticList) -> RefundRequestEvidence {
    try evidence(.transaction(transaction.rawValue, at: at), customerConsented: customerConsented)
  }

  private func evidence(_ selector: RefundRequestSelector, customerConsented: Bool) throws(DiagnosticList) -> RefundRequestEvidence {
    let path = logPath == "<memory>" ? nil : logPath
    let result: Result<RefundEvidence, Diagnostic> = withEngine { engine in
      Result { () throws(Diagnostic) in
        try RefundEvidence.build(ledger: engine.ledger, selector: selector, customerConsented: customerConsented, logPath: path)
      }
    }
    switch result {
    case .success(let evidence): return RefundRequestEvidence(evidence)
    case .failure(let diagnostic): throw DiagnosticList([diagnostic])
    }
  }
}
