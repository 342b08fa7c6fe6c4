#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command writes: stdout and stderr, or buffers in tests.
///
/// Commands build their whole stdout before writing it (or stream it only after
/// every input was validated), so bad input never leaves partial output.
final class Console {
  private let writeOut: ([UInt8]) -> Void
  private let writeErr: ([UInt8]) -> Void
  /// Reads the next chunk of stdin into the buffer; 0 at its end.
  private let readChunk: (UnsafeMutableRawBufferPointer) -> Int
  /// The value of an environment variable (the process's; tests replace it).
  var environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } }

  /// A console whose stdin is `input()` (tests).
  convenience init(
    out: @escaping ([UInt8]) -> Void, err: @escaping ([UInt8]) -> Void,
    input: @escaping () -> [UInt8] = { [] }
  ) {
    final class Pending: @unchecked Sendable {
      var bytes: [UInt8]? = nil
      var offset = 0
    }
    let pending = Pending()
    self.init(out: out, err: err) { buffer in
      if pending.bytes == nil { pending.bytes = input() }
      let bytes = pending.bytes!
      let n = min(buffer.count, bytes.count - pending.offset)
      bytes.withUnsafeBytes { raw in
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[pending.offset..<(pending.offset + n)]))
      }
      pending.offset += n
      return n
    }
  }

  init(
    out: @escaping ([UInt8]) -> Void, err: @escaping ([UInt8]) -> Void,
    readChunk: @escaping (UnsafeMutableRawBufferPointer) -> Int
  ) {
    writeOut = out
    writeErr = err
    self.readChunk = readChunk
  }

  /// Streams stdin by whole lines as they arrive (`LedgerLoader.streamLines`).
  func streamInput(name: String, lineBytesMax: Int, body: (_ lines: [UInt8], _ firstLine: Int) throws -> Void) throws {
    try LedgerLoader.streamLines(
      name: name, lineBytesMax: lineBytesMax,
      read: { (buffer) throws(Diagnostic) in
        let n = readChunk(buffer)
        guard n >= 0 else { throw Diagnostic(.cannotRead(path: name, reason: String(cString: strerror(errno)))) }
        return n
      }, body: body)
  }

  /// What one read of stdin gives (0 at its end), for logs streamed from stdin.
  func readSome(into buffer: UnsafeMutableRawBufferPointer, name: String = "<stdin>") throws(Diagnostic) -> Int {
    let n = readChunk(buffer)
    guard n >= 0 else { throw Diagnostic(.cannotRead(path: name, reason: String(cString: strerror(errno)))) }
    return n
  }

  /// Reads stdin whole as a log or catalog (`check -`, `--catalog -`): an endless line stops it.
  func readInput() throws(Diagnostic) -> [UInt8] {
    try readInput(name: "<stdin>", limits: .log)
  }

  /// Reads stdin whole, stopping with an error (naming `name`) as soon as it passes `limits`.
  func readInput(name: String, limits: InputLimits) throws(Diagnostic) -> [UInt8] {
    try LedgerLoader.readBounded(name: name, limits: limits) { (buffer) throws(Diagnostic) in
      let n = readChunk(buffer)
      guard n >= 0 else { throw Diagnostic(.cannotRead(path: name, reason: String(cString: strerror(errno)))) }
      return n
    }
  }

  /// Whether stderr is a terminal (progress lines are drawn only then).
  var isErrorTerminal = false

  /// How long a command runs before its progress line appears (tests set 0).
  var progressDelayNanoseconds = ProgressLine.delayNanoseconds

  /// A progress callback for reading `label`, or nil when stderr is not a terminal.
  func progress(reading label: String) -> ProgressLine? {
    isErrorTerminal ? ProgressLine(label: label, write: writeErr, delay: progressDelayNanoseconds) : nil
  }

  /// The first failed write to stdout (a full disk, /dev/full, a closed descriptor), if any.
  private(set) var outputFailure: String? = nil

  /// The process's real streams; a failed stdout write is remembered and stops later output.
  static func standard() -> Console {
    final class Failure: @unchecked Sendable { var reason: String? = nil }
    let failure = Failure()
    var console: Console? = nil
    let made = Console(
      out: { bytes in
        guard failure.reason == nil else { return }
        failure.reason = writeAll(1, bytes)
        if let reason = failure.reason { console?.outputFailure = reason }
      },
      err: { bytes in _ = writeAll(2, bytes) },
      readChunk: { buffer in
        while true {
          let n = read(0, buffer.baseAddress, buffer.count)
          if n < 0 && errno == EINTR { continue }
          return n
        }
      })
    console = made
    made.isErrorTerminal = isatty(2) == 1
    return made
  }

  func out(_ text: String) { writeOut(Array(text.utf8)) }
  func outBytes(_ bytes: [UInt8]) { writeOut(bytes) }
  /// Writes text meant for people on stdout (sentences, tables, summaries; not JSON, CSV or
  /// HTML), its control characters but newlines escaped (`TerminalText`).
  func outText(_ text: String) { writeOut(Array(TerminalText.escaped(text, keepingNewlines: true).utf8)) }
  /// Writes to stderr; control characters but newlines are escaped, whatever the text holds.
  func err(_ text: String) { writeErr(Array(TerminalText.escaped(text, keepingNewlines: true).utf8)) }

  /// The exit status once the command is done: 74 when stdout could not be written, so a
  /// truncated answer file is never mistaken for a complete one.
  func finish(status: Int32) -> Int32 {
    guard let outputFailure else { return status }
    if let committedLog, status == 0 {
      // 74 would say the old log is in place; it is not: the batch is durable.
      err("warning: cannot write standard output: \(outputFailure); the batch was committed to \(committedLog)\n")
      return 0
    }
    err("error: cannot write standard output: \(outputFailure)\n")
    return status == 0 || status == 1 ? 74 : status
  }

  /// The log a command committed a batch to, once it has: a later stdout failure is then a warning.
  private(set) var committedLog: String? = nil

  /// Notes that a batch is durable in `log`, whatever happens to stdout afterwards.
  func noteCommitted(to log: String) { committedLog = log }

  func flush() {}
}

/// Writes every byte to a file descriptor, retrying short writes (stdout may be a pipe);
/// returns why it failed, or nil.
private func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> String? {
  bytes.withUnsafeBytes { raw -> String? in
    var done = 0
    while done < raw.count {
      let n = write(descriptor, raw.baseAddress! + done, raw.count - done)
      if n < 0 {
        if errno == EINTR { continue }
        return String(cString: strerror(errno))
      }
      done += n
    }
    return nil
  }
}

/// The wall clock (folds and answers take time as a value; see Docs/decisions.md).
func currentTimestamp() -> Timestamp { PlatformFile.wallClockNow() }

/// A monotonic clock in nanoseconds, for elapsed times.
func monotonicNanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

import StoreLedger
