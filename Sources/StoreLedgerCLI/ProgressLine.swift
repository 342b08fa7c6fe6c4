import StoreLedger

/// A progress line on stderr for long reads: percent of bytes, rate and time left, redrawn in
/// place (`\r`) and cleared at the end. Shown only when stderr is a terminal, so pipes, files
/// and CI logs get nothing; silent for the first half second, so short commands print nothing.
final class ProgressLine {
  /// How long a read runs before the line first appears.
  static let delayNanoseconds: UInt64 = 500_000_000
  /// The least time between two redraws.
  static let intervalNanoseconds: UInt64 = 200_000_000

  private let label: String
  private let write: ([UInt8]) -> Void
  private let now: () -> UInt64
  private let started: UInt64
  private var lastDrawn: UInt64? = nil

  /// A line for reading `label`, written through `write`, timed by `now` (nanoseconds).
  init(label: String, write: @escaping ([UInt8]) -> Void, now: @escaping () -> UInt64 = monotonicNanoseconds) {
    self.label = TerminalText.escaped(label)
    self.write = write
    self.now = now
    started = now()
  }

  /// Redraws the line if it is due: `done` of `total` bytes read.
  func update(done: Int64, total: Int64) {
    let time = now()
    let elapsed = time &- started
    guard elapsed >= Self.delayNanoseconds, total > 0 else { return }
    if let lastDrawn, time &- lastDrawn < Self.intervalNanoseconds { return }
    lastDrawn = time
    let text = Self.text(label: label, done: done, total: total, elapsedNanoseconds: elapsed)
    write(Array(("\r\u{1B}[K" + text + Self.buildHint).utf8))
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

  private static func oneDecimal(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }
}
