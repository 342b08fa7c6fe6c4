/// How the Google Play documents kept beside a log (`LOG.googleplay-documents.jsonl`) differ
/// from what their record (`LOG.googleplay-documents.record`) says they held
/// (Docs/import-googleplay.md, "The record of the kept documents").
package enum GooglePlayDocumentsIssue: Sendable, Equatable {
  /// The file is gone, but the record says it held `recordedBytes` bytes.
  case missing(recordedBytes: Int64)
  /// The file has `bytes` bytes, fewer than the `recordedBytes` the record says it held.
  case shorter(bytes: Int64, recordedBytes: Int64)
  /// The file's first `recordedBytes` bytes are not the ones recorded (their SHA-256 differs).
  case changed(recordedBytes: Int64)
  /// The record was not written for this log: `reason` says how they differ.
  case otherLog(reason: String)
  /// The record is not one this version reads.
  case recordDamaged(reason: String)
  /// The file cannot be read.
  case unreadable(reason: String)
  /// A line that is not a kept document (the diagnostic names the line): `reason` says why.
  case badLine(reason: String)
  /// The file was moved or replaced while an import held the import lock.
  case changedDuringImport
  /// A warning: a file without a record (an earlier version kept it); the next import records it.
  case notRecorded
  /// A warning: an import committed its events but could not update the record.
  case recordNotWritten(reason: String)
  /// A warning: a last line of `bytes` bytes an interrupted import cut short; the next import removes it.
  case tornLastLine(bytes: Int)
  /// A warning: the log holds events of `tokens` purchase tokens, but neither documents nor a
  /// record are kept beside it (both lost, or its events came without `--append`).
  case noneKept(tokens: Int)

  /// Whether the documents can still be imported with (the warnings), or imports must stop.
  package var isError: Bool {
    switch self {
    case .notRecorded, .recordNotWritten, .tornLastLine, .noneKept: return false
    default: return true
    }
  }
}

extension Diagnostic {
  /// The wording of a `googlePlayDocuments` problem: what differs, then how to rebuild the file.
  var googlePlayDocumentsMessage: String {
    guard case .googlePlayDocuments(let issue, let recordPath, let logPath) = problem else {
      preconditionFailure("\(problem) is not worded by googlePlayDocumentsMessage")
    }
    let record = Self.shown(recordPath)
    let log = Self.shown(logPath)
    let rebuild =
      "; imports derive events from every document kept for a purchase, so none runs until the file is rebuilt: "
      + "move it and '\(record)' aside, then import every Google Play document this log was given again, "
      + "in one 'storeledger import googleplay --append \(log)' with the options used before "
      + "(events the log holds are not written again)"
    let differs = "the Google Play documents kept for this log are not what their record '\(record)' says: "
    switch issue {
    case .missing(let recorded):
      return differs + "the file is missing, but it held \(Plural.counted(recorded, "byte"))" + rebuild
    case .shorter(let bytes, let recorded):
      return differs + "the file has \(Plural.counted(bytes, "byte")), but it held \(recorded): it was truncated or replaced"
        + rebuild
    case .changed(let recorded):
      return differs + "the file's first \(Plural.counted(recorded, "byte")) are not the ones it held (SHA-256 differs): "
        + "it was replaced or edited" + rebuild
    case .otherLog(let reason):
      return differs + "the record was not written for this log (\(reason))" + rebuild
    case .recordDamaged(let reason):
      return "the record of the Google Play documents kept for this log, '\(record)', is damaged (\(reason))" + rebuild
    case .unreadable(let reason):
      return "the Google Play documents kept for this log cannot be read (\(reason)); make the file readable, or rebuild it"
        + rebuild
    case .badLine(let reason):
      return "this line is not a kept Google Play document (\(reason))" + rebuild
    case .changedDuringImport:
      return "the file of kept Google Play documents was moved or replaced while this import ran; nothing was written"
        + rebuild
    case .notRecorded:
      return "the Google Play documents kept for this log have no record ('\(record)'), as an earlier version kept them: "
        + "a loss or truncation cannot be told until the next 'storeledger import googleplay --append \(log)' records them"
    case .recordNotWritten(let reason):
      return "the events were committed, but the record of the kept Google Play documents '\(record)' was not updated "
        + "(\(reason)); the next import records them"
    case .tornLastLine(let bytes):
      return "the last line (\(Plural.counted(bytes, "byte"))) was cut short by an interrupted import and holds no document; "
        + "the next import removes it"
    case .noneKept(let tokens):
      return "the log holds events of \(Plural.counted(tokens, "Google Play purchase token")), but no documents are kept "
        + "beside it and there is no record '\(record)': if earlier imports used --append, both files were lost and this "
        + "import decided without their documents (Docs/import-googleplay.md says how to rebuild them); events imported "
        + "with --out and appended, or before documents were kept, leave none"
    }
  }
}
