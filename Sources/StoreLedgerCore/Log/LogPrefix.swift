/// The whole lines of a log a reader has read: in which file, up to which byte (after a newline),
/// and the bytes just before that, so a later read can go on from there when the file is still
/// that file and still holds those bytes there (an open store's imports learn only the lines
/// committed since the last one: `LedgerStore+Import.swift`).
///
/// A log only grows at its end; an erasure writes a new file (another identity) and a repair cuts
/// only what was never committed. Anything else (the file replaced, cut, or edited where the
/// read ended) is noticed, and the log is read from its start again.
package struct LogPrefix: Sendable, Equatable {
  /// The file read (nil for an in-memory log).
  package var identity: FileIdentity?
  /// Bytes read: whole lines, so it is 0 or just after a newline.
  package var length: Int64
  /// Up to `checkedBytesMax` bytes ending at `length`.
  package var lastBytes: [UInt8]

  /// How many bytes before the end of a read are compared again before the next read goes on from it.
  package static let checkedBytesMax = 64

  /// Nothing read yet.
  package static func start(of identity: FileIdentity?) -> LogPrefix {
    LogPrefix(identity: identity, length: 0, lastBytes: [])
  }

  /// This prefix extended by `text`, the bytes that follow it, up to `text`'s last newline;
  /// returns the whole lines of `text` too.
  /// - Complexity: O(`text.count`) to find its last newline.
  package func extended(by text: [UInt8]) -> (lines: ArraySlice<UInt8>, prefix: LogPrefix) {
    guard let lastNewline = text.lastIndex(of: 10) else { return (text[0..<0], self) }
    let lines = text[...lastNewline]
    let tail = Array(lines.suffix(Self.checkedBytesMax))
    let kept = tail.count < Self.checkedBytesMax ? Array((lastBytes + tail).suffix(Self.checkedBytesMax)) : tail
    return (lines, LogPrefix(identity: identity, length: length + Int64(lines.count), lastBytes: kept))
  }

  /// Whether `bytes`, read from this prefix's file at `length - lastBytes.count`, are still the
  /// bytes it ended with.
  package func stillEnds(with bytes: [UInt8]) -> Bool { bytes == lastBytes }

  /// The lines of `log` (an in-memory log's whole text) after `known`, or all of them when
  /// `log` no longer starts with what `known` read.
  /// - Complexity: O(bytes after `known`).
  package static func lines(of log: [UInt8], after known: LogPrefix?) -> (lines: ArraySlice<UInt8>, fromStart: Bool, prefix: LogPrefix) {
    if let known, known.identity == nil, known.length <= Int64(log.count),
      known.stillEnds(with: Array(log[Int(known.length) - known.lastBytes.count..<Int(known.length)]))
    {
      let (lines, prefix) = known.extended(by: Array(log[Int(known.length)...]))
      return (lines, known.length == 0, prefix)
    }
    let (lines, prefix) = LogPrefix.start(of: nil).extended(by: log)
    return (lines, true, prefix)
  }
}

extension LedgerLoader {
  /// The committed lines of the log at `path` after `known`, or all of them when `known` is nil
  /// or the file is no longer what `known` read (`LogPrefix`); only what is committed, so a batch
  /// a crashed appender left is not read.
  /// - Complexity: O(bytes committed after `known`), O(log) when read from the start.
  package static func readCommittedLines(
    _ path: String, after known: LogPrefix?
  ) throws(Diagnostic) -> (lines: ArraySlice<UInt8>, fromStart: Bool, prefix: LogPrefix) {
    let file = try PlatformFile(path: path, mode: .read)
    guard file.entryKind() == .regular else {
      throw Diagnostic(file: path, .cannotRead(path: path, reason: "not a regular file (a log is read at offsets)"))
    }
    let committed = try AppendIntent.visibleLength(of: file, logPath: path).length
    let identity = file.identity()
    var start = LogPrefix.start(of: identity)
    if let known, identity != nil, known.identity == identity, known.length <= committed {
      let checked = try file.readBytes(
        count: known.lastBytes.count, at: known.length - Int64(known.lastBytes.count))
      if known.stillEnds(with: checked) { start = known }
    }
    let text = try file.readBytes(count: Int(committed - start.length), at: start.length)
    let (lines, prefix) = start.extended(by: text)
    if LineParses.isCounting { LineParses.noteLogLines(lines.count { $0 == 10 }) }
    return (lines, start.length == 0, prefix)
  }
}
