import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerGenerate

/// Writes `bytes` and the catalog of `usage` to a fresh directory and runs `storeledger check` on it.
func checkWithCLI(_ bytes: [UInt8], usage: UsageLevel) throws -> RunResult {
  let directory = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: directory) }
  let log = directory.appendingPathComponent("log.jsonl").path
  try Data(bytes).write(to: URL(fileURLWithPath: log))
  try Data(LogGenerator.catalogJSON(for: usage).utf8).write(to: directory.appendingPathComponent("catalog.json"))
  return runCLI(["check", log])
}

@Suite("Log generator: contract v1.3")
struct Contract13GenerationCommandTests {
  @Test(
    "generated v1.3 logs pass storeledger check, for several seeds, sizes and usage levels",
    arguments: [
      (UInt64(1), 300, UsageLevel.none), (UInt64(2), 1500, .none), (UInt64(3), 600, .typical), (UInt64(4), 200, .heavy),
    ])
  func passesCheck(seed: UInt64, subjects: Int, usage: UsageLevel) throws {
    let seed = ProcessInfo.processInfo.environment["STORELEDGER_GENERATOR_SEED"].flatMap(UInt64.init) ?? seed
    let (bytes, stats) = generatedLog(GeneratorOptions(subjects: subjects, seed: seed, usage: usage, contract: .v1_3))
    let result = try checkWithCLI(bytes, usage: usage)
    #expect(result.status == 0, "seed \(seed): \(result.stderr.prefix(2000))")
    // Leaks (usage a tier did not allow) are written on purpose; any other warning is not.
    let warnings = result.stderr.split(separator: "\n").filter { $0.contains("warning") && !$0.contains(": leak: ") }
    #expect(warnings.isEmpty, "seed \(seed): \(warnings.prefix(10))")
    #expect(result.stdout.contains("\(stats.lines) lines"), "\(result.stdout)")
  }

  @Test("a generated v1.3 log with transfers passes storeledger check")
  func transfersPassCheck() throws {
    let (bytes, _) = generatedLog(GeneratorOptions(subjects: 1500, seed: 5, usage: .none, contract: .v1_3, transfers: true))
    let result = try checkWithCLI(bytes, usage: .none)
    #expect(result.status == 0, "\(result.stderr.prefix(500))")
    // A unit's lines under its later owners are the unit's, not references to nothing.
    #expect(!result.stderr.contains("has no purchase or renewal"), "\(result.stderr.prefix(500))")
  }

  @Test(
    "generate refuses --transfers without --contract 1.3 and an unknown --contract, as usage errors",
    arguments: [
      (["--transfers"], "'--transfers' needs '--contract 1.3'"),
      (["--contract", "1.4"], "Invalid value for '--contract': '1.4' (expected 1.2 or 1.3)."),
    ])
  func usageErrors(extra: [String], message: String) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("log.jsonl").path
    let result = runCLI(["generate", "--subjects", "5", "--seed", "1", "--out", log] + extra)
    #expect(result.status == 64 && result.stderr.contains(message), "\(result.stderr)")
    #expect(PlatformFile.entryKind(log) == .missing)
  }

  @Test("generate --contract 1.3 writes the same bytes as the library and says what v1.3 events it wrote")
  func command() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("log.jsonl").path
    let result = runCLI(["generate", "--subjects", "400", "--seed", "8", "--out", log, "--contract", "1.3", "--transfers", "--usage", "none"])
    #expect(result.status == 0, "\(result.stderr)")
    let (bytes, stats) = generatedLog(GeneratorOptions(subjects: 400, seed: 8, usage: .none, contract: .v1_3, transfers: true))
    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: log))) == bytes)
    #expect(result.stdout.contains("contract v1.3: ") && result.stdout.contains(Plural.counted(stats.transfers, "transfer")), "\(result.stdout)")
  }
}
