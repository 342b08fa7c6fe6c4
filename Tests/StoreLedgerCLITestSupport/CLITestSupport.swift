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
