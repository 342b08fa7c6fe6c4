import Foundation
import StoreLedger

// Run from the repository root. A log with a usage policy: the free tier has 5 decision
// sessions a day (days start at 05:00 UTC in this catalog's zone).
let policyLog = try LedgerStore(logPath: "Events/policy/decide-daily.jsonl")
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
let demo = try LedgerStore(logPath: "Events/demo.jsonl")
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
