import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Timestamps stay within the years 0000–9999 the tool prints and reads back")
struct TimestampRangeTests {
  @Test("an instant that an offset moves outside 0000–9999 is refused", arguments: [
    "0000-01-01T00:00:00+00:01", "0000-01-01T00:59:59.999+01:00", "9999-12-31T23:59:59-00:01", "9999-12-31T23:00:00-01:00",
  ])
  func outside(text: String) {
    #expect(Timestamp.parseRFC3339(text) == nil, "\(text)")
  }

  @Test("the first and last instants of 0000–9999 are accepted and print back as they were read", arguments: [
    "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "0000-01-01T01:00:00+01:00",
  ])
  func edges(text: String) throws {
    let parsed = try #require(Timestamp.parseRFC3339(text))
    #expect(Timestamp.parseRFC3339(parsed.rfc3339) == parsed)
    #expect(parsed.rfc3339.hasPrefix("0000-") || parsed.rfc3339.hasPrefix("9999-"))
  }

  @Test("a log line whose 'at' is outside the range is an error naming the field")
  func inALogLine() throws {
    let found = try errors(
      #"{"id":"a","type":"purchase","subject":"u","at":"0000-01-01T00:00:00+05:00","product":"coins.100","transaction":"t"}"#)
    #expect(found.count == 1)
    #expect(found.first?.description.contains("'at'") == true)
  }
}
