import Foundation
import StoreLedgerTestSupport

@testable import StoreLedgerCLI

/// The result of running the CLI in-process.
package struct RunResult {
  package var status: Int32
  package var stdout: String
  package var stderr: String
}

/// Runs `storeledger` in-process with captured streams.
/// `environment`, when given, is all the command sees of the process environment.
package func runCLI(_ arguments: [String], stdin: String = "", environment: [String: String]? = nil) -> RunResult {
  final class Box: @unchecked Sendable {
    var out: [UInt8] = []
    var err: [UInt8] = []
  }
  let box = Box()
  let console = Console(
    out: { box.out.append(contentsOf: $0) }, err: { box.err.append(contentsOf: $0) },
    input: { Array(stdin.utf8) })
  if let environment { console.environment = { environment[$0] } }
  let status = StoreLedgerCLI.run(arguments: arguments, console: console)
  return RunResult(
    status: status, stdout: String(decoding: box.out, as: UTF8.self),
    stderr: String(decoding: box.err, as: UTF8.self))
}

/// Runs a program to its end, with `stdin` as input; stdout to a file when given.
package func runProcess(_ path: String, _ arguments: [String], stdin: String? = nil, stdoutPath: String? = nil) throws
  -> RunResult
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  let output = Pipe()
  let errors = Pipe()
  if let stdoutPath {
    process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
  } else {
    process.standardOutput = output
  }
  process.standardError = errors
  let input = Pipe()
  process.standardInput = stdin == nil ? FileHandle.nullDevice : input
  try process.run()
  if let stdin {
    input.fileHandleForWriting.write(Data(stdin.utf8))
    try input.fileHandleForWriting.close()
  }
  let outData = stdoutPath == nil ? output.fileHandleForReading.readDataToEndOfFile() : Data()
  let errData = errors.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return RunResult(
    status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
    stderr: String(decoding: errData, as: UTF8.self))
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
