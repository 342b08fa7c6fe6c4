extension UseScan {
  /// Scans one subject of a loaded ledger, as `scan(_:subscriptionCount:context:policy:use:)`
  /// does, handing each use's event instead of its position.
  /// - Complexity: that of the scan over the subject's events.
  package mutating func scan(
    subject: Symbol, of ledger: Ledger, policy: Policy,
    use body: (_ event: Event, _ outcome: FeatureOutcome, _ isKnownAtRecorded: Bool) -> Void
  ) {
    let extent = ledger.extent(of: subject)
    ledger.events.withUnsafeBufferPointer { all in
      let events = UnsafeBufferPointer(rebasing: all[extent.lower..<extent.upper])
      scan(events, subscriptionCount: extent.subscriptions, context: ledger.context, policy: policy) {
        position, outcome, isKnownAtRecorded in
        body(events[position], outcome, isKnownAtRecorded)
      }
    }
  }
}
