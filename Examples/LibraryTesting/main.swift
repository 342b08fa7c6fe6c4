import Foundation
import StoreLedger

// Tests of a backend: an in-memory ledger, a catalog built in code, a clock the test moves,
// and events built by type (the compiler asks for each field the type requires).

final class TestClock: @unchecked Sendable {
  var now = Timestamp.parseUserInput("2026-03-01")!
}
let clock = TestClock()
let catalog = try LedgerCatalog(products: [
  .autoRenewable("pro.monthly", group: "pro", level: 1, entitlements: ["pro"]),
  .consumable("coins.100", currency: "coins", units: 100),
])
let ledger = LedgerStore(inMemory: catalog, clock: LedgerClock { clock.now })

let start = Timestamp.parseUserInput("2026-03-01")!
let renewalDay = Timestamp.parseUserInput("2026-04-01")!
for n in 1...3 {
  _ = try ledger.append([
    .purchase(
      id: "buy-\(n)", subject: "user-\(n)", at: start, product: "pro.monthly", transaction: "t-\(n)",
      expires: renewalDay)
  ])
}
// Known from the clock's time on: the refund is learned on 5 March.
clock.now = Timestamp.parseUserInput("2026-03-05")!
let refund = NewEvent.revocation(id: "refund-2", subject: "user-2", at: start, transaction: "t-2", reason: .refund)
print("appended:", try ledger.append([refund]).appended, "events:", ledger.eventCount)

let march3 = Timestamp.parseUserInput("2026-03-03")!
print("user-2 on 3 March, as known on 3 March:", ledger.answer(for: "user-2", at: march3, asOf: march3).has("pro"))
print("user-2 on 3 March, as known now:", ledger.answer(for: "user-2", at: march3).has("pro"))

// Events are Codable as the log's lines, and raw lines can be appended as they are.
let line = #"{"id":"coins-1","type":"purchase","subject":"user-1","at":"2026-03-02T09:00:00Z","product":"coins.100","transaction":"c-1","quantity":2}"#
let decoded = try JSONDecoder().decode(NewEvent.self, from: Data(line.utf8))
print("decoded:", decoded.kind.rawValue, decoded.id.rawValue, "for", decoded.subject.rawValue)
_ = try ledger.append(lines: line + "\n" + #"{"id":"spend-1","type":"consumption","subject":"user-1","at":"2026-03-03T09:00:00Z","currency":"coins","quantity":50}"#)
print("user-1 coins on 4 March:", ledger.answer(for: "user-1", at: Timestamp.parseUserInput("2026-03-04")!).balances["coins"]!)

// Errors carry stable codes; tests of error handling can make their own.
do {
  _ = try ledger.append([.consumption(id: "spend-2", subject: "user-1", at: march3, currency: "coins", quantity: 500)])
} catch {
  print(error.code!, "-", error.diagnostics[0].message)
}
let made = DiagnosticList([Diagnostic(code: .idConflict, message: "id 'x' was used for another event")])
print("made:", made.code! == .idConflict, made.exitCode)

// Times: user input as the CLI reads it, and Foundation dates.
let typed = Timestamp.parseUserInput("2026-03-05 12:00", utcOffsetMinutes: 60)!
print(typed.rfc3339, Timestamp(typed.date) == typed, Timestamp.parseRFC3339("2026-03-05") == nil)
