import Foundation
import StoreLedger

// Run from the repository root: the demo log and its catalog.json are in Events/.
let demo = try LedgerStore(logPath: "Events/demo.jsonl")
let later = Timestamp.parseRFC3339("2027-03-20T00:00:00Z")!
print("u1 is Pro on 2027-03-20:", demo.answer(for: "u1", at: later).has("pro"))

// Appends go to a copy of the log in a temporary directory.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storeledger-example-\(UUID())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
for name in ["demo.jsonl", "catalog.json"] {
  try FileManager.default.copyItem(atPath: "Events/" + name, toPath: directory.appendingPathComponent(name).path)
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
