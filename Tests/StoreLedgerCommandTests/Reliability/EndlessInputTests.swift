import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Endless and huge inputs end quickly with a clear error and bounded memory")
struct EndlessInputTests {
  /// An input that never ends: every read fills the buffer with `byte`. Counts what was read.
  private final class Endless: @unchecked Sendable {
    let byte: UInt8
    var served = 0
    init(byte: UInt8) { self.byte = byte }
    func read(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
      buffer.initializeMemory(as: UInt8.self, repeating: byte)
      served += buffer.count
      return buffer.count
    }
  }

  @Test("an endless line stops reading once it passes the line limit", arguments: [10, 1000, 100_000])
  func endlessLine(lineBytesMax: Int) {
    let source = Endless(byte: 0)
    do {
      _ = try LedgerLoader.readBounded(
        name: "<stdin>", limits: InputLimits(lineBytesMax: lineBytesMax, totalBytesMax: Int.max)
      ) { (buffer) throws(Diagnostic) in source.read(buffer) }
      Issue.record("an endless line was read to its end")
    } catch {
      #expect(error.line == 1)
      guard case .lineTooLong(_, let limit) = error.problem else {
        Issue.record("wrong error: \(error)")
        return
      }
      #expect(limit == lineBytesMax)
    }
    #expect(source.served <= lineBytesMax + 2 * 65536, "read \(source.served) bytes for a \(lineBytesMax)-byte limit")
  }

  @Test("endless short lines stop reading once the input passes its size limit")
  func endlessLines() {
    let source = Endless(byte: 10)
    do {
      _ = try LedgerLoader.readBounded(name: "q", limits: InputLimits(lineBytesMax: 100, totalBytesMax: 300_000)) {
        (buffer) throws(Diagnostic) in source.read(buffer)
      }
      Issue.record("an endless input was read to its end")
    } catch {
      #expect(error.description == "q: error: cannot read q: larger than 300000 bytes")
    }
    #expect(source.served <= 300_000 + 65536)
  }

  @Test("a line over the limit after good ones is named by its line number")
  func namesTheLine() {
    let text = Array("ok\nfine\n".utf8) + [UInt8](repeating: 65, count: 50) + [10]
    var offset = 0
    do {
      _ = try LedgerLoader.readBounded(name: "in", limits: InputLimits(lineBytesMax: 20, totalBytesMax: 1000)) {
        (buffer) throws(Diagnostic) in
        let n = min(buffer.count, text.count - offset, 7)
        for k in 0..<n { buffer[k] = text[offset + k] }
        offset += n
        return n
      }
      Issue.record("a long line was accepted")
    } catch {
      #expect(error.line == 3)
      #expect(error.file == "in")
    }
  }

  @Test("commands given /dev/zero end within seconds with 65 or 66", arguments: [
    ["check", "/dev/zero", "--catalog", "CATALOG"], ["append", "LOG", "/dev/zero"], ["append", "LOG", "-"],
    ["audit", "LOG", "--queries", "/dev/zero"], ["diff", "/dev/zero", "/dev/zero"],
  ])
  func devZero(arguments: [String]) throws {
    guard FileManager.default.fileExists(atPath: "/dev/zero") else { return }
    let space = try Workspace(log: try String(contentsOfFile: repoPath("Events/demo.jsonl"), encoding: .utf8))
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let process = Process()
    process.executableURL = try storeledgerBinary()
    process.arguments = arguments.map { $0 == "LOG" ? space.log : $0 == "CATALOG" ? space.path("catalog.json") : $0 }
    process.standardInput = FileHandle(forReadingAtPath: "/dev/zero")
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let started = Date()
    try process.run()
    while process.isRunning && Date().timeIntervalSince(started) < 20 { usleep(20_000) }
    if process.isRunning {
      process.terminate()
      Issue.record("\(arguments[0]) was still reading /dev/zero after 20 s")
    }
    process.waitUntilExit()
    #expect([65, 66].contains(process.terminationStatus), "\(arguments): \(process.terminationStatus)")
    #expect(try space.read() == Data(contentsOf: URL(fileURLWithPath: repoPath("Events/demo.jsonl"))))
  }
}
