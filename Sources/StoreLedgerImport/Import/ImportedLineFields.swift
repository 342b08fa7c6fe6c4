import StoreLedgerCore

/// The fields `LedgerKnowledge` needs from one imported log line, read without building a
/// JSON value: importers write compact lines with sorted keys and flat string values, so a
/// byte scan finds each member; a line it cannot read that way (escapes, another layout) is
/// parsed as JSON instead.
struct ImportedLineFields: Equatable {
  /// `id`.
  var id: String
  /// `type`.
  var type: String?
  /// `subject`.
  var subject: String?
  /// `transaction`.
  var transaction: String?
  /// `original_transaction`.
  var originalTransaction: String?
  /// `at`, as written.
  var at: String?
  /// `expires`, as written.
  var expires: String?
  /// `meta.source`.
  var source: String?
  /// `meta.purchaseToken`.
  var purchaseToken: String?
  /// `meta.addOnProduct`.
  var addOnProduct: String?
  /// The line as compact JSON with sorted keys, without `recorded`.
  var content: String
  /// `recorded`, when the line has one.
  var recorded: String? = nil
  /// `to`, the receiving subject of a `transfer`.
  var to: String? = nil

  /// The fields of `line` (no trailing newline); nil when it is not a JSON object with an id.
  /// - Complexity: O(n) in the line's length.
  static func read(_ line: ArraySlice<UInt8>) -> ImportedLineFields? {
    line.withUnsafeBufferPointer { bytes in scan(bytes) } ?? parsed(Array(line))
  }

  /// The byte scan; nil when the line needs the JSON parser.
  /// - Complexity: O(n) in the line's length.
  static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> ImportedLineFields? {
    guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}"),
      !bytes.contains(UInt8(ascii: "\\"))
    else { return nil }
    // The meta object's span (no nested objects are written inside it by importers).
    let metaStart = find(Array(#""meta":{"#.utf8), in: bytes, from: 0, to: bytes.count)
    var metaEnd = metaStart ?? bytes.count
    if let metaStart {
      guard let close = bytes[metaStart...].firstIndex(of: UInt8(ascii: "}")) else { return nil }
      metaEnd = close
      if bytes[(metaStart + 8)..<close].contains(UInt8(ascii: "{")) { return nil }
    }
    func value(_ key: String, inMeta: Bool) -> String? {
      let pattern = Array(("\"" + key + "\":\"").utf8)
      var from = inMeta ? (metaStart ?? bytes.count) : 0
      let to = inMeta ? metaEnd : bytes.count
      while let hit = find(pattern, in: bytes, from: from, to: to) {
        let insideMeta = metaStart.map { hit > $0 && hit < metaEnd } ?? false
        let before = bytes[hit - 1]
        if insideMeta == inMeta && (before == UInt8(ascii: "{") || before == UInt8(ascii: ",")) {
          let start = hit + pattern.count
          guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
          return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        from = hit + 1
      }
      return nil
    }
    guard let id = value("id", inMeta: false) else { return nil }
    // Without `recorded`: drop its member (outside meta) from the compact line.
    var content = Array(bytes)
    let recorded = Array(#""recorded":""#.utf8)
    var from = 0
    while let hit = find(recorded, in: bytes, from: from, to: bytes.count) {
      if metaStart.map({ hit > $0 && hit < metaEnd }) == true {
        from = hit + 1
        continue
      }
      guard let end = bytes[(hit + recorded.count)...].firstIndex(of: UInt8(ascii: "\"")) else {
        return nil
      }
      let comma = bytes[hit - 1] == UInt8(ascii: ",")
      let trailing = !comma && bytes[end + 1] == UInt8(ascii: ",")
      content.removeSubrange((comma ? hit - 1 : hit)...(trailing ? end + 1 : end))
      break
    }
    return ImportedLineFields(
      id: id, type: value("type", inMeta: false), subject: value("subject", inMeta: false),
      transaction: value("transaction", inMeta: false),
      originalTransaction: value("original_transaction", inMeta: false),
      at: value("at", inMeta: false), expires: value("expires", inMeta: false),
      source: value("source", inMeta: true), purchaseToken: value("purchaseToken", inMeta: true),
      addOnProduct: value("addOnProduct", inMeta: true),
      content: String(decoding: content, as: UTF8.self), recorded: value("recorded", inMeta: false),
      to: value("to", inMeta: false))
  }

  /// The JSON parser's reading of a line the scan does not take.
  /// - Complexity: O(n) in the line's length.
  static func parsed(_ line: [UInt8]) -> ImportedLineFields? {
    guard case .object(let members)? = try? JSONValue.parse(bytes: line) else { return nil }
    let event = JSONValue.object(members)
    guard let id = event["id"]?.stringValue else { return nil }
    let meta = event["meta"]
    return ImportedLineFields(
      id: id, type: event["type"]?.stringValue, subject: event["subject"]?.stringValue,
      transaction: event["transaction"]?.stringValue,
      originalTransaction: event["original_transaction"]?.stringValue,
      at: event["at"]?.stringValue, expires: event["expires"]?.stringValue,
      source: meta?["source"]?.stringValue, purchaseToken: meta?["purchaseToken"]?.stringValue,
      addOnProduct: meta?["addOnProduct"]?.stringValue,
      content: JSONWriter.compact(.object(members.filter { $0.0 != "recorded" })),
      recorded: event["recorded"]?.stringValue, to: event["to"]?.stringValue)
  }

  /// The first offset of `pattern` in `bytes[from..<to]` (`ByteScan.firstOccurrence`).
  /// - Complexity: O((to - from) · pattern.count).
  static func find(_ pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
    ByteScan.firstOccurrence(of: pattern, in: bytes, from: from, end: to)
  }
}
