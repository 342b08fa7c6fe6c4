import StoreLedger
import StoreLedgerServer

/// `storeledger serve LOG --listen HOST:PORT`: the HTTP server of Docs/serve.md over one open
/// ledger. Parses the options and starts `LedgerServer`; the server does the rest.
enum ServeCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "serve", abstract: "Serve answers, appends, store webhooks and a change feed over HTTP/1.1.",
    usage:
      "serve <log> [--listen <host:port>] [--catalog <file>] [--snapshot <file>] [--root <file>]... [--bundle-id <id>] [--app-apple-id <number>] [--no-verify] [--allow-sandbox] [--allow-xcode] [--allow-test] [--trust-notifications] [--pubsub-token <token>] [--log-subjects plain|hash|none] [--max-body <bytes>] [--max-connections <n>] [--wait <seconds>]",
    positionals: [("<log>", "The JSON-lines event log (created if absent).")], requiredPositionals: 1,
    options: [
      .value("listen", "host:port", "The IPv4 address and port to listen on. Default: 127.0.0.1:8787."),
      CommandSpec.catalogOption, CommandSpec.snapshotOption,
      .repeatedValue("root", "file", "App Store: verify signatures up to this root certificate (DER or PEM; repeatable). Default: $STORELEDGER_APPLE_ROOT."),
      .value("bundle-id", "id", "App Store: signed payloads must name this bundle id."),
      .value("app-apple-id", "number", "App Store: Production notifications must name this App Apple ID."),
      .flag("no-verify", "App Store: import payloads without verifying signatures (a proxy verified them)."),
      .flag("allow-sandbox", "App Store: also import Sandbox and LocalTesting data."),
      .flag("allow-xcode", "App Store: also import StoreKit Testing in Xcode data, unverified (meta.verified false)."),
      .flag("allow-test", "Google Play: also import license testers' purchases."),
      .flag("trust-notifications", "Google Play: let a revocation notification revoke (import's option)."),
      .value("pubsub-token", "token", "Google Play: pushes must carry this token (?token= or Authorization: Bearer). Default: $STORELEDGER_PUBSUB_TOKEN."),
      .value("log-subjects", "mode", "How the access log names subjects: plain (default), hash or none."),
      .value("max-body", "bytes", "The largest request body. Default: 4194304."),
      .value("max-connections", "n", "Open connections at once; more are answered 503. Default: 256."),
      .value("wait", "seconds", "Appends wait at most this long for another process's lock on the log, then answer 503 lock_busy. Default: 10."),
    ],
    discussion: """
      Opens the log once and answers GET /v1/subjects/{id} (query), GET /v1/subjects/{id}/can
      (can), GET /v1/policy, POST /v1/events (append), POST /v1/appstore/notifications,
      POST /v1/googleplay/pubsub, GET /v1/changes (Server-Sent Events), GET /healthz and
      GET /metrics. Bodies are what the commands print; errors are JSON with the stable code.
      A write answered 200 is fsynced in the log; any other status wrote nothing. Prints where
      it listens on stderr and one JSON access-log line per request on stdout. SIGTERM stops
      accepting, finishes in-flight requests and exits 0. TLS belongs to a reverse proxy in
      front: Docs/serve.md has a configuration.
      Example: storeledger serve Events/demo.jsonl --listen 127.0.0.1:8787
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let log = CommandSupport.logPath(arguments)
    var configuration = try configuration(arguments, console: console)
    configuration.importOptions = try importOptions(arguments, console: console)
    let store = try LedgerStore(
      logPath: log, catalogPath: arguments.value("catalog"), snapshotPath: arguments.value("snapshot"), createIfMissing: true)
    let sink = AccessLogSink(console)
    let server = LedgerServer(
      store: store, configuration: configuration,
      accessLog: AccessLog(subjects: configuration.subjectLogging, write: { sink.write($0) }))
    let port = try server.start()
    console.err(
      "storeledger serve: listening on http://\(configuration.host):\(port) for \(log) (\(store.eventCount) events, "
        + "\(store.readExtent.lines) lines, catalog \(store.catalogPath)); SIGTERM stops\n")
    let clean = server.serveUntilSignalled()
    console.err(clean ? "storeledger serve: stopped\n" : "storeledger serve: stopped with requests unfinished\n")
    return 0
  }

  /// Where to listen, the limits and the access log's form.
  private static func configuration(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ServerConfiguration {
    var configuration = ServerConfiguration()
    if let listen = arguments.value("listen") {
      let parts = listen.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty, let port = UInt16(parts[1]) else {
        throw UsageError(message: "Invalid value for '--listen': '\(listen)' (expected an IPv4 host and a port, such as 127.0.0.1:8787).")
      }
      configuration.host = String(parts[0])
      configuration.port = port
    }
    if let mode = arguments.value("log-subjects") {
      guard let parsed = ServerConfiguration.SubjectLogging(rawValue: mode) else {
        throw UsageError(message: "Invalid value for '--log-subjects': '\(mode)' (expected plain, hash or none).")
      }
      configuration.subjectLogging = parsed
    }
    configuration.limits.bodyBytesMax = try count(arguments, "max-body", default: configuration.limits.bodyBytesMax)
    configuration.limits.connectionsMax = try count(arguments, "max-connections", default: configuration.limits.connectionsMax)
    configuration.lockWait = try CommandSupport.lockWait(arguments)
    configuration.pubSubToken = arguments.value("pubsub-token") ?? console.environment("STORELEDGER_PUBSUB_TOKEN").flatMap { $0.isEmpty ? nil : $0 }
    return configuration
  }

  private static func count(_ arguments: ParsedArguments, _ option: String, default value: Int) throws(UsageError) -> Int {
    guard let text = arguments.value(option) else { return value }
    guard let number = Int(text), number > 0, number <= 1 << 30 else {
      throw UsageError(message: "Invalid value for '--\(option)': '\(text)' (expected a positive integer up to 1073741824).")
    }
    return number
  }

  /// `import`'s options: the roots to verify App Store signatures with, sandbox and test data.
  private static func importOptions(_ arguments: ParsedArguments, console: Console) throws -> StoreImportOptions {
    var paths = arguments.values("root")
    if paths.isEmpty, let fallback = console.environment("STORELEDGER_APPLE_ROOT"), !fallback.isEmpty { paths = [fallback] }
    let appAppleID = try arguments.value("app-apple-id").map { text throws(UsageError) in
      guard let number = Int64(text), number > 0 else {
        throw UsageError(message: "Invalid value for '--app-apple-id': '\(text)' (expected a positive integer).")
      }
      return number
    }
    let verification: AppStoreVerificationOptions
    if arguments.has("no-verify") {
      guard paths.isEmpty || arguments.values("root").isEmpty else {
        throw UsageError(message: "'--root' has no effect with '--no-verify': give one or the other.")
      }
      verification = .skip
    } else {
      var roots = AppStoreVerificationOptions.verify(
        rootCertificates: try paths.map { (path) throws(Diagnostic) in try LedgerLoader.readFile(path) },
        bundleID: arguments.value("bundle-id"), appAppleID: appAppleID)
      roots.rootNames = paths
      // Checked now, so a bad root fails at startup instead of refusing every notification.
      _ = try roots.verification()
      if paths.isEmpty {
        console.err(
          "warning: no --root (nor $STORELEDGER_APPLE_ROOT): signed App Store notifications will be refused "
            + "(no_trusted_root, 500); give Apple Root CA - G3, or --no-verify behind a verifying proxy\n")
      }
      verification = roots
    }
    return StoreImportOptions(
      allowsSandbox: arguments.has("allow-sandbox"), allowsXcode: arguments.has("allow-xcode"),
      allowsTestPurchases: arguments.has("allow-test"), appStoreVerification: verification, trustsGooglePlayNotifications: arguments.has("trust-notifications"))
  }
}

/// The console, handed to the access log, which calls it under its own lock.
private final class AccessLogSink: @unchecked Sendable {
  private let console: Console
  init(_ console: Console) { self.console = console }
  func write(_ line: String) { console.out(line) }
}
