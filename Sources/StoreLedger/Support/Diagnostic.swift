/// What went wrong, as a typed value; `Diagnostic.message` is the one place that words it.
package enum Problem: Sendable, Equatable {
  // Invalid JSON and fields of a log line.
  case invalidJSON(String)
  case unknownField(String)
  case duplicateField(String)
  case missingField(field: String, type: String)
  case fieldNotAllowed(field: String, type: String, why: String)
  case invalidValue(field: String, expected: String, found: String)
  case missingUTCOffset(field: String, found: String)
  case unknownEventType(String)
  case unknownProduct(field: String, product: String, suggestions: [String] = [])
  case lineTooLong(bytes: Int, limit: Int)
  // Log-wide rules.
  case idConflict(id: String, firstLine: Int, firstFile: String? = nil)
  case transactionReused(transaction: String, firstLine: Int, firstFile: String? = nil)
  case overdraw(currency: String, balance: Int64, quantity: Int64)
  case tooManyEvents(subject: String, limit: Int)
  case tornLastLine(bytes: Int)
  case unknownReference(field: String, value: String)
  case ignoredInState(type: String, state: String)
  // Queries that name a subject without events (the answer stands, but it is likely a typo).
  case subjectWithoutEvents(NearMatch.Hint)
  case subjectsWithoutEvents(queries: Int, shown: [NearMatch.Hint], more: Int)
  case tornLineBlocksAppend
  /// An open ledger's log is now shorter than what it had read: truncated or repaired behind it.
  case logShrank(bytes: Int64, known: Int64)
  case unfinishedAppendUnrecoverable(String)
  case tooManyLines(limit: Int)
  case leak(id: String, feature: String, at: String, tier: String?, used: Int64, limit: Int64?)
  // Catalog.
  case badCatalog(String)
  // Files and usage.
  case fileNotFound(path: String)
  case defaultCatalogNotFound(path: String, log: String)
  case goldenNotFound(path: String, log: String)
  case cannotRead(path: String, reason: String)
  case cannotWrite(path: String, reason: String)
  case usage(String)
  /// A command asked about a subject the log has no event for.
  case unknownSubject(String)
  // Snapshots and diffs.
  case snapshotMismatch(String)
  case importFailed(String)
  // The per-subject index (Docs/index.md): warnings only, an answer never depends on it.
  case indexNotUsed(IndexIssue)
  case indexNotUpdated(IndexIssue)
  case indexBuilt(IndexIssue)
  case indexMismatch(IndexIssue)
}

/// Why an index beside a log was not used, not updated, or rebuilt.
package enum IndexIssue: Sendable, Equatable {
  /// It was written for another file (the log was replaced: other device or inode).
  case otherLog
  /// The log is shorter than what the index covers (truncated).
  case logShorter(covered: Int64, size: Int64)
  /// The last covered bytes are not the ones indexed (edited in place).
  case prefixChanged
  /// It was built with another catalog.
  case catalogChanged
  /// The catalog was read from stdin, so it cannot be compared.
  case catalogUnknown
  /// A file of it does not check out (damaged, torn, unreadable).
  case damaged(String)
  /// More than this many bytes were appended behind the tool's back since it was brought up to date.
  case tailTooLong(bytes: Int64, limit: Int64)
  /// The whole covered prefix does not have the digest the index recorded (`check` only).
  case prefixDigestMismatch
}

/// How serious a diagnostic is.
public enum Severity: String, Sendable {
  case error
  case warning
}

/// A problem at a place: `FILE:LINE[:COLUMN]: error: message`.
public struct Diagnostic: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file concerned, if any.
  public var file: String?
  /// The 1-based line, if the problem is on a line.
  public var line: Int?
  /// The 1-based byte column, for invalid JSON.
  public var column: Int?
  /// What went wrong.
  package var problem: Problem
  /// Error or warning.
  public var severity: Severity

  /// Creates a diagnostic.
  package init(
    file: String? = nil, line: Int? = nil, column: Int? = nil, _ problem: Problem,
    severity: Severity = .error
  ) {
    self.file = file
    self.line = line
    self.column = column
    self.problem = problem
    self.severity = severity
  }

  /// The sysexits code (Docs/commands.md, exit codes).
  public var exitCode: Int32 {
    switch problem {
    case .usage: return 64
    case .fileNotFound, .defaultCatalogNotFound, .goldenNotFound, .cannotRead, .unknownSubject: return 66
    case .cannotWrite: return 74
    default: return 65
    }
  }

  /// `FILE:LINE:COL: error: message`, the form every command prints on stderr.
  public var description: String {
    var prefix = ""
    if let file { prefix += file + ":" }
    if let line { prefix += "\(line):" }
    if let column { prefix += "\(column):" }
    if !prefix.isEmpty { prefix += " " }
    return prefix + severity.rawValue + ": " + message
  }

  /// The wording of the problem.
  public var message: String {
    switch problem {
    case .invalidJSON(let detail):
      return "invalid JSON: \(detail)"
    case .unknownField(let name):
      if Diagnostic.appStoreKeys.contains(name) {
        return "unknown field '\(name)': this looks like an App Store payload, not a ledger event; "
          + "use 'storeledger import appstore' to turn it into events"
      }
      let suggestion = NearMatch.closest(name, among: Field.allCases.map(\.name) + ["as_of"])
      return "unknown field '\(name)' (fields are checked strictly; "
        + (suggestion.map { "did you mean '\($0)'?)" } ?? "is it a typo?)")
    case .duplicateField(let name):
      return "field '\(name)' appears twice"
    case .missingField(let field, let type):
      return "field '\(field)' is required for type '\(type)'"
    case .fieldNotAllowed(let field, let type, let why):
      return "field '\(field)' is not allowed for type '\(type)'" + (why.isEmpty ? "" : ": \(why)")
    case .invalidValue(let field, let expected, let found):
      let thousandths =
        field == "price" && found.contains(".")
        ? "; prices are integer thousandths of the currency unit (4.99 is 4990)" : ""
      return "field '\(field)': expected \(expected), found \(found)" + thousandths
    case .missingUTCOffset(let field, let found):
      return "field '\(field)': missing UTC offset in \(found): add Z or +02:00, or pass --tz +02:00"
    case .unknownEventType(let found):
      let name = found.trimmingCharacters(of: "\"")
      if ["refund", "refunded", "refunds"].contains(name.trimmingWhitespace().lowercased()) {
        return "field 'type': unknown event type \(found); a refund is a 'revocation' with \"reason\": \"refund\""
      }
      return
        "field 'type': unknown event type \(found)"
        + Diagnostic.didYouMean(NearMatch.suggestions(for: name, among: EventKind.allNames), separator: " (", closing: ")")
        + "; expected one of \(EventKind.allNames.joined(separator: ", "))"
    case .unknownProduct(let field, let product, let suggestions):
      return "field '\(field)': unknown product '\(product)' (not in the catalog"
        + Diagnostic.didYouMean(suggestions, separator: "; ") + ")"
    case .lineTooLong(let bytes, let limit):
      return "line is \(bytes) bytes, more than the limit of \(limit)"
    case .idConflict(let id, let firstLine, let firstFile):
      return
        "field 'id': id conflict: '\(id)' was first used on line \(firstLine)\(Diagnostic.of(firstFile)) for a different event"
    case .transactionReused(let transaction, let firstLine, let firstFile):
      return
        "field 'transaction': transaction '\(transaction)' was already charged by the event on line \(firstLine)\(Diagnostic.of(firstFile))"
    case .overdraw(let currency, let balance, let quantity):
      return
        "field 'quantity': overdraw: spending \(quantity) \(currency) with a balance of \(balance) just before it"
    case .tooManyEvents(let subject, let limit):
      return "subject '\(subject)' has more than \(limit) events (the per-subject limit)"
    case .tornLastLine(let bytes):
      return
        "torn last line (\(bytes) bytes without a final newline) ignored; run 'storeledger repair' to move it aside"
    case .unknownReference(let field, let value):
      return
        "field '\(field)': '\(value)' has no purchase or renewal for this subject at this point; the event changes nothing"
    case .ignoredInState(let type, let state):
      return "'\(type)' in state '\(state)' changes nothing"
    case .subjectWithoutEvents(let hint):
      return "subject '\(hint.name)' has no events in the log, so the answer is empty"
        + Diagnostic.didYouMean(hint.suggestions, separator: "; ")
    case .subjectsWithoutEvents(let queries, let shown, let more):
      let subjects = shown.map { "'\($0.name)'" + Diagnostic.didYouMean($0.suggestions, separator: " (", closing: ")") }
      return "\(queries) quer\(queries == 1 ? "y names a subject" : "ies name subjects") with no events in the log, "
        + "so \(queries == 1 ? "its answer is" : "their answers are") empty: " + subjects.joined(separator: ", ")
        + (more > 0 ? ", and \(more) more quer\(more == 1 ? "y" : "ies")" : "")
    case .leak(let id, let feature, let at, let tier, let used, let limit):
      let why = tier.map { "tier '\($0)' had used \(used) of \(limit.map(String.init) ?? "unlimited")" }
        ?? "no tier the subject was in offers it"
      return "field 'feature': leak: usage '\(id)' of '\(feature)' at \(at) was not allowed (\(why))"
    case .tornLineBlocksAppend:
      return "the log ends in a torn line; run 'storeledger repair' before appending"
    case .logShrank(let bytes, let known):
      return "the log has \(bytes) bytes but this open ledger had read \(known): it was truncated or repaired since; open it again"
    case .unfinishedAppendUnrecoverable(let detail):
      return "an interrupted append cannot be rolled back: \(detail)"
    case .tooManyLines(let limit):
      return "the log has more than \(limit) lines"
    case .badCatalog(let detail):
      return "bad catalog: \(detail)"
    case .fileNotFound(let path):
      return "no such file: \(path)"
    case .defaultCatalogNotFound(let path, let log):
      return "no catalog: looked for \(path) (the default, catalog.json beside the log \(log)); "
        + "pass --catalog FILE to name the catalog"
    case .goldenNotFound(let path, let log):
      return "no such file: \(path); to record it, run 'storeledger snapshot \(log) --out \(path)' (review the file, then commit it)"
    case .cannotRead(let path, let reason):
      return "cannot read \(path): \(reason)"
    case .cannotWrite(let path, let reason):
      return "cannot write \(path): \(reason)"
    case .usage(let detail):
      return detail
    case .unknownSubject(let subject):
      return "no event in the log names subject '\(subject)'"
    case .snapshotMismatch(let detail):
      return detail
    case .importFailed(let detail):
      return detail
    case .indexNotUsed(let issue):
      return "the index beside this log was not used (\(issue.wording)); the whole log was read. "
        + "'storeledger index' rebuilds it"
    case .indexNotUpdated(let issue):
      return "the batch was committed, but the index was not brought up to date (\(issue.wording)); "
        + "readers read the new lines as the log's tail until 'storeledger index' runs"
    case .indexBuilt(let issue):
      return "the index beside this log did not describe it (\(issue.wording)); it was rebuilt"
    case .indexMismatch(let issue):
      return "the index beside this log does not describe it (\(issue.wording)); "
        + "'storeledger index --rebuild' writes a new one"
    }
  }
}

extension IndexIssue {
  /// The reason, worded for the warnings above.
  package var wording: String {
    switch self {
    case .otherLog: return "it was written for another file: the log was replaced"
    case .logShorter(let covered, let size):
      return "it covers \(covered) bytes but the log has \(size): the log was truncated"
    case .prefixChanged: return "the last bytes it covers changed: the log was edited"
    case .catalogChanged: return "it was checked with another catalog"
    case .catalogUnknown: return "the catalog was read from stdin"
    case .damaged(let detail): return "damaged: \(detail)"
    case .tailTooLong(let bytes, let limit):
      return "\(bytes) bytes were appended without updating it, more than \(limit)"
    case .prefixDigestMismatch:
      return "the covered prefix's digest does not match: the log was edited before its end"
    }
  }
}

extension Diagnostic {
  /// Top-level keys of App Store payloads (transactions, notifications, API responses): a line
  /// with one of them was meant for `import appstore`.
  static let appStoreKeys: Set<String> = [
    "signedPayload", "notificationType", "notificationUUID", "subtype", "signedTransactionInfo",
    "signedRenewalInfo", "transactionId", "originalTransactionId", "productId", "bundleId",
    "purchaseDate", "expiresDate", "inAppOwnershipType", "appAccountToken", "signedTransactions",
    "webOrderLineItemId", "transactionReason", "signedDate", "storefront",
  ]

  /// ` of FILE` when a line number refers to another file than the diagnostic's.
  static func of(_ file: String?) -> String { file.map { " of \($0)" } ?? "" }

  /// `; did you mean 'a' or 'b'?` after `separator`, or nothing when there is no suggestion.
  static func didYouMean(_ suggestions: [String], separator: String, closing: String = "") -> String {
    guard let last = suggestions.last else { return "" }
    let quoted = suggestions.dropLast().map { "'\($0)'" }
    let list = quoted.isEmpty ? "'\(last)'" : quoted.joined(separator: ", ") + " or '\(last)'"
    return separator + "did you mean " + list + "?" + closing
  }
}

/// A batch of diagnostics raised together (for example every bad line `check` found).
public struct DiagnosticList: Error, Sendable {
  /// The diagnostics, in log order; errors and warnings.
  public var diagnostics: [Diagnostic]

  /// Creates a list.
  package init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

  /// The exit code of the first error.
  public var exitCode: Int32 {
    diagnostics.first(where: { $0.severity == .error })?.exitCode ?? 0
  }
}

extension DiagnosticList {
  /// Runs `body`, turning any error it throws into a `DiagnosticList` (`path` names unknown ones).
  package static func collecting<R>(
    path: String, writing: Bool = false, _ body: () throws -> R
  ) throws(DiagnosticList) -> R {
    do {
      return try body()
    } catch let list as DiagnosticList {
      throw list
    } catch let diagnostic as Diagnostic {
      throw DiagnosticList([diagnostic])
    } catch {
      let reason = "\(error)"
      throw DiagnosticList([
        Diagnostic(writing ? .cannotWrite(path: path, reason: reason) : .cannotRead(path: path, reason: reason))
      ])
    }
  }
}
