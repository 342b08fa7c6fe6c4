import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerServer

/// A purchase line with its own id and transaction.
private func purchase(_ id: String, subject: String = "w1") -> String {
  EventLines.line(
    .purchase(
      id: "\(id)", subject: "\(subject)", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "t-\(id)", price: 29990,
      currency: "USD"))
}

@Suite("serve's writes: durable before 200, nothing written otherwise, never interleaved")
struct ServerWriteTests {
  @Test("a 200 for POST /v1/events means its lines are in the log file, and the answers see them")
  func durable() throws {
    let fixture = try ServerFixture()
    let before = try fixture.logLines()
    let answer = try fixture.request("POST", "/v1/events", body: purchase("d1") + "\n" + purchase("d2", subject: "w2") + "\n")
    #expect(answer.status == 200 && answer.json["appended"] as? Int == 2, "\(answer.body)")
    // Read back through a new file handle, as a process after a crash would.
    let after = try fixture.logLines()
    #expect(after.count == before.count + 2 && after.prefix(before.count).elementsEqual(before))
    #expect(after.suffix(2).allSatisfy { $0.contains(#""id":"d1""#) || $0.contains(#""id":"d2""#) })
    let held = try fixture.request("GET", "/v1/subjects/w2?at=2026-03-02")
    #expect((held.json["entitlements"] as? [String: Any])?["pro"] != nil, "\(held.body)")
    // The same lines again: a no-op, still 200.
    let again = try fixture.request("POST", "/v1/events", body: purchase("d1") + "\n")
    #expect(again.status == 200 && again.json["appended"] as? Int == 0 && again.json["duplicates"] as? Int == 1)
    #expect(try fixture.logLines().count == after.count)
  }

  @Test(
    "a refused batch writes nothing and says why, with the append command's diagnostic and a status for its code",
    arguments: [
      ("{\"id\":\"x1\",\"type\":\"purchase\",", 400, "invalid_json"),
      (#"{"id":"x2","type":"purchas","subject":"w1","at":"2026-03-01T00:00:00Z"}"#, 400, "unknown_event_type"),
      (
        EventLines.line(
          .purchase(id: "e1", subject: "u1", at: ts("2026-02-01T10:00:00Z"), product: "pro.lifetime", transaction: "zz", price: 1, currency: "USD")),
        409, "id_conflict"
      ),
    ])
  func refused(line: String, status: Int, code: String) throws {
    let fixture = try ServerFixture()
    let before = try String(contentsOfFile: fixture.log, encoding: .utf8)
    // Two lines, the good one first: all or nothing.
    let answer = try fixture.request("POST", "/v1/events", body: purchase("ok1") + "\n" + line + "\n")
    #expect(answer.status == status && answer.json["code"] as? String == code, "\(answer.body)")
    #expect(try String(contentsOfFile: fixture.log, encoding: .utf8) == before)
    // The message is the one `storeledger append` prints for the same input.
    let appended = runCLI(["append", fixture.log, "--catalog", fixture.catalog], stdin: purchase("ok1") + "\n" + line + "\n")
    let message = try #require(answer.json["message"] as? String)
    #expect(appended.status != 0 && appended.stderr.contains("error: " + message), "\(appended.stderr)\nvs \(message)")
  }

  @Test("concurrent POSTs on many connections all commit, each line whole, none lost or doubled")
  func concurrentPosts() async throws {
    let fixture = try ServerFixture()
    let before = try fixture.logLines().count
    let clients = 8
    let postsPerClient = 12
    let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
      for client in 0..<clients {
        group.addTask {
          let connection = try fixture.connect()
          defer { connection.close() }
          var statuses: [Int] = []
          for post in 0..<postsPerClient {
            // Two events per request, so an interleaving would split a batch.
            let body = purchase("c\(client)-\(post)a", subject: "s\(client)") + "\n" + purchase("c\(client)-\(post)b", subject: "s\(client)") + "\n"
            statuses.append(try connection.request("POST", "/v1/events", body: body).status)
          }
          return statuses
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    #expect(statuses.count == clients * postsPerClient && statuses.allSatisfy { $0 == 200 })
    let lines = try fixture.logLines()
    #expect(lines.count == before + clients * postsPerClient * 2)
    var ids: [String] = []
    for line in lines.dropFirst(before) {
      let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "torn line: \(line)")
      ids.append(try #require(object["id"] as? String))
    }
    #expect(Set(ids).count == ids.count)
    // Each request's two lines are next to each other.
    for index in stride(from: 0, to: ids.count, by: 2) {
      #expect(ids[index].hasSuffix("a") && ids[index + 1] == ids[index].dropLast() + "b", "\(ids[index]) \(ids[index + 1])")
    }
    #expect(runCLI(["check", fixture.log, "--catalog", fixture.catalog]).status == 0)
  }
}
