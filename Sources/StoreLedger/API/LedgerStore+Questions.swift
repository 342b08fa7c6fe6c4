import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage

// Everything `storeledger query` and `storeledger can` answer, typed: explained answers,
// cached answers and the feature check. Each reads the ledger as `answer` does.

extension LedgerStore {
  /// What `subject` held at `at` as known at `asOf`, with the events that decided each part
  /// and why entitlements held at other times are absent (`storeledger query --explain`).
  /// - Complexity: O(events of the subject × instants of its timeline).
  public func explain(for subject: SubjectID, at: Timestamp, asOf: Timestamp? = nil) -> Holdings {
    withEngine { engine in
      var answer = engine.answer(subject: subject.rawValue, at: at, asOf: asOf, explain: true)
      AbsentEntitlement.explain(&answer, ledger: engine.ledger)
      return answer
    }
  }

  /// What an offline app that last verified at `verifiedAt` may show at `at`: the answer as
  /// known then, with nothing active once `at` is past `verifiedAt + maxStaleness`
  /// (`storeledger query --cached-at`); `explain` adds the deciding events.
  /// - Throws: `cache_after_answer` when `verifiedAt` is after `at`.
  /// - Complexity: O(events of the subject).
  public func cachedAnswer(
    for subject: SubjectID, at: Timestamp, verifiedAt: Timestamp, maxStaleness: Staleness = .standard,
    explain: Bool = false
  ) throws(DiagnosticList) -> Holdings {
    let cache = try Self.cacheRequest(at: at, verifiedAt: verifiedAt, maxStaleness: maxStaleness)
    return withEngine { engine in
      var answer = engine.answer(subject: subject.rawValue, at: at, asOf: nil, cache: cache, explain: explain)
      if explain { AbsentEntitlement.explain(&answer, ledger: engine.ledger) }
      return answer
    }
  }

  /// Whether `subject` may use `feature` once more at `at`, as known at `asOf`, why, and
  /// which tier would allow it (`storeledger can`).
  /// - Throws: `no_policy` without a catalog policy; `unknown_feature` (with the nearest
  ///   names) for a feature the policy does not have.
  /// - Complexity: O(events of the subject).
  public func can(_ subject: SubjectID, use feature: FeatureID, at: Timestamp, asOf: Timestamp? = nil)
    throws(DiagnosticList) -> FeaturePermission
  {
    try permission(subject, feature, at: at, asOf: asOf, cache: nil)
  }

  /// The feature check as an offline app that last verified at `verifiedAt` would make it
  /// (`storeledger can --cached-at`).
  /// - Throws: as `can(_:use:at:asOf:)`, and `cache_after_answer` when `verifiedAt` is after `at`.
  /// - Complexity: O(events of the subject).
  public func can(
    _ subject: SubjectID, use feature: FeatureID, at: Timestamp, verifiedAt: Timestamp,
    maxStaleness: Staleness = .standard
  ) throws(DiagnosticList) -> FeaturePermission {
    let cache = try Self.cacheRequest(at: at, verifiedAt: verifiedAt, maxStaleness: maxStaleness)
    return try permission(subject, feature, at: at, asOf: nil, cache: cache)
  }

  /// Whether the ledger holds any event of `subject`; a question about one it does not
  /// hold gets an empty answer, which may be a typo (`suggestions(for:)` names the nearest).
  public func knows(_ subject: SubjectID) -> Bool {
    withEngine { engine in engine.ledger.knows(subject: subject.rawValue) }
  }

  /// The subjects nearest to `subject` (case, whitespace, a typo), for "did you mean".
  /// - Complexity: O(subjects).
  public func suggestions(for subject: SubjectID) -> [SubjectID] {
    withEngine { engine in
      NearMatch.suggestions(for: subject.rawValue, in: engine.ledger.symbols.subjects).map { SubjectID(rawValue: $0) }
    }
  }

  private func permission(
    _ subject: SubjectID, _ feature: FeatureID, at: Timestamp, asOf: Timestamp?, cache: CacheRequest?
  ) throws(DiagnosticList) -> FeaturePermission {
    guard let policy = catalog.policy else {
      throw DiagnosticList([Diagnostic(file: catalogPath, .noPolicy(what: "a feature check"))])
    }
    guard policy.featureIndex(of: feature.rawValue) != nil else {
      throw DiagnosticList([
        Diagnostic(.unknownFeature(feature: feature.rawValue, features: policy.features.map(\.name)))
      ])
    }
    return withEngine { engine in
      guard let permission = engine.permission(subject: subject.rawValue, feature: feature.rawValue, at: at, asOf: asOf, cache: cache)
      else { preconditionFailure("the feature was checked against the same catalog") }
      return FeaturePermission(permission, feature: feature)
    }
  }

  private static func cacheRequest(at: Timestamp, verifiedAt: Timestamp, maxStaleness: Staleness)
    throws(DiagnosticList) -> CacheRequest
  {
    guard verifiedAt <= at else {
      throw DiagnosticList([Diagnostic(.cacheAfterAnswer(verifiedAt: verifiedAt.rfc3339, at: at.rfc3339))])
    }
    return CacheRequest(verifiedAt: verifiedAt, maxStaleness: maxStaleness.duration)
  }
}
