import Foundation
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerQuery
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerCLI

/// The result of running the CLI in-process.
struct RunResult {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// Runs `storeledger` in-process with captured streams.
func runCLI(_ arguments: [String], stdin: String = "") -> RunResult {
  final class Box: @unchecked Sendable {
    var out: [UInt8] = []
    var err: [UInt8] = []
  }
  let box = Box()
  let console = Console(
    out: { box.out.append(contentsOf: $0) }, err: { box.err.append(contentsOf: $0) },
    input: { Array(stdin.utf8) })
  let status = StoreLedgerCLI.run(arguments: arguments, console: console)
  return RunResult(
    status: status, stdout: String(decoding: box.out, as: UTF8.self),
    stderr: String(decoding: box.err, as: UTF8.self))
}

/// A temporary directory holding the Events catalog and a log.
struct Workspace {
  let directory: URL
  var log: String { directory.appendingPathComponent("log.jsonl").path }

  init(log text: String? = nil) throws {
    directory = try temporaryDirectory()
    try exampleCatalogText.write(toFile: directory.appendingPathComponent("catalog.json").path, atomically: true, encoding: .utf8)
    if let text { try text.write(toFile: log, atomically: true, encoding: .utf8) }
  }

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  func write(_ name: String, _ text: String) throws {
    try text.write(toFile: path(name), atomically: true, encoding: .utf8)
  }

  func read(_ name: String = "log.jsonl") throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path(name)))
  }
}

/// The built `storeledger` binary, for tests that need real processes.
func storeledgerBinary() throws -> URL {
  if let override = ProcessInfo.processInfo.environment["STORELEDGER_BIN"] {
    return URL(fileURLWithPath: override)
  }
  let candidates = [".build/debug/storeledger", ".build/release/storeledger"]
  for candidate in candidates {
    let url = packageRoot.appendingPathComponent(candidate)
    if FileManager.default.isExecutableFile(atPath: url.path) { return url }
  }
  // Next to the test bundle (swift build --build-path elsewhere).
  let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  let beside = bundle.appendingPathComponent("storeledger")
  if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
  throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "storeledger binary (build it first)"])
}
