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
  let readInput: () -> [UInt8]

  init(
    out: @escaping ([UInt8]) -> Void, err: @escaping ([UInt8]) -> Void,
    input: @escaping () -> [UInt8] = { [] }
  ) {
    writeOut = out
    writeErr = err
    readInput = input
  }

  /// The process's real streams.
  static func standard() -> Console {
    Console(
      out: { bytes in writeAll(1, bytes) },
      err: { bytes in writeAll(2, bytes) },
      input: {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
          let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
          if n <= 0 { break }
          data.append(contentsOf: chunk[0..<n])
        }
        return data
      })
  }

  func out(_ text: String) { writeOut(Array(text.utf8)) }
  func outBytes(_ bytes: [UInt8]) { writeOut(bytes) }
  func err(_ text: String) { writeErr(Array(text.utf8)) }

  func flush() {}
}

/// Writes every byte to a file descriptor, retrying short writes (stdout may be a pipe).
private func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
  bytes.withUnsafeBytes { raw in
    var done = 0
    while done < raw.count {
      let n = write(descriptor, raw.baseAddress! + done, raw.count - done)
      if n < 0 {
        if errno == EINTR { continue }
        return
      }
      done += n
    }
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
