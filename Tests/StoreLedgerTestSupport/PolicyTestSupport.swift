import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// A catalog with the seed apps' policy (Docs/semantics.md, "Usage"), local time at `offset`.
package func policyCatalogText(offset: String = "+00:00", trialGrace: String? = "PT48H") -> String {
  let grace = trialGrace.map { #", "grace": "\#($0)""# } ?? ""
  return #"""
    {
      "products": {
        "plus.monthly": {"type": "auto_renewable", "group": "plus", "entitlements": ["plus"]},
        "plus.lifetime": {"type": "non_consumable", "entitlements": ["plus"]},
        "coins.100": {"type": "consumable", "currency": "coins", "units": 100}
      },
      "policy": {
        "utc_offset": "\#(offset)",
        "trial": {"entitlement": "plus", "duration": "P21D", "usage": {"interaction": 50, "pattern": 3}\#(grace)},
        "tiers": [
          {"name": "plus", "entitlement": "plus"},
          {"name": "trial", "trial": true},
          {"name": "intro", "within": "P7D"},
          {"name": "free"}
        ],
        "features": {
          "interaction": {"window": "day", "limits": {"plus": 100, "trial": null, "intro": {"limit": 150, "window": "ever"}, "free": 5}},
          "pattern": {"window": "ever", "limits": {"plus": null, "trial": null}},
          "saved_trip": {"window": "ever", "limits": {"plus": null, "trial": null, "free": 1}},
          "weekly": {"window": "week", "limits": {"free": 2}},
          "monthly": {"window": "month", "limits": {"free": 2}},
          "deep_compare": {"window": "day", "limits": {"plus": null}}
        }
      }
    }
    """#
}

/// One log line of a `usage` event, built as a `NewEvent` and written by `EventLines`.
package func use(
  _ id: String, _ subject: String, _ at: String, _ feature: String = "interaction", quantity: Int? = nil,
  recorded: String? = nil
) -> String {
  let event = NewEvent.usage(
    id: EventID(rawValue: id), subject: SubjectID(rawValue: subject), at: ts(at), feature: FeatureID(rawValue: feature),
    quantity: quantity.map(Int64.init))
  return EventLines.line(recorded.map(event.recordedAt) ?? event)
}

extension QueryEngine {
  /// Answers with both writers (structured and the audit fast path) and checks that they agree byte for byte.
  package mutating func policyAnswer(
    _ subject: String, at: String, asOf: String? = nil, cache: CacheRequest? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Holdings {
    let answer = self.answer(subject: subject, at: ts(at), asOf: asOf.map(ts), cache: cache)
    var out: [UInt8] = []
    var bytes = Array(subject.utf8)
    bytes.withUnsafeMutableBufferPointer {
      writeAnswer(subject: UnsafeBufferPointer($0), at: ts(at), asOf: asOf.map(ts), cache: cache, into: &out)
    }
    let structured = JSONWriter.compact(answer.jsonValue)
    #expect(String(decoding: out, as: UTF8.self) == structured, sourceLocation: sourceLocation)
    return answer
  }

  /// The usage answer of one feature.
  package mutating func feature(
    _ name: String, _ subject: String, at: String, asOf: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Holdings.FeatureUsage? {
    policyAnswer(subject, at: at, asOf: asOf, sourceLocation: sourceLocation).policy?.usage[name]
  }
}

/// A ledger over the policy catalog.
package func policyLedger(_ lines: [String], offset: String = "+00:00", trialGrace: String? = "PT48H") throws -> Ledger {
  try ledger(lines.joined(separator: "\n"), catalogText: policyCatalogText(offset: offset, trialGrace: trialGrace))
}

/// Six uses by ana: a saved trip on March 1 and five interactions on March 30 (UsageCountingTests,
/// the policy and query commands).
package enum PolicyFixtures {
  package static let freeDay = [
    use("u0", "ana", "2026-03-01T08:00:00Z", "saved_trip"),
    use("u1", "ana", "2026-03-30T09:00:00Z"), use("u2", "ana", "2026-03-30T09:01:00Z"),
    use("u3", "ana", "2026-03-30T09:02:00Z"), use("u4", "ana", "2026-03-30T09:03:00Z"),
    use("u5", "ana", "2026-03-30T09:04:00Z"),
  ]
}
