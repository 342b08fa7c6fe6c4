import StoreLedger
import Synchronization

/// Requests by route and status, latency histograms by route, appends: `GET /metrics` in the
/// Prometheus text format (version 0.0.4). Bounded: routes and statuses are fixed sets.
package final class ServerMetrics: Sendable {
  /// Upper bounds of the latency buckets, in seconds.
  static let bucketBounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

  private struct Counts {
    var requests: [String: Int] = [:]
    var buckets: [String: [Int]] = [:]
    var latencySums: [String: Double] = [:]
    var latencyCounts: [String: Int] = [:]
    var appendedEvents = 0
    var appendBatches = 0
  }

  private let counts = Mutex(Counts())

  /// An empty set of counters.
  package init() {}

  /// Counts one answered request (`route` is a template or `other`).
  package func record(route: String, status: Int, seconds: Double) {
    counts.withLock { counts in
      counts.requests["route=\"\(route)\",status=\"\(status)\"", default: 0] += 1
      var buckets = counts.buckets[route] ?? Array(repeating: 0, count: Self.bucketBounds.count)
      for (index, bound) in Self.bucketBounds.enumerated() where seconds <= bound { buckets[index] += 1 }
      counts.buckets[route] = buckets
      counts.latencySums[route, default: 0] += seconds
      counts.latencyCounts[route, default: 0] += 1
    }
  }

  /// Counts one committed append of `events` new events.
  package func recordAppend(events: Int) {
    counts.withLock { counts in
      counts.appendBatches += 1
      counts.appendedEvents += events
    }
  }

  /// The exposition text, with the log's size and lines and the connections open now.
  /// - Complexity: O(routes × statuses).
  package func text(logBytes: Int64, logLines: Int, events: Int, connections: Int, groupCommits: Int) -> String {
    let snapshot = counts.withLock { $0 }
    var text = "# HELP storeledger_http_requests_total Requests answered, by route and status.\n"
    text += "# TYPE storeledger_http_requests_total counter\n"
    for (labels, count) in snapshot.requests.sorted(by: { $0.key < $1.key }) {
      text += "storeledger_http_requests_total{\(labels)} \(count)\n"
    }
    text += "# HELP storeledger_http_request_duration_seconds Time from a whole request to its answer written.\n"
    text += "# TYPE storeledger_http_request_duration_seconds histogram\n"
    for (route, buckets) in snapshot.buckets.sorted(by: { $0.key < $1.key }) {
      for (index, bound) in Self.bucketBounds.enumerated() {
        text += "storeledger_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(bound)\"} \(buckets[index])\n"
      }
      let count = snapshot.latencyCounts[route] ?? 0
      text += "storeledger_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(count)\n"
      text += "storeledger_http_request_duration_seconds_sum{route=\"\(route)\"} \(snapshot.latencySums[route] ?? 0)\n"
      text += "storeledger_http_request_duration_seconds_count{route=\"\(route)\"} \(count)\n"
    }
    text += "# TYPE storeledger_appended_events_total counter\nstoreledger_appended_events_total \(snapshot.appendedEvents)\n"
    text += "# TYPE storeledger_append_batches_total counter\nstoreledger_append_batches_total \(snapshot.appendBatches)\n"
    text += "# HELP storeledger_group_commits_total Writes of the log, each one fsync for the appends grouped in it.\n"
    text += "# TYPE storeledger_group_commits_total counter\nstoreledger_group_commits_total \(groupCommits)\n"
    text += "# TYPE storeledger_log_bytes gauge\nstoreledger_log_bytes \(logBytes)\n"
    text += "# TYPE storeledger_log_lines gauge\nstoreledger_log_lines \(logLines)\n"
    text += "# TYPE storeledger_events gauge\nstoreledger_events \(events)\n"
    text += "# TYPE storeledger_open_connections gauge\nstoreledger_open_connections \(connections)\n"
    return text
  }
}
