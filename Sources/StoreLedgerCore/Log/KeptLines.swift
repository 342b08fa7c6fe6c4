/// Lines a load hands over as it admits them: the text of each line holding one of `markers`,
/// for a caller that needs more of a line than its typed event keeps (an importer's look-up
/// of what the log knows reads `meta`, which a ledger keeps only as a hash).
///
/// It rides on the one read of the log (`PipelinedLogReader` fills it block by block), so a
/// caller that wants both a ledger and some lines' text never reads the file twice.
package struct KeptLines: Sendable {
  /// A line is kept when it holds one of these byte strings.
  package let markers: [[UInt8]]
  /// The kept lines' text (without the newline), in log order.
  package private(set) var lines: [[UInt8]] = []

  /// Keeps the lines that hold one of `markers`.
  package init(markers: [String]) {
    self.markers = markers.map { Array($0.utf8) }
  }

  /// Keeps `line` when it holds a marker.
  /// - Complexity: O(line length · markers).
  mutating func consider(_ line: UnsafeBufferPointer<UInt8>) {
    for marker in markers where Self.contains(marker, in: line) {
      lines.append(Array(line))
      return
    }
  }

  /// Whether `pattern` occurs in `bytes`.
  /// - Complexity: O(bytes.count · pattern.count).
  static func contains(_ pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    ByteScan.firstOccurrence(of: pattern, in: bytes, from: 0, end: bytes.count) != nil
  }
}
