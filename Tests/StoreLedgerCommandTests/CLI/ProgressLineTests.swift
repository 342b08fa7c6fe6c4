import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCLI

@Suite("A progress line for long commands, on a terminal only")
struct ProgressLineTests {
  final class Recorder: @unchecked Sendable {
    var written = ""
    var clock: UInt64 = 0
  }

  @Test("silent for half a second, then percent, size, rate and time left, redrawn at most every 0.2 s, cleared at the end")
  func drawsAndClears() {
    let recorder = Recorder()
    let line = ProgressLine(
      label: "log.jsonl", write: { recorder.written += String(decoding: $0, as: UTF8.self) }, now: { recorder.clock })
    recorder.clock = 400_000_000
    line.update(done: 10_000_000, total: 100_000_000)
    #expect(recorder.written.isEmpty)
    recorder.clock = 1_000_000_000
    line.update(done: 50_000_000, total: 100_000_000)
    #expect(
      recorder.written
        == "\r\u{1B}[Kreading log.jsonl: 50% of 100.0 MB, 50.0 MB/s, about 1 s left" + ProgressLine.buildHint)
    recorder.written = ""
    recorder.clock = 1_100_000_000
    line.update(done: 60_000_000, total: 100_000_000)
    #expect(recorder.written.isEmpty)
    line.finish()
    #expect(recorder.written == "\r\u{1B}[K")
  }

  @Test("a read that ends within the delay draws and clears nothing")
  func shortReadIsSilent() {
    let recorder = Recorder()
    let line = ProgressLine(
      label: "log.jsonl", write: { recorder.written += String(decoding: $0, as: UTF8.self) }, now: { recorder.clock })
    recorder.clock = 100_000_000
    line.update(done: 1, total: 2)
    line.finish()
    #expect(recorder.written.isEmpty)
  }

  @Test("commands whose stderr is not a terminal get no progress line")
  func notOnAPipe() {
    let console = Console(out: { _ in }, err: { _ in })
    #expect(console.progress(reading: "log.jsonl") == nil)
  }

  @Test("phases after the read are drawn at once, a counted phase with percent and time left, then cleared")
  func phases() {
    let recorder = Recorder()
    let line = ProgressLine(
      label: "log.jsonl", write: { recorder.written += String(decoding: $0, as: UTF8.self) }, now: { recorder.clock })
    recorder.clock = 600_000_000
    line.begin("folding log.jsonl")
    #expect(recorder.written == "\r\u{1B}[Kfolding log.jsonl" + ProgressLine.buildHint)
    recorder.written = ""
    recorder.clock = 650_000_000
    line.update("computing the report", done: 0, total: 40)
    #expect(recorder.written == "\r\u{1B}[Kcomputing the report: 0%" + ProgressLine.buildHint)
    recorder.written = ""
    recorder.clock = 2_650_000_000
    line.update("computing the report", done: 10, total: 40)
    #expect(recorder.written == "\r\u{1B}[Kcomputing the report: 25%, about 6 s left" + ProgressLine.buildHint)
    recorder.written = ""
    recorder.clock = 2_700_000_000
    line.update("computing the report", done: 11, total: 40)
    #expect(recorder.written.isEmpty)
    line.begin("writing the report")
    #expect(recorder.written == "\r\u{1B}[Kwriting the report" + ProgressLine.buildHint)
    recorder.written = ""
    line.finish()
    #expect(recorder.written == "\r\u{1B}[K")
  }

  @Test(
    "report on a terminal shows reading, folding, computing and writing in that order, and prints the same report",
    arguments: ["json", "html"])
  func reportPhases(format: String) {
    final class Box: @unchecked Sendable {
      var out: [UInt8] = []
      var err = ""
    }
    let box = Box()
    let console = Console(out: { box.out.append(contentsOf: $0) }, err: { box.err += String(decoding: $0, as: UTF8.self) })
    console.isErrorTerminal = true
    console.progressDelayNanoseconds = 0
    let log = repoPath("Events/policy/decide-daily.jsonl")
    let arguments = ["report", log, "--from", "2026-01-01", "--to", "2026-04-01", "--format", format]
    let status = StoreLedgerCLI.run(arguments: arguments, console: console)
    #expect(status == 0)
    let plain = runCLI(arguments)
    #expect(String(decoding: box.out, as: UTF8.self) == plain.stdout && plain.stderr.isEmpty)
    let phases = ["reading ", "folding ", "computing the report: 0%", "computing the report: 100%", "writing the report"]
    var rest = Substring(box.err)
    for phase in phases {
      guard let found = rest.range(of: "\r\u{1B}[K" + phase) else {
        Issue.record("no '\(phase)' after the phases before it in \(box.err.debugDescription)")
        return
      }
      rest = rest[found.upperBound...]
    }
    #expect(box.err.hasSuffix("\r\u{1B}[K"))
  }
}
