import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerServer

/// The `id:` and `data:` of each `batch` event in an SSE text.
private func batches(_ text: String) -> [(id: Int, data: [String: Any])] {
  text.components(separatedBy: "\n\n").compactMap { block in
    let lines = block.split(separator: "\n")
    guard lines.contains("event: batch"), let id = lines.first(where: { $0.hasPrefix("id: ") }).flatMap({ Int($0.dropFirst(4)) }),
      let data = lines.first(where: { $0.hasPrefix("data: ") }),
      let object = try? JSONSerialization.jsonObject(with: Data(data.dropFirst(6).utf8)) as? [String: Any]
    else { return nil }
    return (id, object)
  }
}

/// A purchase line.
private func purchase(_ id: String, subject: String) -> String {
  EventLines.line(
    .purchase(
      id: "\(id)", subject: "\(subject)", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "t-\(id)", price: 29990,
      currency: "USD"))
}

@Suite("serve's change feed: committed batches as Server-Sent Events, resumable with Last-Event-ID")
struct ServerChangesTests {
  @Test("a feed resumed with Last-Event-ID gets every line after it, from the log and then live, each once and in order")
  func resume() throws {
    let fixture = try ServerFixture()
    let lines = try fixture.logLines()
    try #require(lines.count == 7)
    let feed = try fixture.connect()
    defer { feed.close() }
    feed.send("GET /v1/changes HTTP/1.1\r\nAccept: text/event-stream\r\nLast-Event-ID: 4\r\n\r\n")
    let caughtUp = try feed.read(until: "id: 7\n")
    #expect(caughtUp.hasPrefix("HTTP/1.1 200 OK\r\n") && caughtUp.contains("Content-Type: text/event-stream\r\n"))
    let first = batches(caughtUp)
    #expect(first.map(\.id) == [7] && first[0].data["first_line"] as? Int == 5 && first[0].data["last_line"] as? Int == 7)
    let ids = (first[0].data["events"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
    #expect(ids == ["e5", "e6", "e7"], "\(caughtUp)")
    // Live: an append on another connection arrives as the next batch.
    #expect(try fixture.request("POST", "/v1/events", body: purchase("live1", subject: "l1") + "\n").status == 200)
    let live = batches(try feed.read(until: "id: 8\n"))
    #expect(live.map(\.id) == [7, 8])
    #expect(live[1].data["subjects"] as? [String] == ["l1"] && live[1].data["first_line"] as? Int == 8)
    // A client that saw 8 and reconnects gets nothing old, then the next append only.
    let resumed = try fixture.connect()
    defer { resumed.close() }
    resumed.send("GET /v1/changes?last_event_id=8 HTTP/1.1\r\n\r\n")
    _ = try resumed.read(until: "retry: 1000\n\n")
    #expect(try fixture.request("POST", "/v1/events", body: purchase("live2", subject: "l2") + "\n").status == 200)
    let next = batches(try resumed.read(until: "id: 9\n"))
    #expect(next.map(\.id) == [9])
  }

  @Test("a feed without Last-Event-ID starts at the log's end; another process's lines reach the feed and the answers")
  func otherProcess() throws {
    let fixture = try ServerFixture()
    let feed = try fixture.connect()
    defer { feed.close() }
    feed.send("GET /v1/changes HTTP/1.1\r\n\r\n")
    _ = try feed.read(until: "retry: 1000\n\n")
    // Another writer: the CLI's append, through the log's lock, not this server.
    let appended = runCLI(["append", fixture.log, "--catalog", fixture.catalog], stdin: purchase("cli1", subject: "c1") + "\n")
    #expect(appended.status == 0, "\(appended.stderr)")
    let seen = batches(try feed.read(until: "id: 8\n"))
    #expect(seen.map(\.id) == [8] && seen[0].data["subjects"] as? [String] == ["c1"])
    // The answers take the other writer's line in too, within a few polling intervals.
    var held = false
    for _ in 0..<100 where !held {
      let answer = try fixture.request("GET", "/v1/subjects/c1?at=2026-03-02")
      held = (answer.json["entitlements"] as? [String: Any])?["pro"] != nil
      if !held { Thread.sleep(forTimeInterval: 0.02) }
    }
    #expect(held)
  }

  @Test("a Last-Event-ID that is not a line number is refused with 400")
  func badResume() throws {
    let fixture = try ServerFixture()
    let answer = try fixture.request("GET", "/v1/changes", headers: ["Last-Event-ID: seven"])
    #expect(answer.status == 400 && answer.json["code"] as? String == "usage")
  }

  @Test("stopping the server ends an open feed")
  func stopEndsFeed() throws {
    let fixture = try ServerFixture()
    let feed = try fixture.connect()
    defer { feed.close() }
    feed.send("GET /v1/changes HTTP/1.1\r\n\r\n")
    _ = try feed.read(until: "retry: 1000\n\n")
    #expect(fixture.server.stop())
    #expect(feed.isClosedByServer(timeoutMilliseconds: 2000))
  }
}
