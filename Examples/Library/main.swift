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

// The demo log; its catalog.json is beside it.
let demo = try LedgerStore(logPath: input("demo.jsonl"))
let later = Timestamp.parseRFC3339("2027-03-20T00:00:00Z")!
print("u1 is Pro on 2027-03-20:", demo.answer(for: "u1", at: later).has("pro"))

// Appends go to a copy of the log in a temporary directory.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storeledger-example-\(UUID())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
for name in ["demo.jsonl", "catalog.json"] {
  try FileManager.default.copyItem(atPath: input(name), toPath: directory.appendingPathComponent(name).path)
}
let ledger = try LedgerStore(logPath: directory.appendingPathComponent("demo.jsonl").path)

// The App Store renews u1's annual plan (its first transaction was u1-t1).
let renewal = NewEvent.renewal(
  id: "example-renewal", subject: "u1", at: Timestamp.parseRFC3339("2027-03-12T10:00:00Z")!,
  product: "pro.annual", transaction: "u1-t4", originalTransaction: "u1-t1",
  expires: Timestamp.parseRFC3339("2028-03-12T10:00:00Z")!)
let report = try ledger.append([renewal])
print("appended:", report.appended)

let holdings = ledger.answer(for: "u1", at: later)
print("u1 is Pro on 2027-03-20:", holdings.has("pro"))
if let plan = holdings.plans["pro"] {
  print("plan:", plan.product.rawValue, plan.state, "until", plan.expires)
}
