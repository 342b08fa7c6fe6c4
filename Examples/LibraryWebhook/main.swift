import Foundation
import StoreLedger

// Inputs: the repository's Events/ folder, or the folder given as the first argument or in
// STORELEDGER_EVENTS, so the program runs from any directory. A missing file stops it with a
// diagnostic naming the file and exit 66 (EX_NOINPUT), not a backtrace.
let events =
  CommandLine.arguments.dropFirst().first ?? ProcessInfo.processInfo.environment["STORELEDGER_EVENTS"]
  ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Events").standardized.path
func input(_ name: String) -> String {
  let path = URL(fileURLWithPath: events).appendingPathComponent(name).standardized.path
  guard FileManager.default.fileExists(atPath: path) else {
    let missing = Diagnostic(
      code: .fileNotFound, message: "\(path) does not exist (pass the folder holding \(name) as the first argument or in STORELEDGER_EVENTS)")
    FileHandle.standardError.write(Data((missing.description + "\n").utf8))
    exit(missing.exitCode)
  }
  return path
}

// A backend's webhook endpoints: a store notification in, its events appended once, the
// subjects whose access changed out. The payloads are the samples in Events/appstore and
// Events/googleplay.

// The catalog in code: the App Store and Google Play ids of one app's products.
let catalog = try LedgerCatalog(products: [
  .autoRenewable("pro.monthly", group: "pro", level: 2, entitlements: ["pro"]),
  .autoRenewable("pro.annual", group: "pro", level: 1, entitlements: ["pro"]),
  .autoRenewable("pro:monthly", group: "pro", level: 2, entitlements: ["pro"]),
  .autoRenewable("pro:annual", group: "pro", level: 1, entitlements: ["pro"]),
])

// The inputs, found before anything is created: a missing one exits without leaving a directory.
let rootPath = input("../Tests/TestCA/root.pem")
let appStorePath = input("appstore/notifications.jsonl")
let playPath = input("googleplay/export.jsonl")

// A new, empty log in a temporary directory; the clock says "now" for answers about access.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storeledger-webhook-\(UUID())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let ledger = try LedgerStore(
  logPath: directory.appendingPathComponent("ledger.jsonl").path, catalog: catalog, createIfMissing: true,
  clock: .fixed(Timestamp.parseUserInput("2026-01-10")!))

// Committed batches, as a cache or a websocket would follow them.
let changes = ledger.commits()

/// The HTTP status of a failed import: a stable code decides, never the message.
func status(of error: DiagnosticList) -> Int {
  switch error.code {
  case .idConflict?, .transactionReused?: return 409
  case .invalidJSON?, .importFailed?: return 400
  default: return 422
  }
}

// App Store payloads are verified before anything is imported. The samples are signed by the
// repository's test CA; real ones by Apple Root CA - G3 (Docs/verification.md).
let trustedRoot = try Data(contentsOf: URL(fileURLWithPath: rootPath))
let options = StoreImportOptions(appStoreVerification: .verify(rootCertificates: [Array(trustedRoot)]))

/// POST /webhooks/{store}: the body in, the subjects whose access changed out.
func handle(store: String, body: String) async -> (status: Int, changed: [SubjectID]) {
  do {
    let report =
      store == "appstore"
      ? try await ledger.importAppStore(body, options: options)
      : try await ledger.importGooglePlay(body, options: options)
    return (200, report.accessChanged)
  } catch {
    print("refused:", error.code!, "-", error.diagnostics[0].description)
    return (status(of: error), [])
  }
}

let appStoreBody = try String(contentsOfFile: appStorePath, encoding: .utf8)
  .split(separator: "\n")[0]
let playBody = try String(contentsOfFile: playPath, encoding: .utf8)
  .split(separator: "\n")[1]
for (store, body) in [("appstore", String(appStoreBody)), ("googleplay", String(playBody)), ("appstore", String(appStoreBody))] {
  let (status, changed) = await handle(store: store, body: body)
  print(store, status, "access changed:", changed.map(\.rawValue))
}
let (status, _) = await handle(store: "googleplay", body: #"{"message": "#)
print("googleplay", status)

// The stream saw the two batches that added events (the redelivery added none).
var seen = 0
for try await batch in changes {
  print("committed line \(batch.firstLine):", batch.events.map { "\($0.kind.rawValue) for \($0.subject.rawValue)" })
  seen += 1
  if seen == 2 { break }
}
