import Dispatch

/// Settles one subject's events once a log is loaded: orders them by effective time (line
/// order for ties), resolves them and decides the subject's log-wide rules.
///
/// Pure and per subject, so subjects settle on every core at once (`settleAll`); what the rules
/// find comes back in subject order, so the words and order of diagnostics never depend on
/// how the work was split.
package struct SubjectSettler {
  private let context: FoldContext
  private var resolver: Resolver
  private var rules = SubjectRules()

  /// A settler for a log folded with `context`.
  package init(context: FoldContext) {
    self.context = context
    resolver = Resolver(catalog: context.catalog)
  }

  /// Settles one subject's events in place; returns its subscription count and adds what its
  /// rules find to `findings`.
  /// - Complexity: O(k log k) for its k events.
  package mutating func settle(_ subjectEvents: UnsafeMutableBufferPointer<Event>, findings: inout [(Event, RuleFinding)])
    -> UInt32
  {
    var subjectEvents = subjectEvents
    subjectEvents.sort(by: Event.effectiveOrder)
    let subscriptionCount = resolver.resolve(subjectEvents)
    rules.decide(subjectEvents, subscriptionCount: Int(subscriptionCount), context: context) {
      findings.append(($0, $1))
    }
    return subscriptionCount
  }

  /// What settling every subject of a grouped log gave.
  package struct Settled {
    /// Subscriptions per subject.
    package var subscriptionCounts: [UInt32]
    /// The latest effective time of any event.
    package var latest: Timestamp
    /// What the rules found, in subject order and, within a subject, in effective order.
    package var findings: [(Event, RuleFinding)]
  }

  /// Subjects per unit of work handed to a core: enough to pay for the hand-over.
  static let subjectsPerChunk = 2048

  /// Settles every subject of `events`, grouped so that subject `s` owns
  /// `events[starts[s]..<starts[s + 1]]`, on every core.
  /// - Complexity: O(n log k) for n events and at most k per subject; wall time divided by the cores.
  package static func settleAll(_ events: UnsafeMutableBufferPointer<Event>, starts: [Int], context: FoldContext) -> Settled {
    let subjectCount = starts.count - 1
    let chunkCount = max(1, (subjectCount + subjectsPerChunk - 1) / subjectsPerChunk)
    var counts = [UInt32](repeating: 0, count: subjectCount)
    var chunkLatest = [Timestamp](repeating: .distantPast, count: chunkCount)
    var chunkFindings = [[(Event, RuleFinding)]](repeating: [], count: chunkCount)
    counts.withUnsafeMutableBufferPointer { countsBuffer in
      chunkLatest.withUnsafeMutableBufferPointer { latestBuffer in
        chunkFindings.withUnsafeMutableBufferPointer { findingsBuffer in
          // Each chunk writes only its own subjects' events, counts and its own slots.
          nonisolated(unsafe) let sharedEvents = events
          nonisolated(unsafe) let sharedCounts = countsBuffer
          nonisolated(unsafe) let sharedLatest = latestBuffer
          nonisolated(unsafe) let sharedFindings = findingsBuffer
          DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            var settler = SubjectSettler(context: context)
            var findings: [(Event, RuleFinding)] = []
            var latest = Timestamp.distantPast
            let first = chunk * subjectsPerChunk
            for s in first..<min(first + subjectsPerChunk, subjectCount) {
              let subjectEvents = UnsafeMutableBufferPointer(rebasing: sharedEvents[starts[s]..<starts[s + 1]])
              sharedCounts[s] = settler.settle(subjectEvents, findings: &findings)
              if let last = subjectEvents.last, last.at > latest { latest = last.at }
            }
            sharedLatest[chunk] = latest
            sharedFindings[chunk] = findings
          }
        }
      }
    }
    return Settled(
      subscriptionCounts: counts, latest: chunkLatest.max() ?? .distantPast, findings: chunkFindings.flatMap { $0 })
  }
}
