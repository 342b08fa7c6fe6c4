import Testing

@testable import StoreLedgerCLI

@Suite("A progress line for long reads, on a terminal only")
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
}
