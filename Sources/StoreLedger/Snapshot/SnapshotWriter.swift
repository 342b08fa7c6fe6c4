import StoreLedgerCore
import Dispatch

/// Writes the complete folded state of a ledger as a deterministic snapshot.
///
/// Pretty-printed JSON with sorted keys, so `git diff` of two snapshots reads as
/// a list of customers whose history changed: per subject, a readable timeline
/// (entitlement intervals, subscription changes, balance changes). After it, a binary
/// section of fixed-width event records that make restore exact for any (at, as_of),
/// and a one-line trailer. The same ledger always gives the same bytes.
package enum SnapshotWriter {
  /// The snapshot bytes of `ledger` covering the log as described by `header`, in memory.
  ///
  /// Layout: the readable JSON document (keys sorted: `catalog`, `format`, `log`, then `subjects`,
  /// per subject the readable timeline), then the binary restore section (`SnapshotSection`), then
  /// the one-line trailer that locates the section and seals the header, the section and itself
  /// (`SnapshotTrailer`, `SnapshotSeal`).
  /// - Complexity: O(events + timeline size · log(subjects)).
  package static func write(_ ledger: Ledger, header: SnapshotHeader) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(ledger.events.count * 250 + 4096)
    write(ledger, header: header, into: &out, flushingAt: Int.max) { (_: [UInt8]) throws(Never) in }
    return out
  }

  /// Bytes a streaming write collects before it hands them to `flush`.
  package static let chunkBytes = 4 << 20

  /// Writes the snapshot of `ledger` into `out`, handing full runs of bytes to `flush`; the caller
  /// writes what is left in `out` at the end.
  ///
  /// The readable timeline goes to `flush` whenever `out` holds `flushingAt` bytes, so a file
  /// write holds one chunk of it, not the whole snapshot; the restore section and the trailer are
  /// left in `out`. `out` is emptied after each `flush`.
  /// - Complexity: O(events + timeline size · log(subjects)).
  package static func write<E: Error>(
    _ ledger: Ledger, header: SnapshotHeader, into out: inout [UInt8], flushingAt: Int,
    _ flush: ([UInt8]) throws(E) -> Void
  ) throws(E) {
    var json = SnapshotJSON(out: out)
    out = []
    defer { out = json.out }
    let names = (0..<ledger.subjectCount).map { ledger.symbols.subjects.string(Symbol(rawValue: UInt32($0))) }
    let order = names.indices.sorted { names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8) }
    json.raw("{\n  \"catalog\": {\n    \"sha256\": \"\(header.catalogDigest.hex)\"\n  },\n")
    json.raw("  \"format\": \"\(SnapshotHeader.format)\",\n")
    json.raw("  \"log\": {\n    \"block_bytes\": \(header.logBlockBytes),\n    \"bytes\": \(header.bytes),\n")
    json.raw("    \"duplicates_skipped\": \(header.duplicatesSkipped),\n    \"events\": \(header.events),\n")
    json.raw("    \"lines\": \(header.lines),\n    \"tree_sha256\": \"\(header.logDigest.hex)\"\n  },\n  ")
    // The readable header the seal covers ends where `subjects` begins.
    let headerText = json.out
    var written = 0
    json.raw("\"subjects\": {")
    try inBatches(of: order) { range, batch in
      for n in range {
        batch.raw(n == 0 ? "\n    " : ",\n    ")
        batch.subject(Symbol(rawValue: UInt32(order[n])), named: names[order[n]], of: ledger)
      }
    } consume: { (bytes) throws(E) in
      json.out.append(contentsOf: bytes)
      if json.out.count >= flushingAt {
        try flush(json.out)
        written += json.out.count
        json.out.removeAll(keepingCapacity: true)
      }
    }
    json.raw(order.isEmpty ? "}\n}\n" : "\n  }\n}\n")
    let sectionAt = written + json.out.count
    let section = SnapshotSection.encode(ledger, subjectOrder: order, into: &json.out)
    var trailer = SnapshotTrailer(
      headerBytes: headerText.count, sectionAt: sectionAt, sectionBytes: section.count,
      digest: SHA256Digest(bytes: [UInt8](repeating: 0, count: 32)))
    let leaves = json.out.withUnsafeBytes { SnapshotSeal.leaves(of: UnsafeRawBufferPointer(rebasing: $0[section])) }
    trailer.digest = headerText.withUnsafeBytes { header in
      trailer.bytes().withUnsafeBytes { bytes in
        SnapshotSeal.combine(
          header: header, leaves: leaves,
          trailerPrefix: UnsafeRawBufferPointer(rebasing: bytes[0..<SnapshotTrailer.digestOffset]))
      }
    }
    json.out.append(contentsOf: trailer.bytes())
  }

  /// Subjects written per batch: enough work to be worth a thread hop, a megabyte or so of output.
  static let subjectsPerBatch = 512
  /// Batches written at once: keeps a few cores busy, while memory holds one round's output.
  static let batchesPerRound = 8

  /// Writes `order`'s subjects in batches on every core, a few batches at a time, and hands each
  /// batch's bytes to `consume` in order, so the output is the same as written on one thread.
  /// - Complexity: O(subjects) calls of `produce`; memory: one round of batches.
  private static func inBatches<E: Error>(
    of order: [Int], _ produce: @Sendable (Range<Int>, inout SnapshotJSON) -> Void,
    consume: ([UInt8]) throws(E) -> Void
  ) throws(E) {
    let batches = (order.count + subjectsPerBatch - 1) / subjectsPerBatch
    let perRound = batchesPerRound
    var round = 0
    while round < batches {
      let count = min(perRound, batches - round)
      let outputs = UnsafeMutableBufferPointer<SnapshotJSON>.allocate(capacity: count)
      outputs.initialize(repeating: SnapshotJSON(out: []))
      nonisolated(unsafe) let shared = outputs
      let first = round
      DispatchQueue.concurrentPerform(iterations: count) { k in
        let lower = (first + k) * subjectsPerBatch
        produce(lower..<min(order.count, lower + subjectsPerBatch), &shared[k])
      }
      defer {
        outputs.deinitialize()
        outputs.deallocate()
      }
      for k in 0..<count { try consume(outputs[k].out) }
      round += count
    }
  }
}

/// The bytes of a snapshot being written, with the few JSON shapes it is made of.
struct SnapshotJSON {
  /// The bytes so far.
  var out: [UInt8]

  mutating func raw(_ text: String) { out.append(contentsOf: text.utf8) }

  mutating func string(_ text: String) { JSONWriter.writeString(text, into: &out) }

  mutating func time(_ t: Timestamp?) {
    if let t {
      out.append(34)
      t.appendRFC3339(to: &out)
      out.append(34)
    } else {
      raw("null")
    }
  }

  /// `"name": {"key": [item, …], …}` with one item per line. Each item's fields come from
  /// `fields` in key order, the same keys for every item; an item after the first of its list
  /// writes only the fields in `always` and those whose value differs from the item before it
  /// (`SnapshotDiff.expanded` fills the others back in). With `keyField`, the first item leaves
  /// that field out when its value is the list's key (a subscription's original transaction).
  mutating func section<T>(
    _ name: String, _ lists: [(String, [T])], always: Set<String>, keyField: String? = nil, last: Bool = false,
    _ fields: (T) -> [(key: String, value: [UInt8])]
  ) {
    raw("      \"\(name)\": {")
    for (c, (key, items)) in lists.enumerated() {
      raw(c == 0 ? "\n        " : ",\n        ")
      string(key)
      raw(": [")
      var previous: [(key: String, value: [UInt8])] = []
      let keyValue = Self.string(key)
      for (k, value) in items.enumerated() {
        raw(k == 0 ? "\n          {" : ",\n          {")
        let current = fields(value)
        var first = true
        for (n, field) in current.enumerated()
        where previous.isEmpty
          ? !(field.key == keyField && field.value == keyValue)
          : always.contains(field.key) || previous[n].value != field.value
        {
          raw(first ? "\"\(field.key)\": " : ", \"\(field.key)\": ")
          out.append(contentsOf: field.value)
          first = false
        }
        raw("}")
        previous = current
      }
      raw("\n        ]")
    }
    raw(lists.isEmpty ? "}" : "\n      }")
    raw(last ? "\n" : ",\n")
  }

  /// An instant as its JSON value (RFC 3339 in quotes, or null).
  static func time(_ t: Timestamp?) -> [UInt8] {
    var json = SnapshotJSON(out: [])
    json.time(t)
    return json.out
  }

  /// A string as its JSON value.
  static func string(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    JSONWriter.writeString(text, into: &out)
    return out
  }

  /// One subject's readable timeline: balances, entitlement intervals, event count, subscription
  /// changes; interval and change entries after the first of their list hold only what changed.
  mutating func subject(_ subject: Symbol, named name: String, of ledger: Ledger) {
    let timeline = ledger.timeline(subject: subject)
    string(name)
    raw(": {\n")
    section("balances", timeline.balances, always: ["at", "balance"]) { change in
      [("at", Self.time(change.at)), ("balance", Array(String(change.balance).utf8))]
    }
    section("entitlements", timeline.entitlements, always: ["from", "to"]) { interval in
      [
        ("from", Self.time(interval.from)), ("ownership", Self.string(interval.ownership)),
        ("period", Self.string(interval.period)), ("product", Self.string(interval.product)),
        ("state", Self.string(interval.state)), ("to", Self.time(interval.to)),
      ]
    }
    raw("      \"events\": \(ledger.events(of: subject).count),\n")
    section("subscriptions", timeline.subscriptions, always: ["at"], keyField: "transaction", last: true) { change in
      [
        ("at", Self.time(change.at)), ("expires", Self.time(change.expires)), ("product", Self.string(change.product)),
        ("renews_to", change.renewsTo.map(Self.string) ?? Array("null".utf8)), ("state", Self.string(change.state)),
        ("transaction", Self.string(change.transaction)), ("will_renew", Array(String(change.willRenew).utf8)),
      ]
    }
    raw("    }")
  }
}
