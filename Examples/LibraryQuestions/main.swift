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

// A log with a usage policy: the free tier has 5 decision
// sessions a day (days start at 05:00 UTC in this catalog's zone).
let policyLog = try LedgerStore(logPath: input("policy/decide-daily.jsonl"))
let evening = Timestamp.parseUserInput("2026-03-02 20:00:00Z")!
let gate = try policyLog.can("sid-free", use: "decision_session", at: evening)
print("allowed:", gate.allowed, "-", gate.reason)

// The same value, encoded: the line `storeledger can` prints.
let encoder = JSONEncoder()
encoder.outputFormatting = .sortedKeys
print(String(decoding: try encoder.encode(gate), as: UTF8.self))

// A misspelt feature is an error with a stable code, not an empty answer.
do {
  _ = try policyLog.can("sid-free", use: "decision_sesion", at: evening)
} catch {
  print(error.code!, "-", error.diagnostics[0].message)
}

// Why u1 holds Pro on 15 April 2026, and why it does not a year later.
let demo = try LedgerStore(logPath: input("demo.jsonl"))
let explained = demo.explain(for: "u1", at: Timestamp.parseUserInput("2026-04-15")!)
for (entitlement, events) in explained.explanation!.entitlements {
  print(entitlement, "decided by", events.map { "\($0.id.rawValue) (line \($0.line))" })
}
let later = demo.explain(for: "u1", at: Timestamp.parseUserInput("2027-03-20")!)
for (entitlement, absence) in later.explanation!.absent.sorted(by: { $0.key < $1.key }) {
  print(entitlement, "absent:", absence.reason)
}

// What an offline app that last verified on 10 April may still show on 12 April (3 days'
// budget), and on 20 April (past it: nothing is shown as active).
let verified = Timestamp.parseUserInput("2026-04-10")!
for day in ["2026-04-12", "2026-04-20"] {
  let cached = try demo.cachedAnswer(
    for: "u1", at: Timestamp.parseUserInput(day)!, verifiedAt: verified, maxStaleness: Staleness(iso8601: "P3D")!)
  print(day, "stale:", cached.cache!.isStale, "pro:", cached.has("pro"))
}

// Without opening a ledger: what opening one would cost (from the log's size alone), then one
// subject's answer and feature check read through the index beside the log (`storeledger
// index`, Docs/index.md); with no index, as here, these read the whole log.
let cost = try LedgerStore.openingCost(logPath: input("demo.jsonl"))
print("opening demo.jsonl reads", cost.logBytes, "bytes and holds about", cost.estimatedMemoryBytes, "bytes; index:", cost.hasIndex)
let direct = try LedgerStore.answer(logPath: input("demo.jsonl"), for: "u1", at: Timestamp.parseUserInput("2026-04-15")!)
print("u1 pro on 15 April:", direct.has("pro"))
let directGate = try LedgerStore.can(logPath: input("policy/decide-daily.jsonl"), "sid-free", use: "decision_session", at: evening)
print("allowed:", directGate.allowed, "-", directGate.reason)
