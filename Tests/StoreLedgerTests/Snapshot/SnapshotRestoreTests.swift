import Foundation
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Loads `lines` as a log file in a fresh directory with the Events catalog.
private func logFile(_ lines: [String], in directory: URL, name: String = "log.jsonl") throws -> String {
  let path = directory.appendingPathComponent(name).path
  try (lines.map { $0 + "\n" }.joined()).write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

private func makeSnapshot(of logPath: String, catalogPath: String, catalog: Catalog) throws -> [UInt8] {
  let (ledger, extent) = try LedgerLoader.load(logPath: logPath, catalog: catalog)
  let header = try SnapshotFiles.header(for: ledger, extent: extent, logPath: logPath, catalogPath: catalogPath)
  return SnapshotWriter.write(ledger, header: header)
}

@Suite("Snapshots: restore plus tail equals a full replay")
struct SnapshotRestoreTests {
  static let catalogPath = repoPath("Events/catalog.json")

  /// Logs to cut: every scenario, and generated logs.
  static func logs() throws -> [(String, [String])] {
    var result: [(String, [String])] = []
    for name in scenarioNames {
      let text = try String(contentsOfFile: repoPath("Events/\(name).jsonl"), encoding: .utf8)
      result.append((name, text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }))
    }
    for seed in testSeeds([21, 22]) {
      result.append(("random-\(seed)", RandomLog(seed: seed, subjects: 4, eventsPerSubject: 40).lines))
    }
    return result
  }

  @Test("for random cut points, snapshot of the prefix plus the tail answers exactly like a full replay")
  func cutPoints() throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    var random = SeededGenerator(seed: testSeeds([99])[0])
    for (name, lines) in try Self.logs() {
      // Shuffle random logs so tail events land before earlier lines in effective time.
      let ordered = name.hasPrefix("random") ? lines.shuffled(using: &random) : lines
      let directory = try temporaryDirectory()
      defer { try? FileManager.default.removeItem(at: directory) }
      try FileManager.default.copyItem(atPath: Self.catalogPath, toPath: directory.appendingPathComponent("catalog.json").path)
      let fullPath = try logFile(ordered, in: directory)
      let full = try LedgerLoader.load(logPath: fullPath, catalog: catalog).ledger
      var fullEngine = QueryEngine(ledger: full)
      let subjects = (0..<full.subjectCount).map { full.symbols.subjects.string(Symbol(rawValue: UInt32($0))) } + ["nobody"]
      let times = full.events.flatMap { [$0.at, $0.recorded, $0.at.adding(milliseconds: -1)] }
      let cuts = Set([0, ordered.count] + (0..<8).map { _ in Int.random(in: 0...ordered.count, using: &random) })
      var restoredCuts = 0
      for cut in cuts.sorted() {
        let prefixPath = try logFile(Array(ordered.prefix(cut)), in: directory, name: "prefix.jsonl")
        let snapshotPath = directory.appendingPathComponent("snap-\(cut).json").path
        // A prefix of a shuffled log can spend coins bought later in the file: no snapshot there.
        guard let bytes = try? makeSnapshot(of: prefixPath, catalogPath: Self.catalogPath, catalog: catalog) else {
          #expect(name.hasPrefix("random"), "\(name): prefix of \(cut) lines is invalid")
          continue
        }
        restoredCuts += 1
        try SnapshotFiles.write(bytes, to: snapshotPath)
        let restored = try SnapshotFiles.restore(
          snapshotPath: snapshotPath, logPath: fullPath, catalogPath: Self.catalogPath, catalog: catalog)
        #expect(restored.ledger.events.count == full.events.count, "\(name) cut \(cut)")
        #expect(restored.ledger.duplicatesSkipped == full.duplicatesSkipped, "\(name) cut \(cut)")
        var engine = QueryEngine(ledger: restored.ledger)
        for _ in 0..<60 {
          let subject = subjects.randomElement(using: &random)!
          let at = times.randomElement(using: &random) ?? ts("2026-01-01T00:00:00Z")
          let asOf: Timestamp? = Bool.random(using: &random) ? times.randomElement(using: &random) : nil
          let expected = fullEngine.answer(subject: subject, at: at, asOf: asOf, explain: true)
          let actual = engine.answer(subject: subject, at: at, asOf: asOf, explain: true)
          #expect(actual == expected, "\(name) cut \(cut): \(subject) at \(at) as of \(String(describing: asOf))")
        }
      }
      #expect(restoredCuts >= 2, "\(name): too few valid cut points")
    }
  }

  @Test("snapshotting the same log twice gives identical bytes, and restoring it with no tail gives them again")
  func determinism() throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let logPath = repoPath("Events/out-of-order-late.jsonl")
    let first = try makeSnapshot(of: logPath, catalogPath: Self.catalogPath, catalog: catalog)
    let second = try makeSnapshot(of: logPath, catalogPath: Self.catalogPath, catalog: catalog)
    #expect(first == second)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let snapshotPath = directory.appendingPathComponent("s.json").path
    try SnapshotFiles.write(first, to: snapshotPath)
    let restored = try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog)
    let (_, extent) = try LedgerLoader.load(logPath: logPath, catalog: catalog)
    let header = try SnapshotFiles.header(for: restored.ledger, extent: extent, logPath: logPath, catalogPath: Self.catalogPath)
    #expect(SnapshotWriter.write(restored.ledger, header: header) == first)
  }

  /// A change to the log's prefix, and the phrase the refusal must contain.
  static let tamperings: [(String, String)] = [
    ("a changed byte", "does not begin with"),
    ("a removed line", "does not begin with"),
    ("an inserted line", "does not begin with"),
    ("two swapped lines", "does not begin with"),
    ("a truncated log", "shorter than"),
  ]

  @Test("a snapshot is refused when the log's prefix was tampered with", arguments: tamperings)
  func tampering(kind: String, phrase: String) throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let lines = try String(contentsOfFile: repoPath("Events/demo.jsonl"), encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let prefixPath = try logFile(Array(lines.prefix(5)), in: directory, name: "prefix.jsonl")
    let snapshotPath = directory.appendingPathComponent("s.json").path
    try SnapshotFiles.write(try makeSnapshot(of: prefixPath, catalogPath: Self.catalogPath, catalog: catalog), to: snapshotPath)
    var changed = lines
    switch kind {
    case "a changed byte": changed[1] = changed[1].replacingOccurrences(of: "29990", with: "29991")
    case "a removed line": changed.remove(at: 2)
    case "an inserted line":
      changed.insert(#"{"id":"x","type":"purchase_pending","subject":"u9","at":"2026-01-01T00:00:00Z","product":"pro.annual"}"#, at: 1)
    case "two swapped lines": changed.swapAt(0, 1)
    default: changed = Array(lines.prefix(3))
    }
    let logPath = try logFile(changed, in: directory)
    #expect(throws: DiagnosticList.self) {
      _ = try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog)
    }
    do {
      _ = try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog)
    } catch {
      #expect(error.exitCode == 65)
      #expect(error.diagnostics.first?.message.contains(phrase) == true, "\(error.diagnostics)")
    }
  }

  @Test("a snapshot made with another catalog is refused")
  func otherCatalog() throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let logPath = repoPath("Events/demo.jsonl")
    let snapshotPath = directory.appendingPathComponent("s.json").path
    try SnapshotFiles.write(try makeSnapshot(of: logPath, catalogPath: Self.catalogPath, catalog: catalog), to: snapshotPath)
    let otherCatalog = directory.appendingPathComponent("catalog.json").path
    try (exampleCatalogText + "\n").write(toFile: otherCatalog, atomically: true, encoding: .utf8)
    do {
      _ = try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: otherCatalog, catalog: catalog)
      Issue.record("expected a refusal")
    } catch {
      #expect(error.diagnostics.first?.message.contains("different catalog") == true)
    }
  }

  @Test(
    "a damaged snapshot is an error, never a crash",
    arguments: ["not base64!", "garbage records", "truncated records", "restore_bytes too large"])
  func damaged(damage: String) throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let logPath = repoPath("Events/consumables.jsonl")
    var text = String(decoding: try makeSnapshot(of: logPath, catalogPath: Self.catalogPath, catalog: catalog), as: UTF8.self)
    let stateStart = try #require(text.range(of: "\"state\": {\n    \""))
    let valueStart = try #require(text.range(of: "\": \"", range: stateStart.upperBound..<text.endIndex))
    let valueEnd = try #require(text[valueStart.upperBound...].firstIndex(of: "\""))
    let original = String(text[valueStart.upperBound..<valueEnd])
    let replacement: String
    switch damage {
    case "not base64!": replacement = "!!!!" + original.dropFirst(4)
    case "garbage records": replacement = String(repeating: "/", count: original.count)
    case "truncated records": replacement = String(original.prefix(original.count / 2 / 4 * 4))
    default: replacement = original
    }
    text.replaceSubrange(valueStart.upperBound..<valueEnd, with: replacement)
    if damage == "restore_bytes too large" {
      let marker = try #require(text.range(of: "\"restore_bytes\": "))
      let digitsEnd = try #require(text[marker.upperBound...].firstIndex(of: " "))
      text.replaceSubrange(marker.upperBound..<digitsEnd, with: "99999999")
    }
    let snapshotPath = directory.appendingPathComponent("s.json").path
    try text.write(toFile: snapshotPath, atomically: true, encoding: .utf8)
    do {
      _ = try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog)
      Issue.record("expected an error for \(damage)")
    } catch {
      #expect(error.exitCode == 65)
      #expect(error.diagnostics.first?.message.contains("not a valid snapshot") == true, "\(error.diagnostics)")
    }
  }
}
