import StoreLedger

/// What `storeledger serve` was started with: where it listens, its limits, how store payloads
/// are verified and imported, and what the access log shows.
package struct ServerConfiguration: Sendable {
  /// How the access log names a subject.
  package enum SubjectLogging: String, Sendable {
    /// The subject id as asked.
    case plain
    /// The first 16 hex digits of the id's SHA-256 (`--log-subjects hash`).
    case hash
    /// Not at all.
    case none
  }

  /// The IPv4 address to listen on.
  package var host = "127.0.0.1"
  /// The port; 0 picks a free one (tests).
  package var port: UInt16 = 8787
  /// The bounds kept against clients.
  package var limits = ServerLimits()
  /// How App Store and Google Play payloads are verified and imported (`import`'s options).
  package var importOptions = StoreImportOptions()
  /// The Pub/Sub push token (`--pubsub-token`); nil accepts every push.
  package var pubSubToken: String?
  /// How subjects appear in the access log.
  package var subjectLogging = SubjectLogging.plain
  /// How often change feeds look for new lines, and the ledger for lines other processes appended.
  package var changePollingMilliseconds = 250
  /// How long an append waits for another process's lock on the log before answering 503
  /// `lock_busy` (`--wait`).
  package var lockWait = LogLock.Wait.standard
  /// Whether concurrent appends share one write and fsync (group commit); off only to measure it.
  package var groupsCommits = true
  /// How long a stop waits for in-flight requests before giving up on them.
  package var stopGraceMilliseconds = 10_000

  /// The defaults: 127.0.0.1:8787, App Store signatures verified against no root.
  package init() {}
}
