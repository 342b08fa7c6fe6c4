import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerGenerate

@Suite("Appends validate through the index and keep it current")
struct IndexAppendTests {
  static let oldLog = EventLines.log([
    .purchase(id: "o1", subject: "ann", at: ts("2026-03-01T00:00:00Z"), product: "coins.100", transaction: "ann-1").recordedAt("2026-03-01T00:00:00Z"),
    .consumption(id: "o2", subject: "ann", at: ts("2026-03-02T00:00:00Z"), currency: "coins", quantity: 40).recordedAt("2026-03-02T00:00:00Z"),
    .purchase(id: "o3", subject: "cy", at: ts("2026-03-03T00:00:00Z"), product: "pro.monthly", transaction: "cy-1", expires: ts("2026-04-03T00:00:00Z")).recordedAt("2026-03-03T00:00:00Z"),
  ]) + "\n"

  /// Batches and what they test: each must end as it does without an index.
  static let batches: [(String, String)] = [
    ("a new subject", EventLines.line(.purchase(id: "n1", subject: "dee", at: ts("2026-03-04T00:00:00Z"), product: "coins.100", transaction: "dee-1"))),
    ("an id another subject used", EventLines.line(.purchase(id: "o3", subject: "dee", at: ts("2026-03-04T00:00:00Z"), product: "coins.100", transaction: "dee-1"))),
    ("a redelivery of another subject's event", EventLines.line(.purchase(id: "o3", subject: "cy", at: ts("2026-03-03T00:00:00Z"), product: "pro.monthly", transaction: "cy-1", expires: ts("2026-04-03T00:00:00Z")).recordedAt("2026-03-09T00:00:00Z"))),
    ("a redelivery recorded earlier than the log has it", EventLines.line(.purchase(id: "o3", subject: "cy", at: ts("2026-03-03T00:00:00Z"), product: "pro.monthly", transaction: "cy-1", expires: ts("2026-04-03T00:00:00Z")).recordedAt("2026-03-02T12:00:00Z"))),
    ("a transaction charged by another subject", EventLines.line(.purchase(id: "n2", subject: "dee", at: ts("2026-03-04T00:00:00Z"), product: "coins.100", transaction: "cy-1"))),
    ("an overdraw of an existing balance", EventLines.line(.consumption(id: "n3", subject: "ann", at: ts("2026-03-05T00:00:00Z"), currency: "coins", quantity: 61))),
    ("a spend the balance allows", EventLines.line(.consumption(id: "n4", subject: "ann", at: ts("2026-03-05T00:00:00Z"), currency: "coins", quantity: 60))),
    ("a renewal of another subject's subscription", EventLines.line(.renewal(id: "n5", subject: "cy", at: ts("2026-04-03T00:00:00Z"), product: "pro.monthly", transaction: "cy-2", originalTransaction: "cy-1", expires: ts("2026-05-03T00:00:00Z")))),
  ]

  /// Appends `batch` to a fresh copy of the old log, with or without an index; the outcome as text and the log afterwards.
  static func outcome(_ batch: String, indexed: Bool, tail: String = "") throws -> (String, String, IndexFixture) {
    let fixture = try IndexFixture(log: Array(oldLog.utf8), catalogText: exampleCatalogText)
    if indexed { try fixture.index() }
    try fixture.appendBehindBack(Array(tail.utf8))
    let text: String
    do {
      let report = try LogAppender.append(
        input: Array((batch + "\n").utf8), inputName: "batch", logPath: fixture.log, catalog: fixture.catalog,
        now: ts("2026-03-10T00:00:00Z"))
      text = "appended \(report.appended), learned earlier \(report.learnedEarlier), duplicates \(report.duplicates), warnings \(report.warnings.map(\.description))"
    } catch {
      text = error.diagnostics.map(\.description).joined(separator: "\n")
    }
    // The two runs' logs are in different directories: name the log alike.
    return (text.replacingOccurrences(of: fixture.log, with: "LOG"), try String(contentsOfFile: fixture.log, encoding: .utf8), fixture)
  }

  @Test("a batch ends as it does without an index, and the index covers the log afterwards", arguments: batches.indices)
  func sameOutcome(_ k: Int) throws {
    let (name, batch) = Self.batches[k]
    for tail in ["", EventLines.line(.purchase(id: "t1", subject: "eve", at: ts("2026-03-06T00:00:00Z"), product: "coins.100", transaction: "dee-1").recordedAt("2026-03-06T00:00:00Z")) + "\n"] {
      let (plain, plainLog, a) = try Self.outcome(batch, indexed: false, tail: tail)
      let (indexed, indexedLog, b) = try Self.outcome(batch, indexed: true, tail: tail)
      defer { a.remove(); b.remove() }
      #expect(indexed == plain, "\(name), tail \(!tail.isEmpty)")
      #expect(indexedLog == plainLog, "\(name)")
      let manifest = try #require(LogIndex.readManifest(b.indexDirectory).flatMap { try? $0.get() })
      // After a committed batch the index covers the whole log (the tail too); a refused or empty one changes nothing.
      let committed = indexedLog.utf8.count > (Self.oldLog + tail).utf8.count
      let covered = committed ? indexedLog.utf8.count : Self.oldLog.utf8.count
      #expect(manifest.coveredBytes == Int64(covered), "\(name): the index covers every committed line")
      let full = try b.fullLedger()
      for subject in ["ann", "cy", "dee", "eve"] {
        let ledger = try #require(try b.indexedLedger([subject]).0)
        for asOf in [nil, ts("2026-03-02T18:00:00Z")] {
          #expect(answers(ledger, subject: subject, at: ts("2026-03-20T00:00:00Z"), asOf: asOf) == answers(full, subject: subject, at: ts("2026-03-20T00:00:00Z"), asOf: asOf))
        }
      }
    }
  }

  @Test("many appends keep the segments few (merging) and the answers equal")
  func manyAppends() throws {
    let fixture = try IndexFixture(log: Array(Self.oldLog.utf8), catalogText: exampleCatalogText)
    defer { fixture.remove() }
    try fixture.index()
    for k in 0..<40 {
      let line = EventLines.line(
        .purchase(id: "m\(k)", subject: "u\(k % 7)", at: ts("2026-03-0\(k % 9 + 1)T00:00:00Z"), product: "coins.100", transaction: "m-\(k)"))
      let report = try LogAppender.append(
        input: Array((line + "\n").utf8), inputName: "b", logPath: fixture.log, catalog: fixture.catalog, now: ts("2026-03-10T00:00:00Z"))
      #expect(report.appended == 1 && report.warnings.isEmpty)
    }
    let manifest = try #require(LogIndex.readManifest(fixture.indexDirectory).flatMap { try? $0.get() })
    #expect(manifest.segments.count <= 7 && manifest.coveredLines == 43)
    #expect(try fixture.indexFiles().count == manifest.segments.count + 1, "no file left behind")
    let full = try fixture.fullLedger()
    for subject in (0..<7).map({ "u\($0)" }) + ["ann"] {
      let ledger = try #require(try fixture.indexedLedger([subject]).0)
      #expect(answers(ledger, subject: subject, at: ts("2026-03-20T00:00:00Z"), asOf: nil) == answers(full, subject: subject, at: ts("2026-03-20T00:00:00Z"), asOf: nil))
    }
  }

  @Test("a crash at any byte of an index write leaves the old index or the new one, never a wrong answer")
  func crashes() throws {
    let fixture = try IndexFixture(log: Array(Self.oldLog.utf8), catalogText: exampleCatalogText)
    defer { fixture.remove() }
    // Two appends first, so the crashing one also merges segments.
    for k in 0..<2 {
      _ = try LogAppender.append(
        input: Array(
          (EventLines.line(.purchase(id: "p\(k)", subject: "ann", at: ts("2026-03-04T00:00:00Z"), product: "coins.100", transaction: "p-\(k)"))
            + "\n").utf8),
        inputName: "b", logPath: fixture.log, catalog: fixture.catalog, now: ts("2026-03-10T00:00:00Z"))
    }
    try fixture.index()
    let logBefore = Array(try Data(contentsOf: URL(fileURLWithPath: fixture.log)))
    let indexBefore = try fixture.indexFiles()
    let batch = Array((EventLines.line(.consumption(id: "c1", subject: "ann", at: ts("2026-03-06T00:00:00Z"), currency: "coins", quantity: 30)) + "\n").utf8)
    func restore() throws {
      try Data(logBefore).write(to: URL(fileURLWithPath: fixture.log))  // same inode
      for name in try FileManager.default.contentsOfDirectory(atPath: fixture.indexDirectory) {
        try FileManager.default.removeItem(atPath: fixture.indexDirectory + "/" + name)
      }
      for file in indexBefore { try Data(file.bytes).write(to: URL(fileURLWithPath: fixture.indexDirectory + "/" + file.name)) }
    }
    func appendWithCrash(after bytes: Int) throws -> IOFault {
      let fault = IOFault(pathPrefix: fixture.indexDirectory + "/", failure: .crash, afterBytes: bytes)
      let (report, ended) = try IOFaults.with(fault) {
        try LogAppender.append(input: batch, inputName: "b", logPath: fixture.log, catalog: fixture.catalog, now: ts("2026-03-10T00:00:00Z"))
      }
      #expect(report.appended == 1, "the batch is committed whatever happens to the index")
      return ended
    }
    let total = try appendWithCrash(after: Int.max).bytesWritten
    #expect(total > 3 * SegmentFormat.pageBytes)
    var points = Array(stride(from: 0, to: total, by: max(1, total / 200)))
    points += Array(max(0, total - 700)..<total)  // every byte of the manifest, written last
    for after in Set(points).sorted() {
      try restore()
      let ended = try appendWithCrash(after: after)
      #expect(ended.crashed)
      let manifest = try #require(LogIndex.readManifest(fixture.indexDirectory).flatMap { try? $0.get() }, "crash after \(after)")
      #expect(manifest.coveredBytes == Int64(logBefore.count) || manifest.coveredBytes == Int64(logBefore.count + batch.count))
      let (ledger, warning) = try fixture.indexedLedger(["ann"])
      let indexed = try #require(ledger, "crash after \(after): \(String(describing: warning))")
      let full = try fixture.fullLedger()
      #expect(answers(indexed, subject: "ann", at: ts("2026-03-20T00:00:00Z"), asOf: nil) == answers(full, subject: "ann", at: ts("2026-03-20T00:00:00Z"), asOf: nil))
    }
  }

  @Test("a crash while `index` builds leaves no index or the whole one")
  func buildCrashes() throws {
    let fixture = try IndexFixture(log: Array(Self.oldLog.utf8), catalogText: exampleCatalogText)
    defer { fixture.remove() }
    try FileManager.default.createDirectory(atPath: fixture.indexDirectory, withIntermediateDirectories: false)
    let probe = IOFault(pathPrefix: fixture.indexDirectory + "/", failure: .crash, afterBytes: Int.max)
    let total = try IOFaults.with(probe) { try IndexBuild.run(logPath: fixture.log, catalog: fixture.catalog) }.1.bytesWritten
    for after in stride(from: 0, to: total, by: max(1, total / 150)) {
      try FileManager.default.removeItem(atPath: fixture.indexDirectory)
      try FileManager.default.createDirectory(atPath: fixture.indexDirectory, withIntermediateDirectories: false)
      let fault = IOFault(pathPrefix: fixture.indexDirectory + "/", failure: .crash, afterBytes: after)
      _ = IOFaults.with(fault) { try? IndexBuild.run(logPath: fixture.log, catalog: fixture.catalog) }
      let (ledger, warning) = try fixture.indexedLedger(["ann"])
      #expect(ledger == nil, "crash after \(after): no manifest yet, so no index")
      #expect(warning.map { if case .indexNotUsed(.damaged) = $0.problem { return true } else { return false } } ?? true)
      // Running `index` again builds it.
      try fixture.index(rebuild: true)
      #expect(try fixture.indexedLedger(["ann"]).0 != nil)
    }
  }
}

@Suite("The library answers one subject through the index")
struct IndexLibraryTests {
  @Test("LedgerStore.answer(logPath:) equals an open store's answer, with and without an index; appends keep the index current")
  func lazyAnswer() throws {
    let (bytes, _) = generatedLog(GeneratorOptions(subjects: 40, seed: 8))
    let fixture = try IndexFixture(log: bytes, catalogText: LogGenerator.policyCatalogJSON)
    defer { fixture.remove() }
    let store = try LedgerStore(logPath: fixture.log)
    let full = try fixture.fullLedger()
    let subjects = (0..<5).map { full.symbols.subjects.string(Symbol(rawValue: UInt32($0))) } + ["nobody"]
    for indexed in [false, true] {
      if indexed { try fixture.index() }
      for subject in subjects {
        let lazy = try LedgerStore.answer(logPath: fixture.log, for: SubjectID(rawValue: subject), at: full.latestEffective)
        #expect(lazy == store.answer(for: SubjectID(rawValue: subject), at: full.latestEffective), "\(subject)")
      }
    }
    // The store's appends keep the index current.
    var event = NewEvent(id: "lib-1", kind: .purchase, subject: "lib", at: full.latestEffective)
    event.product = "coins.100"
    event.transaction = "lib-1"
    let report = try store.append([event])
    #expect(report.appended == 1 && report.warnings.isEmpty)
    // So do appends without an open store, checked through the index.
    event.id = "lib-2"
    event.transaction = "lib-2"
    #expect(try LedgerStore.append([event], logPath: fixture.log).appended == 1)
    event.id = "lib-3"
    let refused = #expect(throws: DiagnosticList.self) { try LedgerStore.append([event], logPath: fixture.log) }
    #expect(refused?.diagnostics.first.map { if case .transactionReused = $0.problem { true } else { false } } == true)
    let manifest = try #require(LogIndex.readManifest(fixture.indexDirectory).flatMap { try? $0.get() })
    #expect(manifest.coveredBytes == Int64(try Data(contentsOf: URL(fileURLWithPath: fixture.log)).count))
    let lazy = try LedgerStore.answer(logPath: fixture.log, for: "lib", at: full.latestEffective)
    #expect(lazy == (try LedgerStore(logPath: fixture.log)).answer(for: "lib", at: full.latestEffective))
  }

  @Test("LedgerStore.can(logPath:) equals an open store's feature check, with and without an index")
  func lazyCan() throws {
    let (bytes, _) = generatedLog(GeneratorOptions(subjects: 40, seed: 9))
    let fixture = try IndexFixture(log: bytes, catalogText: LogGenerator.policyCatalogJSON)
    defer { fixture.remove() }
    let store = try LedgerStore(logPath: fixture.log)
    let full = try fixture.fullLedger()
    let subjects = (0..<5).map { full.symbols.subjects.string(Symbol(rawValue: UInt32($0))) } + ["nobody"]
    for indexed in [false, true] {
      if indexed { try fixture.index() }
      for subject in subjects {
        for feature in ["ai_query", "export", "saved_item"] {
          let lazy = try LedgerStore.can(logPath: fixture.log, SubjectID(rawValue: subject), use: FeatureID(rawValue: feature), at: full.latestEffective)
          #expect(lazy == (try store.can(SubjectID(rawValue: subject), use: FeatureID(rawValue: feature), at: full.latestEffective)), "\(subject) \(feature) indexed: \(indexed)")
        }
      }
    }
    let unknown = #expect(throws: DiagnosticList.self) { try LedgerStore.can(logPath: fixture.log, "x", use: "ai_quer", at: full.latestEffective) }
    #expect(unknown?.code == .unknownFeature)
  }

  @Test("openingCost reads nothing but the size: bytes, the index beside the log, and the estimates at the documented rates")
  func openingCost() throws {
    let (bytes, _) = generatedLog(GeneratorOptions(subjects: 20, seed: 3))
    let fixture = try IndexFixture(log: bytes, catalogText: LogGenerator.policyCatalogJSON)
    defer { fixture.remove() }
    let before = try LedgerStore.openingCost(logPath: fixture.log)
    #expect(before.logBytes == Int64(bytes.count) && !before.hasIndex)
    #expect(before.estimatedMemoryBytes == Int64(Double(bytes.count) * OpeningCost.memoryBytesPerLogByte))
    #expect(before.estimatedSeconds == Double(bytes.count) / OpeningCost.logBytesPerSecond)
    try fixture.index()
    #expect(try LedgerStore.openingCost(logPath: fixture.log).hasIndex)
    let missing = #expect(throws: DiagnosticList.self) { try LedgerStore.openingCost(logPath: fixture.log + ".nope") }
    #expect(missing?.exitCode == 66)
  }
}
