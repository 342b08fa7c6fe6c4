import StoreLedger

/// Every error the server answers, as one JSON object: the first error's stable `code` and
/// `message` (the ledger's own wording, as the CLI prints it), the HTTP `status`, and each
/// problem as `check --format json` prints it.
package enum ErrorResponse {
  /// Problems listed in one body; the rest are counted in `more`.
  static let problemsShownMax = 20

  /// The answer to a request the server refused itself.
  package static func response(_ problem: ServerProblem) -> HTTPResponse {
    let body = JSONValue.object([
      ("status", .integer(Int64(problem.status))), ("code", .string(problem.code.rawValue)),
      ("message", .string(problem.message)), ("problems", .array([])), ("more", .integer(0)),
    ])
    return .json(JSONWriter.compact(body) + "\n", status: problem.status)
  }

  /// The answer to a request the ledger refused: the status of its first error's code.
  /// - Complexity: O(problems shown).
  package static func response(_ list: DiagnosticList) -> HTTPResponse {
    let first = list.diagnostics.first { $0.severity == .error } ?? list.diagnostics.first
    let code = first.map { Self.status(of: $0.code) } ?? 500
    let problems = list.diagnostics.prefix(problemsShownMax).map(problem)
    let body = JSONValue.object([
      ("status", .integer(Int64(code))), ("code", .string(first?.code.rawValue ?? "internal")),
      ("message", .string(first?.message ?? "no diagnostic")), ("problems", .array(Array(problems))),
      ("more", .integer(Int64(max(0, list.diagnostics.count - problemsShownMax)))),
    ])
    return .json(JSONWriter.compact(body) + "\n", status: code)
  }

  /// One diagnostic as `check --format json` prints it.
  static func problem(_ diagnostic: Diagnostic) -> JSONValue {
    .object([
      ("file", diagnostic.file.map { .string($0) } ?? .null),
      ("line", diagnostic.line.map { .integer(Int64($0)) } ?? .null),
      ("column", diagnostic.column.map { .integer(Int64($0)) } ?? .null),
      ("severity", .string(diagnostic.severity.rawValue)), ("code", .string(diagnostic.code.rawValue)),
      ("message", .string(diagnostic.message)),
    ])
  }

  /// The HTTP status of a ledger code (Docs/serve.md, "Errors"): conflicts 409, failed
  /// verification 401/403, a lock held past the wait 503, the server's own files 500, bad input 400.
  package static func status(of code: DiagnosticCode) -> Int {
    switch code {
    case .idConflict, .transactionReused, .overdraw, .balanceLimit, .tooManyEvents: return 409
    case .unsignedPayload: return 401
    case .signatureRejected: return 403
    case .lineTooLong, .tooManyLines: return 413
    case .lockBusy, .tornLineBlocksAppend, .commitsDropped: return 503
    case .noPolicy: return 404
    case .cannotRead, .cannotWrite, .fileNotFound, .logShrank, .foreignIntentRecord, .logHasSeveralNames,
      .googlePlayDocumentsDamaged, .noTrustedRoot, .badRootCertificate, .badCatalog, .snapshotMismatch:
      return 500
    default: return 400
    }
  }
}
