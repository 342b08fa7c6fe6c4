/// Text from logs, catalogs, snapshots and store payloads made safe to show on a terminal.
///
/// A value printed as it is can act on the terminal instead of showing: ESC starts escape
/// sequences (clear the screen, set the window title), CR and LF print fake lines, BEL rings,
/// bidirectional controls reorder what follows. Every text meant for people (diagnostics on
/// stderr, `query --format text`, `timeline`, summaries) passes values through here; JSON
/// output escapes on its own (Docs/decisions.md, "Text for terminals").
package enum TerminalText {
  /// The most UTF-8 bytes of one value a message shows; the rest is replaced by `…` and the
  /// value's full length (a 10 MB id gives a short line, not 10 MB of stderr).
  package static let valueBytesMax = 200

  /// Whether a scalar acts on a terminal or on the reading order instead of showing as a
  /// character: C0 controls (tab and newline included), DEL, C1 controls, the line and
  /// paragraph separators U+2028 and U+2029, and the bidirectional marks, embeddings,
  /// overrides and isolates (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).
  @inline(__always)
  package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }

  /// `text` with every control character written as JSON writes it, `\u001b` (four lowercase
  /// hex digits); `keepingNewlines` leaves `\n` alone (for whole lines of output). A backslash
  /// stays as it is.
  /// - Complexity: O(length of `text`).
  package static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
    func acts(_ scalar: Unicode.Scalar) -> Bool { isControl(scalar) && !(keepingNewlines && scalar == "\n") }
    guard text.unicodeScalars.contains(where: acts) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if acts(scalar) { out.append(contentsOf: escape(scalar).unicodeScalars) } else { out.append(scalar) }
    }
    return String(out)
  }

  /// A value for a message: `escaped`, and when that is longer than `bytesMax` UTF-8 bytes, its
  /// first part (whole characters, at most `bytesMax` bytes), `…` and the value's length in bytes.
  /// - Complexity: O(min(length of `text`, `bytesMax`)) when `text` is clipped, else O(length).
  package static func clipped(_ text: String, bytesMax: Int = valueBytesMax) -> String {
    if text.utf8.count <= bytesMax, !text.unicodeScalars.contains(where: isControl) { return text }
    var out = String.UnicodeScalarView()
    var outBytes = 0
    for scalar in text.unicodeScalars {
      let shown = isControl(scalar) ? escape(scalar) : String(scalar)
      guard outBytes + shown.utf8.count <= bytesMax else {
        return String(out) + "…(\(Plural.counted(text.utf8.count, "byte")))"
      }
      out.append(contentsOf: shown.unicodeScalars)
      outBytes += shown.utf8.count
    }
    return String(out)
  }

  /// `\u001b` for ESC: the JSON form of one scalar below U+10000.
  private static func escape(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16)
    return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }
}
