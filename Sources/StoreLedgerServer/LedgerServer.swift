import Dispatch
import StoreLedger
import Synchronization

/// `storeledger serve`: an HTTP/1.1 server over one open `LedgerStore` (Docs/serve.md).
///
/// One thread accepts; each connection gets its own thread (up to `connectionsMax`), so a
/// slow or idle client holds only its own thread, and every wait is bounded by a limit. The
/// store does the rest: answers are readers of its ledger, concurrent appends are written
/// together (one fsync for the group) and are fsynced before their 200.
package final class LedgerServer: Sendable {
  /// The open ledger.
  package let store: LedgerStore
  /// What the server was started with.
  package let configuration: ServerConfiguration
  /// Counters for `/metrics`.
  package let metrics = ServerMetrics()
  /// The access log; nil writes none.
  let accessLog: AccessLog?
  /// The time of answers (`at` defaults to now) and of the access log.
  let clock: LedgerClock

  private struct Lifecycle {
    var isStopping = false
    var connections = 0
  }

  private let lifecycle = Mutex(Lifecycle())
  /// Entered by the accept loop and each connection; a stop waits for it to empty.
  private let running = DispatchGroup()

  /// A server for `store`, not listening yet.
  package init(store: LedgerStore, configuration: ServerConfiguration, accessLog: AccessLog?, clock: LedgerClock = .system) {
    self.store = store
    self.configuration = configuration
    self.accessLog = accessLog
    self.clock = clock
    store.groupsCommits = configuration.groupsCommits
    store.lockWait = configuration.lockWait
  }

  /// Listens and starts accepting on a thread of its own.
  /// - Returns: the port it listens on (the one asked for, or the one picked for port 0).
  /// - Throws: an address that is not IPv4, or one the system refuses (in use, no permission).
  package func start() throws(Diagnostic) -> UInt16 {
    let (listener, port) = try PlatformSocket.listen(host: configuration.host, port: configuration.port, backlog: 512)
    running.enter()
    PlatformSocket.detachThread { [self] in
      defer { running.leave() }
      acceptLoop(listener)
    }
    running.enter()
    PlatformSocket.detachThread { [self] in
      defer { running.leave() }
      followOtherWriters()
    }
    return port
  }

  /// Whether a stop has begun: connections finish their request and close.
  package var isStopping: Bool { lifecycle.withLock { $0.isStopping } }

  /// The connections open now.
  package var openConnections: Int { lifecycle.withLock { $0.connections } }

  /// Stops accepting, lets in-flight requests finish (their answers say `Connection: close`),
  /// ends idle connections and change feeds, and returns when all are done or the grace ran out.
  /// - Returns: whether every connection ended within the grace period.
  @discardableResult
  package func stop() -> Bool {
    // The accept loop and idle connections see the flag within a poll slice.
    lifecycle.withLock { $0.isStopping = true }
    return running.wait(timeout: .now() + .milliseconds(configuration.stopGraceMilliseconds)) == .success
  }

  /// Takes in what other processes append to the log (another `serve`, the CLI), so answers
  /// include it within a polling interval: a cheap size check, then the store's `refresh`.
  private func followOtherWriters() {
    let pause = DispatchSemaphore(value: 0)
    while !isStopping {
      _ = pause.wait(timeout: .now() + .milliseconds(configuration.changePollingMilliseconds))
      let size = try? PlatformFile(path: store.logPath, mode: .read).size()
      guard let size, size != store.readExtent.bytes else { continue }
      // A failure (the log shrank behind the server, the lock held by a writer) leaves the
      // ledger as it was; the next look tries again, and appends report the problem. It does
      // not wait for the lock: meanwhile it would hold the store's appender, and the appends
      // waiting behind it would wait past `--wait`.
      try? store.refresh(wait: LogLock.Wait(limitMilliseconds: 0))
    }
  }

  private func acceptLoop(_ listener: Int32) {
    defer { PlatformSocket.close(listener) }
    while true {
      guard !isStopping else { return }
      guard PlatformSocket.waitReadable(listener, milliseconds: configuration.limits.pollSliceMilliseconds) else { continue }
      guard let socket = PlatformSocket.accept(listener) else { return }
      let admitted = lifecycle.withLock { state -> Bool? in
        guard !state.isStopping else { return nil }
        guard state.connections < configuration.limits.connectionsMax else { return false }
        state.connections += 1
        return true
      }
      guard let admitted else {
        PlatformSocket.close(socket)
        return
      }
      guard admitted else {
        refuse(socket, .tooManyConnections(limit: configuration.limits.connectionsMax))
        continue
      }
      running.enter()
      PlatformSocket.detachThread { [self] in
        defer {
          lifecycle.withLock { $0.connections -= 1 }
          running.leave()
        }
        Connection(socket: socket, server: self).run()
      }
    }
  }

  /// Answers one problem on a connection the server will not serve, and closes it.
  private func refuse(_ socket: Int32, _ problem: ServerProblem) {
    let response = ErrorResponse.response(problem)
    _ = PlatformSocket.send(socket, response.serialized(keepAlive: false), timeoutMilliseconds: 100)
    metrics.record(route: "other", status: problem.status, seconds: 0)
    PlatformSocket.close(socket)
  }
}
