/// Writes the complete folded state of a ledger as a deterministic snapshot.
///
/// Pretty-printed JSON with sorted keys, so `git diff` of two snapshots reads as
/// a list of customers whose history changed: per subject, a readable timeline
/// (entitlement intervals, subscription changes, balance changes) and the compact
/// event records that make restore exact for any (at, as_of). The same ledger
/// always gives the same bytes.
package enum SnapshotWriter {
  /// Width reserved for the `restore_bytes` number, so it can be filled in after the fact.
  static let restoreBytesWidth = 20

  /// The snapshot bytes of `ledger` covering the log as described by `header`, in memory.
  ///
  /// Layout (keys sorted): `catalog`, `format`, `log`, `restore_bytes`, `restore_sha256` (the digest of
  /// everything restoring reads, `SnapshotSeal`), `restore_strings_at`, `state` (per subject,
  /// the event records as base64), `strings`, then `subjects` (per subject, the readable
  /// timeline). `restore_bytes` is where `subjects` begins: restoring reads only that prefix.
  /// - Complexity: O(events + timeline size · log(subjects)).
  package static func write(_ ledger: Ledger, header: SnapshotHeader) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(ledger.events.count * 200 + 4096)
    write(ledger, header: header, into: &out, flushingAt: Int.max) { (_: [UInt8]) throws(Never) in }
    return out
  }

  /// Bytes a streaming write collects before it hands them to `flush`.
  package static let chunkBytes = 4 << 20

  /// Writes the snapshot of `ledger` into `out`, handing full runs of bytes to `flush`; the caller
  /// writes what is left in `out` at the end.
  ///
  /// The restore prefix (header, `state`, `strings`) is built whole in `out`, because its digest and
  /// sizes are filled in when it is complete; the readable `subjects` timeline after it, the larger
  /// part, goes to `flush` whenever `out` holds `flushingAt` bytes, so a file write holds one chunk
  /// of it, not the whole snapshot. `out` is emptied after each `flush`.
  /// - Complexity: O(events + timeline size · log(subjects)).
  package static func write<E: Error>(
    _ ledger: Ledger, header: SnapshotHeader, into out: inout [UInt8], flushingAt: Int,
    _ flush: ([UInt8]) throws(E) -> Void
  ) throws(E) {
    func raw(_ text: String) { out.append(contentsOf: text.utf8) }
    func string(_ text: String) { JSONWriter.writeString(text, into: &out) }
    func time(_ t: Timestamp?) {
      if let t {
        out.append(34)
        t.appendRFC3339(to: &out)
        out.append(34)
      } else {
        raw("null")
      }
    }
    func strings(_ table: SymbolTable, indent: String) {
      if table.count == 0 {
        raw("[]")
        return
      }
      raw("[")
      for index in 0..<table.count {
        raw(index == 0 ? "\n" : ",\n")
        raw(indent + "  ")
        table.withBytes(Symbol(rawValue: UInt32(index))) { bytes in
          if bytes.allSatisfy({ $0 >= 0x20 && $0 != 34 && $0 != 92 }) {
            out.append(34)
            out.append(contentsOf: bytes)
            out.append(34)
          } else {
            string(String(decoding: bytes, as: UTF8.self))
          }
        }
      }
      raw("\n" + indent + "]")
    }
    let names = (0..<ledger.subjectCount).map { ledger.symbols.subjects.string(Symbol(rawValue: UInt32($0))) }
    let order = names.indices.sorted { names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8) }

    raw("{\n  \"catalog\": {\n    \"sha256\": \"\(header.catalogDigest.hex)\"\n  },\n")
    raw("  \"format\": \"\(SnapshotHeader.format)\",\n")
    raw("  \"log\": {\n    \"bytes\": \(header.bytes),\n    \"duplicates_skipped\": \(header.duplicatesSkipped),\n")
    raw("    \"events\": \(header.events),\n    \"lines\": \(header.lines),\n    \"sha256\": \"\(header.logDigest.hex)\"\n  },\n")
    raw("  \"restore_bytes\": ")
    let restoreBytesAt = out.count
    raw(String(repeating: " ", count: restoreBytesWidth) + ",\n")
    raw("  \"restore_sha256\": \"")
    let digestAt = out.count
    raw(String(repeating: "0", count: SnapshotSeal.hexDigits) + "\",\n")
    raw("  \"restore_strings_at\": ")
    let stringsAtAt = out.count
    raw(String(repeating: " ", count: restoreBytesWidth) + ",\n")
    raw("  \"state\": {")
    var records: [UInt8] = []
    for (n, s) in order.enumerated() {
      raw(n == 0 ? "\n    " : ",\n    ")
      string(names[s])
      raw(": \"")
      records.removeAll(keepingCapacity: true)
      RecordCoding.encode(ledger.events(of: Symbol(rawValue: UInt32(s))), into: &records)
      Base64.encode(records, into: &out)
      raw("\"")
    }
    raw(order.isEmpty ? "},\n" : "\n  },\n")
    // Where `strings` begins, so a restore can parse it on another thread without searching.
    let stringsAt = Array(String(out.count).utf8)
    for (k, byte) in stringsAt.enumerated() { out[stringsAtAt + k] = byte }
    raw("  \"strings\": {\n    \"currencies\": ")
    strings(ledger.symbols.currencies, indent: "    ")
    raw(",\n    \"ids\": ")
    strings(ledger.symbols.ids, indent: "    ")
    raw(",\n    \"transactions\": ")
    strings(ledger.symbols.transactions, indent: "    ")
    raw("\n  },\n  ")
    let restoreBytes = Array(String(out.count).utf8)
    precondition(restoreBytes.count <= restoreBytesWidth, "snapshot prefix too large")
    for (k, byte) in restoreBytes.enumerated() { out[restoreBytesAt + k] = byte }
    SnapshotSeal.seal(&out, restoreBytes: out.count, digestAt: digestAt)
    if out.count >= flushingAt {
      try flush(out)
      // Not `removeAll(keepingCapacity:)`: the prefix made `out` much larger than a chunk.
      out = []
    }
    raw("\"subjects\": {")
    for (n, s) in order.enumerated() {
      let subject = Symbol(rawValue: UInt32(s))
      let timeline = ledger.timeline(subject: subject)
      raw(n == 0 ? "\n    " : ",\n    ")
      string(names[s])
      raw(": {\n")
      /// `"name": {"key": [item, …], …}` with one item per line.
      func section<T>(_ name: String, _ lists: [(String, [T])], last: Bool = false, _ item: (T) -> Void) {
        raw("      \"\(name)\": {")
        for (c, (key, items)) in lists.enumerated() {
          raw(c == 0 ? "\n        " : ",\n        ")
          string(key)
          raw(": [")
          for (k, value) in items.enumerated() {
            raw(k == 0 ? "\n          {" : ",\n          {")
            item(value)
            raw("}")
          }
          raw("\n        ]")
        }
        raw(lists.isEmpty ? "}" : "\n      }")
        raw(last ? "\n" : ",\n")
      }
      section("balances", timeline.balances) { change in
        raw("\"at\": ")
        time(change.at)
        raw(", \"balance\": \(change.balance)")
      }
      section("entitlements", timeline.entitlements) { interval in
        raw("\"from\": ")
        time(interval.from)
        raw(", \"ownership\": ")
        string(interval.ownership)
        raw(", \"period\": ")
        string(interval.period)
        raw(", \"product\": ")
        string(interval.product)
        raw(", \"state\": ")
        string(interval.state)
        raw(", \"to\": ")
        time(interval.to)
      }
      raw("      \"events\": \(ledger.events(of: subject).count),\n")
      section("subscriptions", timeline.subscriptions, last: true) { change in
        raw("\"at\": ")
        time(change.at)
        raw(", \"expires\": ")
        time(change.expires)
        raw(", \"product\": ")
        string(change.product)
        raw(", \"renews_to\": ")
        if let renewsTo = change.renewsTo { string(renewsTo) } else { raw("null") }
        raw(", \"state\": ")
        string(change.state)
        raw(", \"transaction\": ")
        string(change.transaction)
        raw(", \"will_renew\": \(change.willRenew)")
      }
      raw("    }")
      if out.count >= flushingAt {
        try flush(out)
        out.removeAll(keepingCapacity: true)
      }
    }
    raw(order.isEmpty ? "}\n}\n" : "\n  }\n}\n")
  }
}
