import StoreLedger

// The write routes: each is one call of the store (an append or an import, all or nothing,
// fsynced before it returns), so a 200 means the lines are in the log and any other status
// means none of them are: the sender's retry delivers it again, and the import is idempotent.

extension LedgerServer {
  /// `POST /v1/events`: JSON lines appended as `storeledger append` appends them.
  /// - Complexity: O(body + events of the subjects involved), plus an fsynced append.
  func appendEvents(_ request: HTTPRequest) throws(RequestFailure) -> HTTPResponse {
    let text = try bodyText(request, expected: "ledger events as JSON lines (Docs/log-format.md)")
    let report: AppendReport
    do throws(DiagnosticList) {
      report = try store.append(lines: text)
    } catch {
      throw .ledger(error)
    }
    metrics.recordAppend(events: report.appended)
    let body = JSONValue.object([
      ("appended", .integer(Int64(report.appended))), ("duplicates", .integer(Int64(report.duplicates))),
      ("stamped", .integer(Int64(report.stamped))), ("learned_earlier", .integer(Int64(report.learnedEarlier))),
      ("warnings", .array(report.warnings.prefix(ErrorResponse.problemsShownMax).map(ErrorResponse.problem))),
    ])
    return .json(JSONWriter.compact(body) + "\n")
  }

  /// `POST /v1/appstore/notifications`: `{"signedPayload": …}` verified and imported as
  /// `storeledger import appstore --append --root …` does.
  func importAppStore(_ request: HTTPRequest) throws(RequestFailure) -> HTTPResponse {
    let text = try bodyText(request, expected: "an App Store Server Notification V2 ({\"signedPayload\": …})")
    do throws(DiagnosticList) {
      return imported(try store.importAppStore(text, options: configuration.importOptions))
    } catch {
      throw .ledger(error)
    }
  }

  /// `POST /v1/googleplay/pubsub`: a Pub/Sub push envelope imported as `storeledger import
  /// googleplay --append` does, after the push token check when `--pubsub-token` is set.
  func importGooglePlay(_ request: HTTPRequest) throws(RequestFailure) -> HTTPResponse {
    if let expected = configuration.pubSubToken {
      try PushToken.check(request, expected: expected)
    }
    let text = try bodyText(request, expected: "a Pub/Sub push envelope ({\"message\": {\"data\": …}, \"subscription\": …})")
    do throws(DiagnosticList) {
      return imported(try store.importGooglePlay(text, options: configuration.importOptions))
    } catch {
      throw .ledger(error)
    }
  }

  /// The body as UTF-8 text, not empty.
  private func bodyText(_ request: HTTPRequest, expected: String) throws(RequestFailure) -> String {
    guard !request.body.isEmpty else { throw .server(.badBody("the body is empty; expected \(expected)")) }
    guard let text = String(validating: request.body, as: UTF8.self) else {
      throw .server(.badBody("the body is not UTF-8 text; expected \(expected)"))
    }
    return text
  }

  /// What an import did, and whose access changed.
  private func imported(_ report: ImportReport) -> HTTPResponse {
    metrics.recordAppend(events: report.append.appended)
    let warnings = report.append.warnings + report.warnings
    let body = JSONValue.object([
      ("appended", .integer(Int64(report.append.appended))), ("duplicates", .integer(Int64(report.append.duplicates))),
      ("events", .integer(Int64(report.events))),
      ("subjects", .array(report.subjects.map { .string($0.rawValue) })),
      ("access_changed", .array(report.accessChanged.map { .string($0.rawValue) })),
      ("skipped", .object(report.skipped.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) })),
      ("warnings", .array(warnings.prefix(ErrorResponse.problemsShownMax).map(ErrorResponse.problem))),
    ])
    return .json(JSONWriter.compact(body) + "\n")
  }
}
