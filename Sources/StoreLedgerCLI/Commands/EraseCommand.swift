import StoreLedger

/// `storeledger erase LOG --subject S`: erase customers' personal data, keeping every other answer.
enum EraseCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "erase", abstract: "Erase customers' personal data (GDPR Article 17); every other answer stays the same.",
    usage: "erase <log> (--subject <id>... | --subjects-file <file>) [--catalog <file>] [--wait <seconds>]",
    positionals: [("<log>", "The JSON-lines event log.")], requiredPositionals: 1,
    options: [
      .repeatedValue("subject", "id", "A subject to erase; repeat for several."),
      .value("subjects-file", "file", "A file of subjects to erase, one per line."),
      .value("catalog", "FILE", "The catalog to rebuild the index with (default: catalog.json beside the log)."),
      CommandSpec.waitOption,
    ],
    discussion: """
      The one command that rewrites the log (CONTRACT §12). Under the writer lock it writes a
      new log in which each erased subject's lines carry a fresh random pseudonym (never derived
      from the subject), without their meta, with the store tokens that identified them
      (purchase tokens, appAccountToken, obfuscatedExternalAccountId) replaced; the Google Play
      documents kept for those tokens are removed and the kept documents and their record
      rewritten; an index beside the log is removed and rebuilt. The new files replace the old
      ones all at once (a crash leaves the old set or the new one; repair or the next writer
      finishes an interrupted erasure). LOG.erased keeps, per log, keyed digests of what was
      erased, so a later import of the same store data adds nothing, and the audit trail (when,
      how many lines, which pseudonym). Prints what changed and the snapshots beside the log it
      made stale. Every other subject's answers and every report total are unchanged.
      See Docs/erasure.md.
      Example: storeledger erase Events/demo.jsonl --subject u1
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let log = CommandSupport.logPath(arguments)
    var subjects = arguments.values("subject")
    if let file = arguments.value("subjects-file") {
      let bytes = try LedgerLoader.readFile(file, limit: 64 << 20)
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw Diagnostic(file: file, .usage("\(file) is not UTF-8 text: give one subject per line"))
      }
      subjects += text.split(separator: "\n").map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }.filter { !$0.isEmpty }
    }
    guard !subjects.isEmpty else {
      throw UsageError(message: "Missing expected option '--subject <id>' (or '--subjects-file <file>').")
    }
    let report = try LedgerErasure.run(
      logPath: log, subjects: subjects, now: PlatformFile.wallClockNow(), wait: try CommandSupport.lockWait(arguments),
      waitNotice: CommandSupport.waitNotice(console, log: log))
    console.noteCommitted(to: log)
    console.outText(summary(report, log: log))
    if report.indexRemoved { rebuildIndex(arguments, log: log, console: console) }
    return 0
  }

  /// What the erasure changed, in words.
  static func summary(_ report: ErasureReport, log: String) -> String {
    var text = "erased \(Plural.counted(report.pseudonyms.count, "subject")) from \(log): "
      + "\(Plural.counted(report.erasedLines, "line")) now under \(report.pseudonyms.joined(separator: ", ")); "
      + "\(Plural.counted(report.changedLines, "line")) changed, \(Plural.counted(report.tokens, "store token")) replaced, "
      + "\(Plural.counted(report.documentsRemoved, "kept Google Play document")) removed\n"
    if report.indexRemoved { text += "the index beside the log described the old log and was removed\n" }
    if report.staleSnapshots.isEmpty {
      text += "no snapshot beside the log covered a changed line\n"
    } else {
      text += "stale snapshots (they cover changed lines; restoring them is refused; make new ones with 'storeledger snapshot'):\n"
      text += report.staleSnapshots.map { "  \($0)\n" }.joined()
    }
    return text
  }

  /// Builds the index again when a catalog is at hand; says how otherwise. A failure is a
  /// warning: the erasure stands, and no answer depends on the index.
  static func rebuildIndex(_ arguments: ParsedArguments, log: String, console: Console) {
    do {
      let catalog = try LedgerLoader.loadCatalog(path: CommandSupport.catalogPath(arguments, log: log))
      let (summary, _) = try IndexBuild.run(logPath: log, catalog: catalog, rebuild: true)
      console.outText("index rebuilt: \(Plural.counted(summary.segments, "segment")), \(summary.coveredLines) lines\n")
    } catch {
      console.err("warning: the index was not rebuilt (\(error)); run 'storeledger index \(log)'\n")
    }
  }
}
