import Dispatch

extension Array {
  /// `(0..<count).map(transform)`, computed in up to `parts` runs on every core, in order.
  ///
  /// For work that waits on memory (random reads of tables too large for the caches) more than
  /// it computes. Below `minimumPerPart` elements a run, it maps on the calling thread.
  /// - Complexity: O(count) calls of `transform`; wall time divided by the cores.
  static func concurrentlyMapped(
    count: Int, parts: Int = 4, minimumPerPart: Int = 512, _ transform: @Sendable (Int) -> Element
  ) -> [Element] {
    precondition(count >= 0 && parts >= 1 && minimumPerPart >= 1, "a count and at least one run")
    let runs = Swift.min(parts, count / minimumPerPart)
    guard runs > 1 else { return (0..<count).map(transform) }
    return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
      // Each run initializes only its own elements; `transform` cannot fail, so all are set.
      nonisolated(unsafe) let out = buffer
      DispatchQueue.concurrentPerform(iterations: runs) { run in
        for index in (count * run / runs)..<(count * (run + 1) / runs) {
          (out.baseAddress! + index).initialize(to: transform(index))
        }
      }
      initialized = count
    }
  }
}
