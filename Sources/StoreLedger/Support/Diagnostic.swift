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
  // The library API.
  /// A feature the catalog's policy does not have.
  case unknownFeature(feature: String, features: [String])
  /// A question that needs a catalog `policy` asked of a catalog without one.
  case noPolicy(what: String)
  /// A cached answer whose verification time is after the time asked about.
  case cacheAfterAnswer(verifiedAt: String, at: String)
  /// A change stream's reader fell more than `limit` batches behind.
  case commitsDropped(limit: Int)
  /// A diagnostic made by a library user (tests of error handling): its own code and words.
  case external(code: DiagnosticCode, message: String)
}

/// A stable, machine-readable name for a kind of problem (`id_conflict`, `overdraw`): what a
/// backend maps to an HTTP status and `check --format json` prints. New codes may be added;
/// existing ones keep their spelling (Docs/library.md lists them).
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
  /// The code as printed (`snake_case`).
  public var rawValue: String
  /// Wraps a code (a code this version does not know compares unequal to every static member).
  public init(rawValue: String) { self.rawValue = rawValue }
  /// The raw value.
  public var description: String { rawValue }
  /// Decodes the bare string.
  public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
  /// Encodes the bare string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// A line that is not JSON.
  public static let invalidJSON = DiagnosticCode(rawValue: "invalid_json")
  /// A field the format does not have.
  public static let unknownField = DiagnosticCode(rawValue: "unknown_field")
  /// A field given twice.
  public static let duplicateField = DiagnosticCode(rawValue: "duplicate_field")
  /// A field the event's type requires is absent.
  public static let missingField = DiagnosticCode(rawValue: "missing_field")
  /// A field the event's type does not take.
  public static let fieldNotAllowed = DiagnosticCode(rawValue: "field_not_allowed")
  /// A field's value has the wrong form or range.
  public static let invalidValue = DiagnosticCode(rawValue: "invalid_value")
  /// A time without `Z` or an offset.
  public static let missingUTCOffset = DiagnosticCode(rawValue: "missing_utc_offset")
  /// A `type` the format does not have.
  public static let unknownEventType = DiagnosticCode(rawValue: "unknown_event_type")
  /// A product the catalog does not have.
  public static let unknownProduct = DiagnosticCode(rawValue: "unknown_product")
  /// A line longer than the limit.
  public static let lineTooLong = DiagnosticCode(rawValue: "line_too_long")
  /// One event id used for two different events (HTTP 409 territory).
  public static let idConflict = DiagnosticCode(rawValue: "id_conflict")
  /// A transaction charged twice.
  public static let transactionReused = DiagnosticCode(rawValue: "transaction_reused")
  /// A consumption spending more than the balance.
  public static let overdraw = DiagnosticCode(rawValue: "overdraw")
  /// A subject over the per-subject event limit.
  public static let tooManyEvents = DiagnosticCode(rawValue: "too_many_events")
  /// A last line without its newline, ignored.
  public static let tornLastLine = DiagnosticCode(rawValue: "torn_last_line")
  /// An event referring to a transaction the subject does not have (a warning).
  public static let unknownReference = DiagnosticCode(rawValue: "unknown_reference")
  /// An event that changes nothing in its state (a warning).
  public static let ignoredInState = DiagnosticCode(rawValue: "ignored_in_state")
  /// A question about a subject without events (a warning).
  public static let subjectWithoutEvents = DiagnosticCode(rawValue: "subject_without_events")
  /// The log ends in a torn line: appends wait for `repair`.
  public static let tornLineBlocksAppend = DiagnosticCode(rawValue: "torn_line_blocks_append")
  /// The log shrank behind an open ledger.
  public static let logShrank = DiagnosticCode(rawValue: "log_shrank")
  /// An interrupted append that cannot be rolled back.
  public static let unfinishedAppend = DiagnosticCode(rawValue: "unfinished_append")
  /// A log over the line limit.
  public static let tooManyLines = DiagnosticCode(rawValue: "too_many_lines")
  /// A use the policy did not allow when it happened (a warning).
  public static let leak = DiagnosticCode(rawValue: "leak")
  /// A catalog that breaks its format.
  public static let badCatalog = DiagnosticCode(rawValue: "bad_catalog")
  /// A file that does not exist.
  public static let fileNotFound = DiagnosticCode(rawValue: "file_not_found")
  /// A file that could not be read.
  public static let cannotRead = DiagnosticCode(rawValue: "cannot_read")
  /// A file that could not be written.
  public static let cannotWrite = DiagnosticCode(rawValue: "cannot_write")
  /// A command line or call that is wrong as asked.
  public static let usage = DiagnosticCode(rawValue: "usage")
  /// A subject with no event in the log where one is needed.
  public static let unknownSubject = DiagnosticCode(rawValue: "unknown_subject")
  /// A snapshot that does not match its log or catalog.
  public static let snapshotMismatch = DiagnosticCode(rawValue: "snapshot_mismatch")
  /// Store data the importer cannot turn into events.
  public static let importFailed = DiagnosticCode(rawValue: "import_failed")
  /// A feature the catalog's policy does not have.
  public static let unknownFeature = DiagnosticCode(rawValue: "unknown_feature")
  /// A policy question asked of a catalog without a `policy`.
  public static let noPolicy = DiagnosticCode(rawValue: "no_policy")
  /// A change stream whose reader fell too far behind (it ends with this error).
  public static let commitsDropped = DiagnosticCode(rawValue: "commits_dropped")
  /// A cached answer verified after the time asked about.
  public static let cacheAfterAnswer = DiagnosticCode(rawValue: "cache_after_answer")
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

  /// A diagnostic with a code and words of its own (for tests of code that handles them).
  public init(
    code: DiagnosticCode, message: String, file: String? = nil, line: Int? = nil, column: Int? = nil,
    severity: Severity = .error
  ) {
    self.init(file: file, line: line, column: column, .external(code: code, message: message), severity: severity)
  }

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
    case .usage, .unknownFeature, .cacheAfterAnswer: return 64
    case .fileNotFound, .defaultCatalogNotFound, .goldenNotFound, .cannotRead, .unknownSubject: return 66
    case .cannotWrite: return 74
    case .commitsDropped: return 75
    default: return 65
    }
  }

  /// The stable code of the problem's kind.
  public var code: DiagnosticCode {
    switch problem {
    case .invalidJSON: return .invalidJSON
    case .unknownField: return .unknownField
    case .duplicateField: return .duplicateField
    case .missingField: return .missingField
    case .fieldNotAllowed: return .fieldNotAllowed
    case .invalidValue: return .invalidValue
    case .missingUTCOffset: return .missingUTCOffset
    case .unknownEventType: return .unknownEventType
    case .unknownProduct: return .unknownProduct
    case .lineTooLong: return .lineTooLong
    case .idConflict: return .idConflict
    case .transactionReused: return .transactionReused
    case .overdraw: return .overdraw
    case .tooManyEvents: return .tooManyEvents
    case .tornLastLine: return .tornLastLine
    case .unknownReference: return .unknownReference
    case .ignoredInState: return .ignoredInState
    case .subjectWithoutEvents, .subjectsWithoutEvents: return .subjectWithoutEvents
    case .tornLineBlocksAppend: return .tornLineBlocksAppend
    case .logShrank: return .logShrank
    case .unfinishedAppendUnrecoverable: return .unfinishedAppend
    case .tooManyLines: return .tooManyLines
    case .leak: return .leak
    case .badCatalog: return .badCatalog
    case .fileNotFound, .defaultCatalogNotFound, .goldenNotFound: return .fileNotFound
    case .cannotRead: return .cannotRead
    case .cannotWrite: return .cannotWrite
    case .usage: return .usage
    case .unknownSubject: return .unknownSubject
    case .snapshotMismatch: return .snapshotMismatch
    case .importFailed: return .importFailed
    case .unknownFeature: return .unknownFeature
    case .noPolicy: return .noPolicy
    case .commitsDropped: return .commitsDropped
    case .cacheAfterAnswer: return .cacheAfterAnswer
    case .external(let code, _): return code
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
    case .unknownFeature(let feature, let features):
      return "'\(feature)' is not a feature of the catalog's policy (\(features.joined(separator: ", ")))"
        + Diagnostic.didYouMean(NearMatch.suggestions(for: feature, among: features), separator: "; ")
    case .noPolicy(let what):
      return "\(what) needs a catalog with a 'policy' (tiers and features); this catalog has none"
    case .cacheAfterAnswer(let verifiedAt, let at):
      return "the cached answer was verified at \(verifiedAt), after the time asked about (\(at)): an app cannot have verified in the future"
    case .commitsDropped(let limit):
      return "the change stream's reader fell more than \(limit) batches behind; read the ledger again and start a new stream"
    case .external(_, let message):
      return message
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

  /// Creates a list (library users: to test code that handles errors).
  public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

  /// The code of the first error (else of the first diagnostic); nil for an empty list.
  public var code: DiagnosticCode? {
    (diagnostics.first(where: { $0.severity == .error }) ?? diagnostics.first)?.code
  }

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
