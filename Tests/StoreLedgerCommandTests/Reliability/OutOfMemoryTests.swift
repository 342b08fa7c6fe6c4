import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore

// A command that runs out of memory (`ulimit -v`) ends with one sentence and 70, not a Swift
// backtrace, and an append that ran out leaves the log as it was.

@Suite("Out of memory")
struct OutOfMemoryTests {
  /// Lifetime purchases of `count` subjects: about 45 MB per 100,000.
  static func purchases(_ count: Int) -> String {
    (0..<count).map { n in
      EventLines.line(
        .purchase(id: "evt-\(n)", subject: "customer-\(n)", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "t-\(n)"))
    }.joined(separator: "\n") + "\n"
  }

  /// Runs the binary with `arguments` under an address-space limit of `kibibytes`: its status and standard error.
  static func run(_ arguments: [String], limitKiB kibibytes: Int, input: String? = nil) throws -> (status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "ulimit -v \(kibibytes) && exec \"$0\" \"$@\"", try storeledgerBinary().path] + arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    if let input { process.standardInput = FileHandle(forReadingAtPath: input) }
    try process.run()
    let started = Date()
    while process.isRunning && Date().timeIntervalSince(started) < 120 { usleep(20_000) }
    if process.isRunning {
      process.terminate()
      Issue.record("\(arguments[0]) under \(kibibytes) KiB was still running after 120 s")
    }
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }

  @Test("replay and append under shrinking memory limits either finish or stop with the out-of-memory sentence and 70")
  func limitsEndCleanly() throws {
    guard FileManager.default.isExecutableFile(atPath: "/bin/sh") else { return }
    let space = try Workspace(log: Self.purchases(60_000))
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let batch = EventLines.line(
      .purchase(id: "new-1", subject: "zed", at: ts("2026-03-02T00:00:00Z"), product: "pro.lifetime", transaction: "t-new"))
    try space.write("batch.jsonl", batch + "\n")
    let before = try space.read()
    var outOfMemory = 0
    // Below 128 MiB refused at once (near 64 MB Dispatch would wait for a worker thread for ever);
    // above it, a failed allocation or a finished command.
    for limit in [48_000, 64_000, 120_000, 140_000, 256_000, 1_000_000] {
      for arguments in [["replay", space.log], ["append", space.log, space.path("batch.jsonl")]] {
        let (status, stderr) = try Self.run(arguments, limitKiB: limit)
        #expect(!stderr.contains("Backtrac") && !stderr.contains("Program crashed"), "\(arguments[0]) at \(limit) KiB: \(stderr)")
        if status == PlatformFile.outOfMemoryStatus {
          outOfMemory += 1
          #expect(stderr.hasSuffix(PlatformFile.outOfMemoryMessage), "\(arguments[0]) at \(limit) KiB: \(stderr)")
        } else {
          #expect(status == 0, "\(arguments[0]) at \(limit) KiB: \(status) \(stderr)")
        }
        // An append that ran out wrote nothing; one that finished wrote its line once.
        if arguments[0] == "append" && status != 0 { #expect(try space.read() == before) }
        if arguments[0] == "append" && status == 0 { return #expect(try space.read().count > before.count) }
      }
    }
    #expect(outOfMemory > 0, "no limit was low enough to run out of memory")
  }
}
