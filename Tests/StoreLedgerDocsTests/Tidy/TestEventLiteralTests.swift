import Foundation
import StoreLedgerCore
import StoreLedgerTestSupport
import Testing

/// Raw event lines in the tests (issue 33, item 2): a test whose subject is not the line format
/// builds its events as `NewEvent` values and gets their lines from `EventLines`, so the tests
/// write events as the library, the importers and the generator do. The files below are about
/// the format itself (malformed lines, unknown keys, key order, byte pins) and keep raw text;
/// every other raw line counts against a bound that may only go down.
@Suite("Test event literals: tests outside the format's own write events through EventLines")
struct TestEventLiteralTests {
  /// The start of a raw event line, spelled so that this file does not contain it.
  static let needle = "{\"" + "id\":"

  /// The most raw event lines the tests outside `formatFiles` may hold. Lower it as tests move
  /// to `EventLines`; it may not go up.
  static let rawLinesMax = 81

  /// The test files about the line format, whose raw lines are their input, with why.
  static let formatFiles: [String: String] = [
    "Tests/StoreLedgerUnitTests/Log/EventLineParserTests.swift": "the parser's verdict on each spelling of a line",
    "Tests/StoreLedgerUnitTests/Log/DifferentialReaderTests.swift": "the parser against the reference reader, byte for byte",
    "Tests/StoreLedgerUnitTests/Log/CompactEventTests.swift": "the compact record a parsed line becomes",
    "Tests/StoreLedgerUnitTests/Log/AdversarialShapeTests.swift": "lines shaped to break the reader",
    "Tests/StoreLedgerUnitTests/Generate/LogGeneratorTests.swift": "the generator's lines pinned byte for byte",
  ]

  /// The number of raw event lines in `text`.
  static func rawLines(in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  /// Every Swift file under Tests/ with its raw event lines, by path relative to the package root.
  /// - Complexity: O(size of the test tree).
  static func rawLinesByFile() throws -> [String: Int] {
    let root = packageRoot.appendingPathComponent("Tests")
    guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [:] }
    var counts: [String: Int] = [:]
    while let relative = walker.nextObject() as? String {
      guard relative.hasSuffix(".swift") else { continue }
      let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
      let count = rawLines(in: text)
      if count > 0 { counts["Tests/" + relative] = count }
    }
    return counts
  }

  @Test("a raw event line is counted once, and a line written by EventLines is not counted")
  func countsRawLines() {
    let raw = Self.needle + #""p1","type":"purchase"}"# + "\n" + Self.needle + #""p2"}"#
    #expect(Self.rawLines(in: raw) == 2)
    let built = EventLines.log([.consumption(id: "c1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), currency: "gems", quantity: 1)])
    #expect(Self.rawLines(in: "EventLines.log([.consumption(id: \"c1\", ...)])") == 0)
    // The one writer sorts the keys, so a line it wrote does not start with the id.
    #expect(built.hasPrefix("{\"at\":") && built.contains("\"id\":\"c1\"") && Self.rawLines(in: built) == 0, "\(built)")
  }

  @Test("the tests outside the format's own files hold no more raw event lines than the bound")
  func rawLinesBounded() throws {
    let counts = try Self.rawLinesByFile()
    let counted = counts.filter { Self.formatFiles[$0.key] == nil }
    let total = counted.values.reduce(0, +)
    let biggest = counted.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(8).map { "\($0.key): \($0.value)" }
    #expect(
      total <= Self.rawLinesMax,
      """
      the tests hold \(total) raw event lines outside the format's files (at most \(Self.rawLinesMax)); \
      build events as NewEvent values and write them with EventLines.log / EventLines.ledger \
      (Tests/StoreLedgerTestSupport/EventLines.swift). Most in: \(biggest.joined(separator: ", "))
      """)
    for file in Self.formatFiles.keys.sorted() {
      #expect(counts[file, default: 0] > 0, "\(file) holds no raw event line: take it off formatFiles")
    }
  }
}
