import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerGenerate

/// The generator's lines are the library's typed events (issue 33: one typed event at every
/// seam): `LogGenerator.forEachEvent` gives, in order, the `NewEvent` of each line `generate`
/// writes, and each line reads back as exactly that value, through the one reader of a typed
/// event (`NewEvent(json:)`) and as the JSON value its one writer (`NewEvent.jsonValue`) makes.
@Suite("Generated events: every generated line is the typed event the generator says it is")
struct GeneratedTypedEventTests {
  static let logs: [GeneratorOptions] = [
    GeneratorOptions(subjects: 300, seed: 7),
    GeneratorOptions(subjects: 300, seed: 11, usage: .none),
    GeneratorOptions(subjects: 600, seed: 20_240_101, usage: .none, contract: .v1_3, transfers: true),
    GeneratorOptions(subjects: 300, seed: 3, contract: .v1_3),
  ]

  @Test("each line reads back as the typed event, in the same order", arguments: logs)
  func linesAreTypedEvents(options: GeneratorOptions) throws {
    let (bytes, stats) = generatedLog(options)
    let lines = bytes.split(separator: 10).map { String(decoding: $0, as: UTF8.self) }
    var events: [NewEvent] = []
    LogGenerator(options: options).forEachEvent { events.append($0) }
    #expect(events.count == lines.count)
    #expect(events.count == stats.lines)
    var mismatches: [String] = []
    for (line, event) in zip(lines, events) {
      let value = try JSONValue.parse(line)
      if try NewEvent(json: value) != event || value != event.jsonValue {
        mismatches.append(line)
      }
    }
    #expect(mismatches.count == 0, "\(mismatches.count) lines differ from their typed events, first: \(mismatches.prefix(2))")
  }

  @Test("the typed events cover every kind and field the generator writes, meta and late knowledge included")
  func typedEventsCoverTheLog() {
    var kinds: Set<EventKind> = []
    var withMeta = 0
    var late = 0
    var numbersInValues = 0
    for options in Self.logs {
      LogGenerator(options: options).forEachEvent { event in
        kinds.insert(event.kind)
        if !event.metaValues.isEmpty { withMeta += 1 }
        if event.recorded != nil { late += 1 }
        if event.price != nil || event.quantity != nil || event.refunded != nil { numbersInValues += 1 }
      }
    }
    let written: Set<EventKind> = [
      .purchase, .renewal, .expiration, .revocation, .usage, .consumption, .autoRenewChanged, .graceEntered,
      .transfer, .grant, .grantRevoked, .block, .unblock, .refundRequested, .refundDeclined,
    ]
    #expect(written.isSubset(of: kinds), "kinds never generated: \(written.subtracting(kinds).map(\.rawValue).sorted())")
    #expect(withMeta > 0)
    #expect(late > 0)
    #expect(numbersInValues > 0)
  }
}
