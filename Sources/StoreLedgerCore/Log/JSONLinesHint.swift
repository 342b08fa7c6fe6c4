/// What to add to "invalid JSON" when a line looks like JSON that is not JSON Lines.
///
/// A new user's first log is often a pretty-printed event, a JSON array or a file saved with
/// a byte order mark; "expected '{'" alone does not say that the format is one event per line.
enum JSONLinesHint {
  /// The hint for a line whose first non-blank byte (at `i`, before `end`) is not `{`.
  static func atEventStart(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> String {
    guard i < end else { return "" }
    if end - i >= 3 && p[i] == 0xEF && p[i + 1] == 0xBB && p[i + 2] == 0xBF {
      return "; found a UTF-8 byte order mark (BOM): save the file as UTF-8 without a BOM"
    }
    if p[i] == 91 {  // [
      return "; found '[': the log is JSON Lines, one event object per line, not a JSON array"
    }
    if p[i] == 34 || p[i] == 125 || p[i] == 93 {  // " } ]
      return lineEnded
    }
    return ""
  }

  /// The hint for a line that ends inside an event, or holds only part of one.
  static let lineEnded =
    "; the log is JSON Lines: each event is one whole JSON object on one line (not pretty-printed over several)"
}
