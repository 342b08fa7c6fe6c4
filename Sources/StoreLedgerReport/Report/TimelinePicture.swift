import StoreLedgerCore

/// Text boxes already drawn on a picture, so that no label is drawn over another.
///
/// Widths are estimated from the character count at the picture's 11 px font (`charWidth` is a
/// little wider than Helvetica's average, so estimates err on the side of room).
struct LabelBoxes {
  /// Estimated width of one character of an 11 px label.
  static let charWidth = 6.4
  /// Height of a label's box: from its baseline up 9 px and down 3 px.
  static let ascent = 9.0
  static let descent = 3.0

  /// The boxes drawn: (left, top, right, bottom).
  private(set) var boxes: [(left: Double, top: Double, right: Double, bottom: Double)] = []

  /// The box a label would take, its baseline at `y`, starting at `x` (or centred, or ending there).
  static func box(_ text: String, x: Double, y: Double, anchor: String = "start") -> (
    left: Double, top: Double, right: Double, bottom: Double
  ) {
    let width = Double(text.count) * charWidth
    let left = anchor == "middle" ? x - width / 2 : anchor == "end" ? x - width : x
    return (left, y - ascent, left + width, y + descent)
  }

  /// `text`, or its start and end around `…` when it is wider than `width` pixels: a long id
  /// (a Google Play purchase token) keeps both ends, which tell ids apart.
  /// - Complexity: O(n) in the text's length.
  static func clipped(_ text: String, toWidth width: Double) -> String {
    let fitting = Int(width / charWidth)
    guard text.count > fitting else { return text }
    guard fitting > 2 else { return "…" }
    let kept = fitting - 1
    return String(text.prefix(kept - kept / 2)) + "…" + String(text.suffix(kept / 2))
  }

  /// Whether a label there would overlap one already drawn.
  func collides(_ text: String, x: Double, y: Double, anchor: String = "start") -> Bool {
    let b = Self.box(text, x: x, y: y, anchor: anchor)
    return boxes.contains { b.left < $0.right && $0.left < b.right && b.top < $0.bottom && $0.top < b.bottom }
  }

  /// Records a label drawn there.
  mutating func add(_ text: String, x: Double, y: Double, anchor: String = "start") {
    boxes.append(Self.box(text, x: x, y: y, anchor: anchor))
  }
}

/// Rows of labels under a band of markers: each label takes the first row where it overlaps
/// nothing, and rows are added as needed, so every label is drawn and none covers another.
struct LabelRows {
  /// Where each row is free from (its last label's right edge plus a gap).
  private(set) var ends: [Double] = []
  /// Rows there may be at most; past them a label is not drawn (its marker and tooltip stay).
  let rowsMax: Int

  /// The row for a label spanning `left..<right`, or nil when every allowed row is taken there.
  mutating func place(left: Double, right: Double) -> Int? {
    if let free = ends.firstIndex(where: { $0 <= left }) {
      ends[free] = right + 6
      return free
    }
    guard ends.count < rowsMax else { return nil }
    ends.append(right + 6)
    return ends.count - 1
  }
}

/// How long a span the usage lane's bars each cover, so that bars stay at least a few pixels wide.
enum UsageBucket: String, Sendable {
  case day, week, month

  /// The coarsest needed for `days` days over `width` pixels (a bar of at least 4 px).
  static func fitting(days: Int64, width: Double) -> UsageBucket {
    let bars = width / 4
    if Double(days) <= bars { return .day }
    if Double(days) / 7 <= bars { return .week }
    return .month
  }
}

/// How the picture draws the delay between an event taking effect and the ledger learning of it.
///
/// A delay is drawn to the time axis' scale (a dashed line to a diamond at the moment the ledger
/// learned it) only when it is long enough to see on that axis; a shorter one is a label alone
/// (`renewal learned 3 hours late`), because a line of a pixel or two would say nothing but hide
/// the marker under the diamond. A delay under a minute is routine delivery, not lateness
/// (`EventWords.lateness`), and is not drawn at all.
enum DelayDrawing: String, Sendable, Equatable {
  /// A dashed line from the marker to a diamond where the ledger learned of the event.
  case toScale
  /// A label under the marker, no line.
  case words

  /// The shortest delay drawn to scale, in pixels of the axis: the diamond's width, so a delay
  /// drawn to scale always shows its line beside the marker rather than under the diamond.
  static let scaledMinPx = 12.0

  /// How a delay spanning `pixels` of the axis is drawn.
  static func of(pixels: Double) -> DelayDrawing {
    pixels >= scaledMinPx ? .toScale : .words
  }
}

extension CustomerTimeline.Marker {
  /// How late the ledger learned of it, in words (`3 hours late`); nil when on time or under a
  /// minute late, which the picture draws as on time.
  var lateness: String? { EventWords.lateness(at: at, recorded: recorded) }
}
