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
    let readable = ReadableSubject.order(subjects: order, names: names, receivers: ledger.receiversWithoutLines)
    json.raw("{\n  \"catalog\": {\n    \"sha256\": \"\(header.catalogDigest.hex)\"\n  },\n")
    json.raw("  \"format\": \"\(SnapshotHeader.format)\",\n")
    json.raw("  \"log\": {\n    \"block_bytes\": \(header.logBlockBytes),\n    \"bytes\": \(header.bytes),\n")
    json.raw("    \"duplicates_skipped\": \(header.duplicatesSkipped),\n    \"events\": \(header.events),\n")
    json.raw("    \"lines\": \(header.lines),\n    \"tree_xxh64\": \"\(header.logDigest.hex)\"\n  },\n  ")
    // The readable header the seal covers ends where `subjects` begins.
    let headerText = json.out
    var written = 0
    json.raw("\"subjects\": {")
    try inBatches(count: readable.count) { range, batch in
      for n in range {
        batch.raw(n == 0 ? "\n    " : ",\n    ")
        batch.subject(readable[n], named: names, of: ledger)
      }
    } consume: { (bytes) throws(E) in
      json.out.append(contentsOf: bytes)
      if json.out.count >= flushingAt {
        try flush(json.out)
        written += json.out.count
        json.out.removeAll(keepingCapacity: true)
      }
    }
    json.raw(readable.isEmpty ? "}\n}\n" : "\n  }\n}\n")
    let sectionAt = written + json.out.count
    let section = SnapshotSection.encode(ledger, subjectOrder: order, into: &json.out)
    var trailer = SnapshotTrailer(
      headerBytes: headerText.count, sectionAt: sectionAt, sectionBytes: section.count,
      digest: Checksum64(value: 0))
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

  /// Writes `count` subjects in batches on every core, a few batches at a time, and hands each
  /// batch's bytes to `consume` in order, so the output is the same as written on one thread.
  /// - Complexity: O(subjects) calls of `produce`; memory: one round of batches.
  private static func inBatches<E: Error>(
    count total: Int, _ produce: @Sendable (Range<Int>, inout SnapshotJSON) -> Void,
    consume: ([UInt8]) throws(E) -> Void
  ) throws(E) {
    let batches = (total + subjectsPerBatch - 1) / subjectsPerBatch
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
        produce(lower..<min(total, lower + subjectsPerBatch), &shared[k])
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

/// A subject of a snapshot's readable part: one with lines (its symbol's number), or one only a
/// transfer's `to` names (contract v1.3, section 9), listed so its access shows in golden files.
enum ReadableSubject: Sendable {
  case withLines(Int)
  case receiver(String)

  /// `subjects` (sorted by name) merged with `receivers` (sorted likewise), by name's bytes.
  /// - Complexity: O(subjects + receivers).
  static func order(subjects: [Int], names: [String], receivers: [String]) -> [ReadableSubject] {
    guard !receivers.isEmpty else { return subjects.map { .withLines($0) } }
    var merged: [ReadableSubject] = []
    merged.reserveCapacity(subjects.count + receivers.count)
    var (i, j) = (0, 0)
    while i < subjects.count || j < receivers.count {
      if j == receivers.count
        || (i < subjects.count && names[subjects[i]].utf8.lexicographicallyPrecedes(receivers[j].utf8))
      {
        merged.append(.withLines(subjects[i]))
        i += 1
      } else {
        merged.append(.receiver(receivers[j]))
        j += 1
      }
    }
    return merged
  }
}

/// The bytes of a snapshot being written, with the few JSON shapes it is made of.
struct SnapshotJSON {
  /// The bytes so far.
  var out: [UInt8]

  mutating func raw(_ text: String) { out.append(contentsOf: text.utf8) }

  mutating func string(_ text: String) { JSONWriter.writeString(text, into: &out) }

  mutating func time(_ t: Timestamp?) { Self.appendTime(t, to: &out) }

  /// An instant as a JSON value: RFC 3339 in quotes, or null.
  static func appendTime(_ t: Timestamp?, to out: inout [UInt8]) {
    if let t {
      out.append(34)
      t.appendRFC3339(to: &out)
      out.append(34)
    } else {
      out.append(contentsOf: "null".utf8)
    }
  }

  /// Field values of the entry being written and of the one before it, reused entry to entry.
  var entries = (current: EntryFields(), previous: EntryFields())

  /// `"name": {"key": [item, …], …}` with one item per line. Each item's fields are the layout's
  /// keys, in that order, their values written by `fill`; an item after the first of its list
  /// writes only the layout's `always` fields and those whose value differs from the item before
  /// it (`SnapshotDiff.expanded` fills the others back in). The first item leaves out the
  /// layout's `keyField` when its value is the list's key (a subscription's original transaction).
  /// - Complexity: O(bytes written); no allocation per item.
  mutating func section<T>(
    _ layout: TimelineLayout, _ lists: [(String, [T])], last: Bool = false, _ fill: (T, inout EntryFields) -> Void
  ) {
    raw("      \"\(layout.name)\": {")
    for (c, (key, items)) in lists.enumerated() {
      raw(c == 0 ? "\n        " : ",\n        ")
      let keyStart = out.count
      string(key)
      let keyValue = Array(out[keyStart...])
      raw(": [")
      for (k, value) in items.enumerated() {
        raw(k == 0 ? "\n          {" : ",\n          {")
        entries.current.reset()
        fill(value, &entries.current)
        precondition(entries.current.count == layout.labels.count, "timeline entry with a field missing or extra")
        var first = true
        for n in layout.labels.indices {
          let written =
            k == 0
            ? !(n == layout.keyField && entries.current[n].elementsEqual(keyValue))
            : layout.always[n] || !entries.current[n].elementsEqual(entries.previous[n])
          guard written else { continue }
          if !first { raw(", ") }
          out.append(contentsOf: layout.labels[n])
          out.append(contentsOf: entries.current[n])
          first = false
        }
        raw("}")
        swap(&entries.current, &entries.previous)
      }
      raw("\n        ]")
    }
    raw(lists.isEmpty ? "}" : "\n      }")
    raw(last ? "\n" : ",\n")
  }

  /// One subject's readable timeline: balances, entitlement intervals, event count, subscription
  /// changes; interval and change entries after the first of their list hold only what changed.
  mutating func subject(_ entry: ReadableSubject, named names: [String], of ledger: Ledger) {
    let name: String
    let timeline: SubjectTimeline
    let eventCount: Int
    switch entry {
    case .withLines(let number):
      let subject = Symbol(rawValue: UInt32(number))
      (name, timeline, eventCount) = (names[number], ledger.timeline(subject: subject), ledger.events(of: subject).count)
    case .receiver(let receiver):
      guard let owned = ledger.timeline(named: receiver) else { preconditionFailure("a listed receiver has a timeline") }
      (name, timeline, eventCount) = (receiver, owned, 0)
    }
    string(name)
    raw(": {\n")
    section(.balances, timeline.balances) { change, fields in
      fields.time(change.at)
      fields.raw(String(change.balance))
    }
    section(.entitlements, timeline.entitlements) { interval, fields in
      fields.time(interval.from)
      fields.string(interval.ownership)
      fields.string(interval.period)
      fields.string(interval.product)
      fields.string(interval.state)
      fields.time(interval.to)
    }
    raw("      \"events\": \(eventCount),\n")
    section(.subscriptions, timeline.subscriptions, last: true) { change, fields in
      fields.time(change.at)
      fields.time(change.expires)
      fields.string(change.product)
      if let renewsTo = change.renewsTo { fields.string(renewsTo) } else { fields.raw("null") }
      fields.string(change.state)
      fields.string(change.transaction)
      fields.raw(change.willRenew ? "true" : "false")
    }
    raw("    }")
  }
}

/// The shape of a timeline section's entries: their keys in order, which are written in every
/// entry, and which the first entry leaves out when it equals the list's key.
struct TimelineLayout: Sendable {
  /// The section's name in a subject.
  let name: String
  /// `"key": ` for each field, in key order.
  let labels: [[UInt8]]
  /// Per field: written in every entry, changed or not.
  let always: [Bool]
  /// The field the first entry leaves out when its value is the list's key.
  let keyField: Int?

  init(_ name: String, keys: [String], always: Set<String>, keyField: String? = nil) {
    self.name = name
    labels = keys.map { Array("\"\($0)\": ".utf8) }
    self.always = keys.map { always.contains($0) }
    self.keyField = keyField.flatMap { keys.firstIndex(of: $0) }
  }

  /// A currency's balance after each change.
  static let balances = TimelineLayout("balances", keys: ["at", "balance"], always: ["at", "balance"])
  /// An entitlement's intervals.
  static let entitlements = TimelineLayout(
    "entitlements", keys: ["from", "ownership", "period", "product", "state", "to"], always: ["from", "to"])
  /// A subscription's changes, listed under its original transaction.
  static let subscriptions = TimelineLayout(
    "subscriptions", keys: ["at", "expires", "product", "renews_to", "state", "transaction", "will_renew"],
    always: ["at"], keyField: "transaction")
}

/// The JSON values of one timeline entry's fields, back to back, reused from entry to entry.
struct EntryFields {
  private var bytes: [UInt8] = []
  private var ends: [Int] = []

  /// Fields written so far.
  var count: Int { ends.count }

  /// The JSON value of field `n`.
  subscript(n: Int) -> ArraySlice<UInt8> { bytes[(n == 0 ? 0 : ends[n - 1])..<ends[n]] }

  /// Forgets the fields, keeping the storage.
  mutating func reset() {
    bytes.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
  }

  /// An instant (RFC 3339 in quotes) or null.
  mutating func time(_ t: Timestamp?) {
    SnapshotJSON.appendTime(t, to: &bytes)
    ends.append(bytes.count)
  }

  /// A string, quoted and escaped.
  mutating func string(_ text: String) {
    JSONWriter.writeString(text, into: &bytes)
    ends.append(bytes.count)
  }

  /// A value written as is (a number, true, false, null).
  mutating func raw(_ text: String) {
    bytes.append(contentsOf: text.utf8)
    ends.append(bytes.count)
  }
}
