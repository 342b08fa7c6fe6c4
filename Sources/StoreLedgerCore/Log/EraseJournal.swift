/// The switch of an erasure from the old set of files to the new one (Docs/erasure.md, "The
/// switch"): every new file is written whole under `TARGET.erase-new` and fsynced; then
/// `LOG.erase` (this journal: which temporary goes over which target, which directories go) is
/// written under a temporary name, fsynced and renamed into place: that rename is the commit.
/// Then each temporary is renamed over its target, the log last, the directory fsynced, the old
/// index removed and the journal removed.
///
/// Before the commit a crash leaves the old set and some temporaries, which recovery removes;
/// after it, recovery finishes the renames. Writers (every command that takes the log's lock)
/// and `repair` recover first, so no append or import ever lands between the two sets. Readers
/// take no lock and read the log by one open file: the log is replaced by `rename`, so a reader
/// holding the old file reads the old log to its end, and one that opens the name later reads
/// the new one; ids kept as spans of a file are spans of the file the reader holds.
package enum EraseJournal {
  /// The format tag.
  static let format = "storeledger-erase/1"
  /// The suffix of an erasure's temporary files.
  package static let temporarySuffix = ".erase-new"
  /// Largest journal read.
  static let bytesMax = 1 << 20

  /// What the journal says to do.
  package struct Plan: Sendable, Equatable {
    /// Temporaries and the targets they replace, in order (the log last).
    package var renames: [(temporary: String, target: String)]
    /// Directories removed with everything in them (the old index).
    package var removals: [String]

    /// Creates a plan.
    package init(renames: [(temporary: String, target: String)], removals: [String]) {
      self.renames = renames
      self.removals = removals
    }

    /// Equal plans do the same.
    package static func == (a: Plan, b: Plan) -> Bool {
      a.removals == b.removals && a.renames.map(\.temporary) == b.renames.map(\.temporary)
        && a.renames.map(\.target) == b.renames.map(\.target)
    }
  }

  /// Where the journal of `log` is.
  package static func path(forLog log: String) -> String { PlatformFile.canonicalPath(log) + ".erase" }

  /// The journal's bytes: one JSON object, then a line with the SHA-256 of that line.
  static func encoded(_ plan: Plan) -> [UInt8] {
    let body = JSONWriter.compact(
      .object([
        ("format", .string(format)),
        ("renames", .array(plan.renames.map { .array([.string($0.temporary), .string($0.target)]) })),
        ("removals", .array(plan.removals.map { .string($0) })),
      ]))
    return Array((body + "\n" + SHA256.hash(Array(body.utf8)).hex + "\n").utf8)
  }

  /// Parses a journal; nil when it is not a complete one.
  static func decode(_ bytes: [UInt8]) -> Plan? {
    let lines = bytes.split(separator: 10)
    guard lines.count == 2, bytes.last == 10, SHA256.hash(lines[0]).hex == String(decoding: lines[1], as: UTF8.self),
      let value = try? JSONValue.parse(bytes: Array(lines[0])), value["format"]?.stringValue == format,
      case .array(let renames)? = value["renames"], case .array(let removals)? = value["removals"]
    else { return nil }
    var plan = Plan(renames: [], removals: [])
    for pair in renames {
      guard case .array(let parts) = pair, parts.count == 2, let temporary = parts[0].stringValue,
        let target = parts[1].stringValue
      else { return nil }
      plan.renames.append((temporary, target))
    }
    for removal in removals {
      guard let directory = removal.stringValue else { return nil }
      plan.removals.append(directory)
    }
    return plan
  }

  /// Commits `plan` for the log at `logPath` (its temporaries written and fsynced), then carries it out.
  /// The caller holds the log's lock.
  package static func commit(_ plan: Plan, logPath: String) throws(Diagnostic) {
    let journal = path(forLog: logPath)
    let temporary = journal + temporarySuffix
    let file = try PlatformFile(path: temporary, mode: .writeTruncate)
    try file.write(encoded(plan))
    try file.sync()
    try PlatformFile.rename(temporary, to: journal)
    try PlatformFile.syncDirectory(of: journal)
    try carryOut(plan, journal: journal)
  }

  /// Renames what is still to be renamed, removes the old directories, then the journal.
  static func carryOut(_ plan: Plan, journal: String) throws(Diagnostic) {
    for (temporary, target) in plan.renames where PlatformFile.entryKind(temporary) == .regular {
      try PlatformFile.rename(temporary, to: target)
      // The old log's append record described the old file, not this one.
      AppendIntent.discardAfterReplacing(target)
    }
    for (_, target) in plan.renames { try PlatformFile.syncDirectory(of: target) }
    for directory in plan.removals { try removeTree(directory) }
    try PlatformFile.remove(journal)
    try PlatformFile.syncDirectory(of: journal)
  }

  /// Finishes or undoes an erasure a crash interrupted; true when it changed a file. The caller
  /// holds the log's lock (a writer, `repair`). A committed journal is carried out; without one,
  /// the temporaries an uncommitted erasure left beside the log are removed.
  /// - Throws: `cannotWrite` (74) when a rename or removal fails; a journal that does not parse.
  @discardableResult
  package static func recover(logPath: String) throws(Diagnostic) -> Bool {
    let journal = path(forLog: logPath)
    if PlatformFile.entryKind(journal) != .missing {
      guard let plan = decode(try LedgerLoader.readFile(journal, limit: bytesMax)) else {
        throw Diagnostic(
          file: journal,
          .importFailed("the erasure journal is damaged; it is written whole and renamed, so the disk lost data: restore from a backup"))
      }
      try carryOut(plan, journal: journal)
      return true
    }
    let canonical = PlatformFile.canonicalPath(logPath)
    let directory = PlatformFile.directory(of: canonical)
    let base = String(canonical.split(separator: "/").last ?? Substring(canonical))
    var removed = false
    for name in PlatformFile.directoryEntries(directory)
    where name.hasPrefix(base + ".") && name.hasSuffix(temporarySuffix) || name == base + temporarySuffix {
      try PlatformFile.remove(directory + "/" + name)
      removed = true
    }
    if removed { try PlatformFile.syncDirectory(of: canonical) }
    return removed
  }

  /// Removes `directory` and the files in it (an index holds no subdirectories); missing is fine.
  static func removeTree(_ directory: String) throws(Diagnostic) {
    guard PlatformFile.entryKind(directory) == .directory else { return }
    for name in PlatformFile.directoryEntries(directory) {
      let entry = directory + "/" + name
      if PlatformFile.entryKind(entry) == .directory { try removeTree(entry) } else { try PlatformFile.remove(entry) }
    }
    PlatformFile.removeEmptyDirectory(directory)
  }
}
