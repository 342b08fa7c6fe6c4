import StoreLedger

/// A progress line on stderr for long commands: the read's percent of bytes, rate and time
/// left, then each later phase (`folding LOG`, `computing the report: 42%, about 3 s left`,
/// `writing the report`), redrawn in place (`\r`) and cleared at the end. Shown only when stderr
/// is a terminal, so pipes, files and CI logs get nothing; silent for the first half second,
/// so short commands print nothing.
final class ProgressLine {
  /// How long a command runs before the line first appears.
  static let delayNanoseconds: UInt64 = 500_000_000
  /// The least time between two redraws.
  static let intervalNanoseconds: UInt64 = 200_000_000

  /// The log's name as drawn (escaped for the terminal).
  let label: String
  private let write: ([UInt8]) -> Void
  private let now: () -> UInt64
  private let delay: UInt64
  private let started: UInt64
  private var phaseStarted: UInt64
  private var lastDrawn: UInt64? = nil

  /// A line for reading `label`, written through `write`, timed by `now` (nanoseconds), first
  /// drawn once `delay` has passed.
  init(
    label: String, write: @escaping ([UInt8]) -> Void, now: @escaping () -> UInt64 = monotonicNanoseconds,
    delay: UInt64 = ProgressLine.delayNanoseconds
  ) {
    self.label = TerminalText.escaped(label)
    self.write = write
    self.now = now
    self.delay = delay
    started = now()
    phaseStarted = started
  }

  /// Redraws the line if it is due: `done` of `total` bytes read.
  func update(done: Int64, total: Int64) {
    guard total > 0 else { return }
    draw(isPhaseStart: false) { elapsed in
      Self.text(label: self.label, done: done, total: total, elapsedNanoseconds: elapsed)
    }
  }

  /// Starts a phase after the read that has no count of its own (`folding LOG`, `writing the
  /// report`), drawn at once if the line is due.
  func begin(_ phase: String) {
    phaseStarted = now()
    draw(isPhaseStart: true) { _ in phase }
  }

  /// Redraws a counted phase if it is due: `computing the report: 42%, about 3 s left`.
  func update(_ phase: String, done: Int, total: Int) {
    guard total > 0 else { return }
    if done == 0 { phaseStarted = now() }
    // The start and the end of a phase are always drawn, so every phase shows.
    draw(isPhaseStart: done == 0 || done == total) { _ in
      Self.text(phase: phase, done: done, total: total, elapsedNanoseconds: self.now() &- self.phaseStarted)
    }
  }

  /// Writes `text(elapsed)` once the delay has passed, at most every interval except at a phase's start.
  private func draw(isPhaseStart: Bool, _ text: (_ elapsedNanoseconds: UInt64) -> String) {
    let time = now()
    let elapsed = time &- started
    guard elapsed >= delay else { return }
    if !isPhaseStart, let lastDrawn, time &- lastDrawn < Self.intervalNanoseconds { return }
    lastDrawn = time
    write(Array(("\r\u{1B}[K" + text(elapsed) + Self.buildHint).utf8))
  }

  /// A debug build reads logs about ten times slower: say so where the wait is seen.
  #if DEBUG
    static let buildHint = " (debug build: 'swift run -c release' or the README's install is about 10× faster)"
  #else
    static let buildHint = ""
  #endif

  /// Clears the line if it was drawn.
  func finish() {
    guard lastDrawn != nil else { return }
    write(Array("\r\u{1B}[K".utf8))
    lastDrawn = nil
  }

  /// `reading LOG: 42% of 123.4 MB, 61.2 MB/s, about 2 s left`.
  static func text(label: String, done: Int64, total: Int64, elapsedNanoseconds: UInt64) -> String {
    let seconds = Double(elapsedNanoseconds) / 1e9
    let megabytes = { (bytes: Int64) in Double(bytes) / 1e6 }
    let rate = seconds > 0 ? megabytes(done) / seconds : 0
    let percent = Int(Double(done) * 100 / Double(total))
    var text = "reading \(label): \(percent)% of \(oneDecimal(megabytes(total))) MB, \(oneDecimal(rate)) MB/s"
    if rate > 0 {
      let left = Int((megabytes(total - done) / rate).rounded(.up))
      text += ", about \(left) s left"
    }
    return text
  }

  /// `computing the report: 42%, about 3 s left`.
  static func text(phase: String, done: Int, total: Int, elapsedNanoseconds: UInt64) -> String {
    let percent = done * 100 / total
    var text = "\(phase): \(percent)%"
    if done > 0 && done < total && elapsedNanoseconds > 0 {
      let left = (Double(elapsedNanoseconds) / 1e9 * Double(total - done) / Double(done)).rounded(.up)
      text += ", about \(Int(left)) s left"
    }
    return text
  }

  private static func oneDecimal(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }
}
