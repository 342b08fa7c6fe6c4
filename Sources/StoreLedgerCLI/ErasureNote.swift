import StoreLedger

/// The erasure record beside a log (`LOG.erased`, Docs/erasure.md) in words: what `check` and
/// the pseudonym's `timeline` say, so an erasure leaves an audit trail without the data.
enum ErasureNote {
  /// `erased: 3 subjects in 2 erasures, the last on 27 Nov 2026 20:00 UTC (their pseudonyms are in
  /// log.jsonl.erased)`;
  /// nil when the log has had no erasure.
  /// - Throws: when the record is damaged (erased customers could come back on an import).
  static func summary(log: String) throws(Diagnostic) -> String? {
    guard log != "-", let registry = try ErasureRegistry.read(log: log), let last = registry.erasures.last else {
      return nil
    }
    // Subjects erased together share their record's time: one erasure.
    let erasures = Set(registry.erasures.map(\.erasedAt)).count
    return "erased: \(Plural.counted(registry.erasures.count, "subject")) in \(Plural.counted(erasures, "erasure")), "
      + "the last on \(AnswerWords.instant(last.erasedAt)) "
      + "(their pseudonyms are in \(TerminalText.escaped(ErasureRegistry.path(log: log))))"
  }

  /// `erased on 27 Nov 2026 20:00 UTC: …` when `subject` is the pseudonym of an erased customer.
  static func pseudonym(_ subject: String, log: String) throws(Diagnostic) -> String? {
    guard log != "-", let registry = try ErasureRegistry.read(log: log),
      let erasure = registry.erasures.last(where: { $0.pseudonym == subject })
    else { return nil }
    return "erased on \(AnswerWords.instant(erasure.erasedAt)): \(Plural.counted(erasure.lines, "line")) rewritten under "
      + "this pseudonym; the customer's id, meta, support notes and store tokens were removed"
  }
}
