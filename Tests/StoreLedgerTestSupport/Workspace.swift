import Foundation

/// A temporary directory holding the Events catalog and a log.
package struct Workspace {
  package let directory: URL
  package var log: String { directory.appendingPathComponent("log.jsonl").path }

  package init(log text: String? = nil) throws {
    directory = try temporaryDirectory()
    try exampleCatalogText.write(toFile: directory.appendingPathComponent("catalog.json").path, atomically: true, encoding: .utf8)
    if let text { try text.write(toFile: log, atomically: true, encoding: .utf8) }
  }

  package func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  package func write(_ name: String, _ text: String) throws {
    try text.write(toFile: path(name), atomically: true, encoding: .utf8)
  }

  package func read(_ name: String = "log.jsonl") throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path(name)))
  }
}

/// The built `storeledger` binary, for tests that need real processes.
package func storeledgerBinary() throws -> URL {
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

/// Runs the `storeledger` binary once per argument list, all started before any is waited
/// for (so they race), with output discarded; their exit statuses in order.
package func runCLIConcurrently(_ argumentLists: [[String]]) throws -> [Int32] {
  let binary = try storeledgerBinary()
  let processes = argumentLists.map { arguments in
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    return process
  }
  for process in processes { try process.run() }
  return processes.map { process in
    process.waitUntilExit()
    return process.terminationStatus
  }
}
