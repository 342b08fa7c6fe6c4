/// What went wrong, as a typed value; `Diagnostic.message` is the one place that words it.
package enum Problem: Sendable, Equatable {
  // Invalid JSON and fields of a log line.
  case invalidJSON(String)
  /// A field the format does not have, and the known field nearest to it (`Problem.unknownField(_:)`
  /// finds it among the fields of `Events/`).
  case unknownField(String, nearest: String?)
  case duplicateField(String)
  case missingField(field: String, type: String)
  case fieldNotAllowed(field: String, type: String, why: String)
  case invalidValue(field: String, expected: String, found: String)
  case missingUTCOffset(field: String, found: String)
  /// A `type` the format does not have (as found, quoted), and the names it has (`Problem.unknownEventType(_:)`).
  case unknownEventType(String, known: [String])
  case unknownProduct(field: String, product: String, suggestions: [String] = [])
  case lineTooLong(bytes: Int, limit: Int)
  case unknownCurrency(currency: String, suggestions: [String])
  // Log-wide rules.
  case idConflict(id: String, firstLine: Int, firstFile: String? = nil, differing: [String] = [])
  case transactionReused(transaction: String, firstLine: Int, firstFile: String? = nil)
  /// A `transfer` that breaks its unit's owner chain (contract v1.3, section 9): `detail` says how,
  /// naming the line it contradicts where there is one.
  case ownerChain(field: String, unit: String, detail: String)
  case overdraw(currency: String, balance: Int64, quantity: Int64)
  case tooManyEvents(subject: String, limit: Int)
  case balanceMovementLimit(currency: String, moved: Int64, delta: Int64, limit: Int64)
  case tornLastLine(bytes: Int)
  case unknownReference(field: String, value: String)
  case ignoredInState(type: String, state: String)
  // Queries that name a subject without events (the answer stands, but it is likely a typo).
  case subjectWithoutEvents(NearMatch.Hint)
  case subjectsWithoutEvents(queries: Int, shown: [NearMatch.Hint], more: Int)
  case tornLineBlocksAppend
  /// A file given as a log that is not JSON Lines at all (`JSONLinesSniffer`): one error, not one per line.
  case notJSONLines(ForeignInput)
  /// An open ledger's log is now shorter than what it had read: truncated or repaired behind it.
  case logShrank(bytes: Int64, known: Int64)
  case foreignIntentRecord(record: String, reason: String, log: String)
  case logHasSeveralNames(links: Int)
  case lockBusy(holder: String, waitedSeconds: Int)
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
  /// A command asked about a subject the log has no event for (with the subjects nearest to it).
  case unknownSubject(NearMatch.Hint)
  // Snapshots and diffs.
  case snapshotMismatch(String)
  // Reports.
  case reportValueOutOfRange(name: String, bucketStart: String, limit: Int64)
  case importFailed(String)
  // The library API.
  /// A feature the catalog's policy does not have.
  case unknownFeature(feature: String, features: [String])
  /// `evidence` named a refund request the log does not have (`named` says how it was named),
  /// with the nearest request ids or the instants of the transaction's requests.
  case unknownRefundRequest(named: String, nearest: [String])
  /// `evidence` for a request whose transaction had no charge known at the request's `recorded`.
  case evidenceWithoutCharge(request: String, transaction: String, recorded: String)
  /// A question that needs a catalog `policy` asked of a catalog without one.
  case noPolicy(what: String)
  /// A cached answer whose verification time is after the time asked about.
  case cacheAfterAnswer(verifiedAt: String, at: String)
  /// A change stream's reader fell more than `limit` batches behind.
  case commitsDropped(limit: Int)
  /// A diagnostic made by a library user (tests of error handling): its own code and words.
  case external(code: DiagnosticCode, message: String)
  // The per-subject index (Docs/index.md): warnings only, an answer never depends on it.
  case indexNotUsed(IndexIssue)
  case indexNotUpdated(IndexIssue)
  case indexBuilt(IndexIssue)
  case indexMismatch(IndexIssue)
  // The Google Play documents kept beside a log (Docs/import-googleplay.md).
  /// The documents file (the diagnostic's file) differs from its record `record`, beside `log`.
  case googlePlayDocuments(GooglePlayDocumentsIssue, record: String, log: String)
  // App Store signature verification (Docs/verification.md).
  /// A JWS at `place` ("field 'data.signedTransactionInfo'", "this document") failed a check.
  case signatureRejected(place: String, SignatureCheck)
  /// A decoded (unsigned) payload where verification is on.
  case unsignedPayload(place: String)
  /// Signed input but no `--root` (nor `STORELEDGER_APPLE_ROOT`); usage, exit 64.
  case noTrustedRoot(appleRootSHA256: String)
  /// A `--root` file that is not one DER or PEM certificate this verifier can use.
  case badRootCertificate(path: String, reason: String)
  /// A `--root` that is not Apple Root CA - G3 (a warning: test CAs are legitimate).
  case rootNotApple(path: String, sha256: String, appleRootSHA256: String)
}

/// The check a signed App Store payload failed (Docs/verification.md lists them in order).
package enum SignatureCheck: Error, Sendable, Equatable {
  /// Not `header.payload.signature` with base64url parts and JSON objects.
  case notJWS(String)
  /// The header's `alg` is not ES256 (`found` is its JSON, or "absent").
  case algorithm(found: String)
  /// `x5c` does not hold exactly three base64 certificates.
  case certificateCount(found: String)
  /// `x5c[index]` is not a certificate this verifier reads.
  case unreadableCertificate(index: Int, reason: String)
  /// The JWS signature is not 64 bytes (r‖s), e.g. DER.
  case signatureLength(bytes: Int)
  /// The leaf's key is not P-256, which ES256 requires.
  case leafKeyNotP256(curve: String)
  /// The ES256 signature does not verify under the leaf's key.
  case signature
  /// The payload has no integral `signedDate`, the instant the chain is validated at.
  case signedDate
  /// The intermediate is not issued and signed by any configured root.
  case intermediateNotFromRoot(roots: Int)
  /// The leaf is not issued and signed by the intermediate.
  case leafNotFromIntermediate
  /// A certificate lacks Apple's marker extension.
  case missingMarker(certificate: String, oid: String)
  /// basicConstraints or keyUsage do not fit the certificate's place in the chain.
  case constraints(certificate: String, ConstraintFailure)
  /// A critical extension this verifier does not understand.
  case unknownCriticalExtension(certificate: String, oid: String)
  /// A certificate is not valid at the validation instant (Unix milliseconds).
  case validity(certificate: String, atMs: Int64, notBeforeMs: Int64, notAfterMs: Int64)
  /// The payload names another app than `--bundle-id`.
  case bundleId(expected: String, found: String)
  /// The notification names another app than `--app-apple-id`.
  case appAppleId(expected: Int64, found: String)

  /// How basicConstraints or keyUsage failed.
  package enum ConstraintFailure: Sendable, Equatable {
    /// A root or intermediate without `cA: TRUE`.
    case notCA
    /// A leaf with `cA: TRUE`.
    case isCA
    /// A path length limit below the number of CAs under the certificate.
    case pathLength(limit: Int, below: Int)
    /// keyUsage present without the bit the certificate's place needs.
    case keyUsage(needed: String)
    /// The extension's value is not the DER it should be.
    case malformed(reason: String)
  }

  /// The check's short name, as Docs/verification.md lists it.
  package var name: String {
    switch self {
    case .notJWS: return "jws"
    case .algorithm: return "alg"
    case .certificateCount: return "x5c"
    case .unreadableCertificate: return "certificate"
    case .signatureLength, .leafKeyNotP256, .signature: return "signature"
    case .signedDate: return "signedDate"
    case .intermediateNotFromRoot, .leafNotFromIntermediate: return "chain"
    case .missingMarker: return "oid"
    case .constraints: return "constraints"
    case .unknownCriticalExtension: return "critical-extension"
    case .validity: return "validity"
    case .bundleId: return "bundle-id"
    case .appAppleId: return "app-apple-id"
    }
  }

  /// What failed, in words.
  var detail: String {
    switch self {
    case .notJWS(let why): return why
    case .algorithm(let found): return "header 'alg' is \(found), expected \"ES256\""
    case .certificateCount(let found): return "header 'x5c' must hold 3 certificates (leaf, intermediate, root), found \(found)"
    case .unreadableCertificate(let index, let reason): return "x5c[\(index)] is not a certificate this verifier reads: \(reason)"
    case .signatureLength(let bytes): return "the signature is \(bytes) bytes; ES256 is 64 bytes r‖s (not DER)"
    case .leafKeyNotP256(let curve): return "the leaf certificate's key is \(curve); ES256 needs P-256"
    case .signature: return "the ES256 signature over header.payload does not verify under the leaf certificate's key"
    case .signedDate: return "the payload has no integral 'signedDate' (milliseconds) to validate the certificates at"
    case .intermediateNotFromRoot(let roots):
      return "the intermediate certificate x5c[1] was not issued by \(roots == 1 ? "the configured root" : "any of the \(roots) configured roots") (x5c[2] is never trusted)"
    case .leafNotFromIntermediate: return "the leaf certificate x5c[0] was not issued by the intermediate x5c[1]"
    case .missingMarker(let certificate, let oid): return "the \(certificate) certificate lacks Apple's extension \(oid)"
    case .constraints(let certificate, let failure):
      let what: String
      switch failure {
      case .notCA: what = "basicConstraints does not say it is a CA"
      case .isCA: what = "basicConstraints says it is a CA, but it signs payloads"
      case .pathLength(let limit, let below): what = "basicConstraints pathLenConstraint \(limit) forbids the \(below) CA below it"
      case .keyUsage(let needed): what = "keyUsage lacks \(needed)"
      case .malformed(let reason): what = "malformed basicConstraints or keyUsage: \(reason)"
      }
      return "the \(certificate) certificate: \(what)"
    case .unknownCriticalExtension(let certificate, let oid):
      return "the \(certificate) certificate has a critical extension this verifier does not know (\(oid))"
    case .validity(let certificate, let atMs, let notBeforeMs, let notAfterMs):
      return "the \(certificate) certificate is not valid at signedDate \(Timestamp(millisecondsSinceEpoch: atMs)) (valid \(Timestamp(millisecondsSinceEpoch: notBeforeMs)) to \(Timestamp(millisecondsSinceEpoch: notAfterMs)))"
    case .bundleId(let expected, let found): return "bundleId is \(found), expected \"\(expected)\" (--bundle-id)"
    case .appAppleId(let expected, let found): return "appAppleId is \(found), expected \(expected) (--app-apple-id)"
    }
  }
}

/// Why an index beside a log was not used, not updated, or rebuilt.
package enum IndexIssue: Sendable, Equatable {
  /// It was written for another file (the log was replaced: other device, inode, birth time or
  /// inode generation).
  case otherLog
  /// The log is shorter than what the index covers (truncated).
  case logShorter(covered: Int64, size: Int64)
  /// The last covered bytes are not the ones indexed (edited in place).
  case prefixChanged
  /// The first covered bytes are not the ones indexed (edited in place, or replaced by a file
  /// the filesystem cannot tell from the old one).
  case firstBlockChanged
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
  /// Its manifest is in another format (written by another version), named here.
  case otherFormat(String)
}

/// A stable, machine-readable name for a kind of problem (`id_conflict`, `overdraw`): what a
/// backend maps to an HTTP status and `check --format json` prints. New codes may be added;
/// existing ones keep their spelling (Docs/library.md lists them). The codes a library caller acts
/// on have a public static member; the others compare by `rawValue` (Docs/decisions.md, "The
/// public face of errors").
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
  /// The code as printed (`snake_case`).
  public var rawValue: String
  /// Wraps a code (a code this version does not know compares unequal to every static member).
  public init(rawValue: String) { self.rawValue = rawValue }
  /// The raw value.
  public var description: String { rawValue }
  // `Codable` is the bare string: the standard library's coding of a `RawRepresentable` whose
  // raw value is a `String` (any string decodes, as `init(rawValue:)` takes any).

  /// A line that is not JSON.
  public static let invalidJSON = DiagnosticCode(rawValue: "invalid_json")
  /// A field the format does not have.
  package static let unknownField = DiagnosticCode(rawValue: "unknown_field")
  /// A field given twice.
  package static let duplicateField = DiagnosticCode(rawValue: "duplicate_field")
  /// A field the event's type requires is absent.
  package static let missingField = DiagnosticCode(rawValue: "missing_field")
  /// A field the event's type does not take.
  package static let fieldNotAllowed = DiagnosticCode(rawValue: "field_not_allowed")
  /// A field's value has the wrong form or range.
  package static let invalidValue = DiagnosticCode(rawValue: "invalid_value")
  /// A time without `Z` or an offset.
  package static let missingUTCOffset = DiagnosticCode(rawValue: "missing_utc_offset")
  /// A `type` the format does not have.
  package static let unknownEventType = DiagnosticCode(rawValue: "unknown_event_type")
  /// A product the catalog does not have.
  package static let unknownProduct = DiagnosticCode(rawValue: "unknown_product")
  /// A line longer than the limit.
  package static let lineTooLong = DiagnosticCode(rawValue: "line_too_long")
  /// One event id used for two different events (HTTP 409 territory).
  public static let idConflict = DiagnosticCode(rawValue: "id_conflict")
  /// A transaction charged twice.
  public static let transactionReused = DiagnosticCode(rawValue: "transaction_reused")
  /// A transfer that breaks its unit's owner chain, or moves what cannot change hands.
  package static let ownerChain = DiagnosticCode(rawValue: "owner_chain")
  /// A consumption spending more than the balance.
  public static let overdraw = DiagnosticCode(rawValue: "overdraw")
  /// A subject over the per-subject event limit.
  package static let tooManyEvents = DiagnosticCode(rawValue: "too_many_events")
  /// A last line without its newline, ignored.
  package static let tornLastLine = DiagnosticCode(rawValue: "torn_last_line")
  /// An event referring to a transaction the subject does not have (a warning).
  package static let unknownReference = DiagnosticCode(rawValue: "unknown_reference")
  /// An event that changes nothing in its state (a warning).
  package static let ignoredInState = DiagnosticCode(rawValue: "ignored_in_state")
  /// A question about a subject without events (a warning).
  package static let subjectWithoutEvents = DiagnosticCode(rawValue: "subject_without_events")
  /// The log ends in a torn line: appends wait for `repair`.
  public static let tornLineBlocksAppend = DiagnosticCode(rawValue: "torn_line_blocks_append")
  /// The log shrank behind an open ledger.
  package static let logShrank = DiagnosticCode(rawValue: "log_shrank")
  /// An append intent record that does not describe the log beside it (writers refuse).
  package static let foreignIntentRecord = DiagnosticCode(rawValue: "foreign_intent_record")
  /// A log with several hard links (writers refuse).
  package static let logHasSeveralNames = DiagnosticCode(rawValue: "log_has_several_names")
  /// Another writer held the log's lock past the wait limit (exit 75).
  public static let lockBusy = DiagnosticCode(rawValue: "lock_busy")
  /// A spend of a currency no consumable of the catalog grants.
  package static let unknownCurrency = DiagnosticCode(rawValue: "unknown_currency")
  /// A subject's balance moved past the per-currency limit.
  package static let balanceLimit = DiagnosticCode(rawValue: "balance_limit")
  /// A report sum past what a report may hold.
  package static let reportValueOutOfRange = DiagnosticCode(rawValue: "report_value_out_of_range")
  /// The index beside the log was not used (a warning; the whole log was read).
  package static let indexNotUsed = DiagnosticCode(rawValue: "index_not_used")
  /// A committed append did not bring the index up to date (a warning).
  package static let indexNotUpdated = DiagnosticCode(rawValue: "index_not_updated")
  /// An index that did not describe the log was rebuilt (a warning).
  package static let indexRebuilt = DiagnosticCode(rawValue: "index_rebuilt")
  /// `check` found an index that does not describe the log (a warning).
  package static let indexMismatch = DiagnosticCode(rawValue: "index_mismatch")
  /// The Google Play documents kept beside the log were lost, truncated, replaced or damaged: imports stop.
  public static let googlePlayDocumentsDamaged = DiagnosticCode(rawValue: "googleplay_documents_damaged")
  /// Kept Google Play documents their record does not cover yet (a warning).
  package static let googlePlayDocumentsNotRecorded = DiagnosticCode(rawValue: "googleplay_documents_not_recorded")
  /// A signed App Store payload failed a verification check.
  public static let signatureRejected = DiagnosticCode(rawValue: "signature_rejected")
  /// A decoded App Store payload where signatures are verified.
  public static let unsignedPayload = DiagnosticCode(rawValue: "unsigned_payload")
  /// Signed App Store input and no root certificate to verify it (exit 64).
  package static let noTrustedRoot = DiagnosticCode(rawValue: "no_trusted_root")
  /// A `--root` that is not a usable certificate.
  package static let badRootCertificate = DiagnosticCode(rawValue: "bad_root_certificate")
  /// A `--root` that is not Apple Root CA - G3 (a warning).
  package static let rootNotApple = DiagnosticCode(rawValue: "root_not_apple")
  /// A log over the line limit.
  package static let tooManyLines = DiagnosticCode(rawValue: "too_many_lines")
  /// A use the policy did not allow when it happened (a warning).
  package static let leak = DiagnosticCode(rawValue: "leak")
  /// A catalog that breaks its format.
  package static let badCatalog = DiagnosticCode(rawValue: "bad_catalog")
  /// A file that does not exist.
  public static let fileNotFound = DiagnosticCode(rawValue: "file_not_found")
  /// A file that could not be read.
  package static let cannotRead = DiagnosticCode(rawValue: "cannot_read")
  /// A file that could not be written.
  package static let cannotWrite = DiagnosticCode(rawValue: "cannot_write")
  /// A command line or call that is wrong as asked.
  package static let usage = DiagnosticCode(rawValue: "usage")
  /// A subject with no event in the log where one is needed.
  package static let unknownSubject = DiagnosticCode(rawValue: "unknown_subject")
  /// A snapshot that does not match its log or catalog.
  package static let snapshotMismatch = DiagnosticCode(rawValue: "snapshot_mismatch")
  /// Store data the importer cannot turn into events.
  public static let importFailed = DiagnosticCode(rawValue: "import_failed")
  /// A feature the catalog's policy does not have.
  public static let unknownFeature = DiagnosticCode(rawValue: "unknown_feature")
  /// A refund request the log does not have (`storeledger evidence`).
  public static let unknownRefundRequest = DiagnosticCode(rawValue: "unknown_refund_request")
  /// A refund request whose purchase the ledger did not know when it was made.
  public static let evidenceWithoutCharge = DiagnosticCode(rawValue: "evidence_without_charge")
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
    case .usage, .noTrustedRoot, .unknownFeature, .unknownRefundRequest, .cacheAfterAnswer: return 64
    case .fileNotFound, .defaultCatalogNotFound, .goldenNotFound, .cannotRead, .unknownSubject: return 66
    case .cannotWrite: return 74
    case .lockBusy, .commitsDropped: return 75
    // A diagnostic made from a code (`init(code:message:)`) exits as the code's own problems do.
    case .external(let code, _): return Self.exitCode(of: code)
    default: return 65
    }
  }

  /// The sysexits code of the problems with stable code `code`, as `exitCode` gives it for them.
  static func exitCode(of code: DiagnosticCode) -> Int32 {
    switch code {
    case .usage, .noTrustedRoot, .unknownFeature, .unknownRefundRequest, .cacheAfterAnswer: return 64
    case .fileNotFound, .cannotRead, .unknownSubject: return 66
    case .cannotWrite: return 74
    case .lockBusy, .commitsDropped: return 75
    default: return 65
    }
  }

  /// The stable code of the problem's kind.
  public var code: DiagnosticCode {
    switch problem {
    case .invalidJSON, .notJSONLines: return .invalidJSON
    case .unknownField: return .unknownField
    case .duplicateField: return .duplicateField
    case .missingField: return .missingField
    case .fieldNotAllowed: return .fieldNotAllowed
    case .invalidValue: return .invalidValue
    case .missingUTCOffset: return .missingUTCOffset
    case .unknownEventType: return .unknownEventType
    case .unknownProduct: return .unknownProduct
    case .unknownCurrency: return .unknownCurrency
    case .lineTooLong: return .lineTooLong
    case .idConflict: return .idConflict
    case .transactionReused: return .transactionReused
    case .ownerChain: return .ownerChain
    case .overdraw: return .overdraw
    case .balanceMovementLimit: return .balanceLimit
    case .tooManyEvents: return .tooManyEvents
    case .tornLastLine: return .tornLastLine
    case .unknownReference: return .unknownReference
    case .ignoredInState: return .ignoredInState
    case .subjectWithoutEvents, .subjectsWithoutEvents: return .subjectWithoutEvents
    case .tornLineBlocksAppend: return .tornLineBlocksAppend
    case .logShrank: return .logShrank
    case .foreignIntentRecord: return .foreignIntentRecord
    case .logHasSeveralNames: return .logHasSeveralNames
    case .lockBusy: return .lockBusy
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
    case .reportValueOutOfRange: return .reportValueOutOfRange
    case .indexNotUsed: return .indexNotUsed
    case .indexNotUpdated: return .indexNotUpdated
    case .indexBuilt: return .indexRebuilt
    case .indexMismatch: return .indexMismatch
    case .googlePlayDocuments(let issue, _, _):
      return issue.isError ? .googlePlayDocumentsDamaged : .googlePlayDocumentsNotRecorded
    case .signatureRejected: return .signatureRejected
    case .unsignedPayload: return .unsignedPayload
    case .noTrustedRoot: return .noTrustedRoot
    case .badRootCertificate: return .badRootCertificate
    case .rootNotApple: return .rootNotApple
    case .unknownFeature: return .unknownFeature
    case .unknownRefundRequest: return .unknownRefundRequest
    case .evidenceWithoutCharge: return .evidenceWithoutCharge
    case .noPolicy: return .noPolicy
    case .commitsDropped: return .commitsDropped
    case .cacheAfterAnswer: return .cacheAfterAnswer
    case .external(let code, _): return code
    }
  }

  /// `FILE:LINE:COL: error: message`, the form every command prints on stderr: one line, its
  /// control characters escaped and its message at most `Diagnostic.messageBytesMax` bytes
  /// (`TerminalText`), whatever the values in it hold.
  public var description: String {
    var prefix = ""
    if let file { prefix += TerminalText.escaped(file) + ":" }
    if let line { prefix += "\(line):" }
    if let column { prefix += "\(column):" }
    if !prefix.isEmpty { prefix += " " }
    return prefix + severity.rawValue + ": " + TerminalText.clipped(message, bytesMax: Diagnostic.messageBytesMax)
  }

  /// The wording of the problem (one function per family of problems below).
  public var message: String {
    switch problem {
    case .invalidJSON, .unknownField, .duplicateField, .missingField, .fieldNotAllowed, .invalidValue,
      .missingUTCOffset, .unknownEventType, .unknownProduct, .unknownCurrency, .lineTooLong:
      return lineMessage
    case .idConflict, .transactionReused, .ownerChain, .overdraw, .balanceMovementLimit, .tooManyEvents, .tornLastLine,
      .unknownReference, .ignoredInState, .subjectWithoutEvents, .subjectsWithoutEvents, .leak:
      return ruleMessage
    case .tornLineBlocksAppend, .logShrank, .foreignIntentRecord, .logHasSeveralNames, .lockBusy,
      .tooManyLines, .notJSONLines:
      return logFileMessage
    case .badCatalog, .fileNotFound, .defaultCatalogNotFound, .goldenNotFound, .cannotRead, .cannotWrite,
      .usage, .unknownSubject, .snapshotMismatch, .reportValueOutOfRange, .importFailed:
      return commandMessage
    case .signatureRejected, .unsignedPayload, .noTrustedRoot, .badRootCertificate, .rootNotApple:
      return signatureMessage
    case .indexNotUsed, .indexNotUpdated, .indexBuilt, .indexMismatch:
      return indexMessage
    case .googlePlayDocuments:
      return googlePlayDocumentsMessage
    case .unknownFeature, .noPolicy, .cacheAfterAnswer, .commitsDropped, .external, .unknownRefundRequest, .evidenceWithoutCharge:
      return libraryMessage
    }
  }

  /// A problem with one log line's JSON or fields.
  private var lineMessage: String {
    switch problem {
    case .invalidJSON(let detail):
      return "invalid JSON: \(detail)"
    case .unknownField(let name, let suggestion):
      if Diagnostic.appStoreKeys.contains(name) {
        return "unknown field '\(Self.shown(name))': this looks like an App Store payload, not a ledger event; "
          + "use 'storeledger import appstore' to turn it into events"
      }
      return "unknown field '\(Self.shown(name))' (fields are checked strictly; "
        + (suggestion.map { "did you mean '\($0)'?)" } ?? "is it a typo?)")
    case .duplicateField(let name):
      return "field '\(Self.shown(name))' appears twice"
    case .missingField(let field, let type):
      return "field '\(Self.shown(field))' is required for type '\(Self.shown(type))'"
    case .fieldNotAllowed(let field, let type, let why):
      return "field '\(Self.shown(field))' is not allowed for type '\(Self.shown(type))'" + (why.isEmpty ? "" : ": \(why)")
    case .invalidValue(let field, let expected, let found):
      let thousandths =
        field == "price" && found.contains(".")
        ? "; prices are integer thousandths of the currency unit (4.99 is 4990)" : ""
      return "field '\(Self.shown(field))': expected \(expected), found \(Self.shown(found))" + thousandths
    case .missingUTCOffset(let field, let found):
      return "field '\(Self.shown(field))': missing UTC offset in \(Self.shown(found)): add Z or +02:00, or pass --tz +02:00"
    case .unknownEventType(let found, let known):
      let name = found.trimmingCharacters(of: "\"")
      if ["refund", "refunded", "refunds"].contains(name.trimmingWhitespace().lowercased()) {
        return "field 'type': unknown event type \(Self.shown(found)); a refund is a 'revocation' with \"reason\": \"refund\""
      }
      return
        "field 'type': unknown event type \(Self.shown(found))"
        + Diagnostic.didYouMean(NearMatch.suggestions(for: name, among: known), separator: " (", closing: ")")
        + "; expected one of \(known.joined(separator: ", "))"
    case .unknownProduct(let field, let product, let suggestions):
      return "field '\(Self.shown(field))': unknown product '\(Self.shown(product))' (not in the catalog"
        + Diagnostic.didYouMean(suggestions, separator: "; ") + ")"
    case .unknownCurrency(let currency, let suggestions):
      return "field 'currency': unknown currency '\(Self.shown(currency))' (no consumable in the catalog grants it"
        + Diagnostic.didYouMean(suggestions, separator: "; ") + ")"
    case .lineTooLong(let bytes, let limit):
      return "line is \(bytes) bytes, more than the limit of \(limit)"
    default: preconditionFailure("\(problem) is not worded by lineMessage")
    }
  }

  /// A log-wide rule an event breaks, or a warning about what an event or a question means.
  private var ruleMessage: String {
    switch problem {
    case .idConflict(let id, let firstLine, let firstFile, let differing):
      let fields = differing.isEmpty ? "" : " (it differs in " + differing.joined(separator: ", ") + ")"
      return
        "field 'id': id conflict: '\(Self.shown(id))' was first used on line \(firstLine)\(Diagnostic.of(firstFile)) for a different event\(fields)"
    case .ownerChain(let field, let unit, let detail):
      return "field '\(Self.shown(field))': owner chain of '\(Self.shown(unit))': \(Self.shown(detail))"
    case .transactionReused(let transaction, let firstLine, let firstFile):
      return
        "field 'transaction': transaction '\(Self.shown(transaction))' was already charged by the event on line \(firstLine)\(Diagnostic.of(firstFile))"
    case .overdraw(let currency, let balance, let quantity):
      return
        "field 'quantity': overdraw: spending \(quantity) \(Self.shown(currency)) with a balance of \(balance) just before it"
    case .balanceMovementLimit(let currency, let moved, let delta, let limit):
      return "balance limit: this event moves the subject's '\(Self.shown(currency))' balance by \(delta) after \(moved) already moved; "
        + "a balance may move at most \(limit) in all (credits, spends and refunds counted as positive)"
    case .tooManyEvents(let subject, let limit):
      return "subject '\(Self.shown(subject))' has more than \(limit) events (the per-subject limit)"
    case .tornLastLine(let bytes):
      return
        "torn last line (\(Plural.counted(bytes, "byte")) without a final newline) ignored; run 'storeledger repair' to move it aside"
    case .unknownReference(let field, let value):
      return
        "field '\(Self.shown(field))': '\(Self.shown(value))' has no purchase or renewal for this subject at this point; the event changes nothing"
    case .ignoredInState(let type, let state):
      return "'\(Self.shown(type))' in state '\(Self.shown(state))' changes nothing"
    case .subjectWithoutEvents(let hint):
      return "subject '\(Self.shown(hint.name))' has no events in the log, so the answer is empty"
        + Diagnostic.didYouMean(hint.suggestions, separator: "; ")
    case .subjectsWithoutEvents(let queries, let shown, let more):
      let subjects = shown.map { "'\(Self.shown($0.name))'" + Diagnostic.didYouMean($0.suggestions, separator: " (", closing: ")") }
      return "\(queries) quer\(queries == 1 ? "y names a subject" : "ies name subjects") with no events in the log, "
        + "so \(queries == 1 ? "its answer is" : "their answers are") empty: " + subjects.joined(separator: ", ")
        + (more > 0 ? ", and \(more) more quer\(more == 1 ? "y" : "ies")" : "")
    case .leak(let id, let feature, let at, let tier, let used, let limit):
      let why = tier.map { "tier '\($0)' had used \(used) of \(limit.map(String.init) ?? "unlimited")" }
        ?? "no tier the subject was in offers it"
      return "field 'feature': leak: usage '\(Self.shown(id))' of '\(Self.shown(feature))' at \(at) was not allowed (\(why))"
    default: preconditionFailure("\(problem) is not worded by ruleMessage")
    }
  }

  /// A log that cannot be written to (or read) as it stands.
  private var logFileMessage: String {
    switch problem {
    case .tornLineBlocksAppend:
      return "the log ends in a torn line; run 'storeledger repair' before appending"
    case .logShrank(let bytes, let known):
      return "the log has \(Plural.counted(bytes, "byte")) but this open ledger had read \(known): it was truncated or repaired since; open it again"
    case .foreignIntentRecord(let record, let reason, let log):
      return "the append intent record '\(Self.shown(record))' does not describe this log: \(reason); "
        + "readers ignore it and writers refuse to write until it is discarded: "
        + "storeledger repair \(Self.shown(log)) --discard-intent"
    case .logHasSeveralNames(let links):
      return "the log has \(links) names (hard links); its crash-recovery record is kept beside one name, "
        + "so StoreLedger writes only to a log with one name: remove the other links "
        + "(find them with 'find / -samefile LOG') or append to a copy"
    case .lockBusy(let holder, let waitedSeconds):
      return "another process holds the log's lock (\(holder)); gave up after waiting \(waitedSeconds) s "
        + "(--wait sets the limit)"
    case .tooManyLines(let limit):
      return "the log has more than \(limit) lines"
    case .notJSONLines(let what):
      return "not a JSON Lines log: \(Self.worded(what)); a log holds one event per line, each a JSON object "
        + "(Docs/log-format.md)"
    default: preconditionFailure("\(problem) is not worded by logFileMessage")
    }
  }

  /// Files, catalogs, command lines, snapshots, reports and imports.
  private var commandMessage: String {
    switch problem {
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
    case .unknownSubject(let hint):
      return "no event in the log names subject '\(Self.shown(hint.name))'"
        + Diagnostic.didYouMean(hint.suggestions, separator: "; ")
    case .snapshotMismatch(let detail):
      return detail
    case .reportValueOutOfRange(let name, let bucketStart, let limit):
      return "report: '\(Self.shown(name))' of the bucket starting \(bucketStart) would pass \(limit) (by magnitude), "
        + "the most a report's count or sum may hold; report smaller buckets (--every day) or fewer subjects"
    case .importFailed(let detail):
      return detail
    default: preconditionFailure("\(problem) is not worded by commandMessage")
    }
  }

  /// App Store signature verification (Docs/verification.md).
  private var signatureMessage: String {
    switch problem {
    case .signatureRejected(let place, let check):
      return "\(place): signature check '\(check.name)' failed: \(check.detail)"
    case .unsignedPayload(let place):
      return "\(place) is a decoded payload, not Apple's signed JWS, so it cannot be verified; "
        + "import the signed form (signedPayload, signedTransactionInfo), or pass --no-verify to import it unverified"
    case .noTrustedRoot(let fingerprint):
      return "the input holds signed App Store data but no root certificate is configured to verify it: "
        + "download Apple Root CA - G3 (AppleRootCA-G3.cer) from https://www.apple.com/certificateauthority/, "
        + "check that its SHA-256 fingerprint is \(fingerprint), and pass --root AppleRootCA-G3.cer "
        + "(or set STORELEDGER_APPLE_ROOT); see Docs/verification.md"
    case .badRootCertificate(let path, let reason):
      return "--root \(path): not a DER or PEM certificate this verifier can use: \(reason)"
    case .rootNotApple(let path, let sha256, let apple):
      return "--root \(path) is not Apple Root CA - G3 (SHA-256 \(sha256), Apple's is \(apple)): "
        + "only payloads signed under this root will verify; fine for a test CA, wrong for real App Store data"
    default: preconditionFailure("\(problem) is not worded by signatureMessage")
    }
  }

  /// The index beside a log (Docs/index.md).
  private var indexMessage: String {
    switch problem {
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
    default: preconditionFailure("\(problem) is not worded by indexMessage")
    }
  }

  /// Questions and streams of the library API, and diagnostics made by its users.
  private var libraryMessage: String {
    switch problem {
    case .unknownFeature(let feature, let features):
      return "'\(feature)' is not a feature of the catalog's policy (\(features.joined(separator: ", ")))"
        + Diagnostic.didYouMean(NearMatch.suggestions(for: feature, among: features), separator: "; ")
    case .unknownRefundRequest(let named, let nearest):
      return "no refund_requested event \(named) in the log"
        + (named.hasPrefix("of transaction")
          ? (nearest.isEmpty ? "" : "; its requests are at " + nearest.joined(separator: ", "))
          : Diagnostic.didYouMean(nearest, separator: "; "))
    case .evidenceWithoutCharge(let request, let transaction, let recorded):
      return "refund request '\(request)': the ledger knew no purchase or renewal of transaction '\(transaction)' effective before the request and recorded by \(recorded), so there is no evidence to give"
    case .noPolicy(let what):
      return "\(what) needs a catalog with a 'policy' (tiers and features); this catalog has none"
    case .cacheAfterAnswer(let verifiedAt, let at):
      return "the cached answer was verified at \(verifiedAt), after the time asked about (\(at)): an app cannot have verified in the future"
    case .commitsDropped(let limit):
      return "the change stream's reader fell more than \(limit) batches behind; read the ledger again and start a new stream"
    case .external(_, let message):
      return message
    default: preconditionFailure("\(problem) is not worded by libraryMessage")
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
    case .firstBlockChanged: return "the first bytes it covers changed: the log was edited or replaced"
    case .catalogChanged: return "it was checked with another catalog"
    case .catalogUnknown: return "the catalog was read from stdin"
    case .damaged(let detail): return "damaged: \(detail)"
    case .tailTooLong(let bytes, let limit):
      return "\(bytes) bytes were appended without updating it, more than \(limit)"
    case .prefixDigestMismatch:
      return "the covered prefix's digest does not match: the log was edited before its end"
    case .otherFormat(let format):
      return "its manifest is in format \(Diagnostic.shown(format)), written by another version"
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

  /// The most UTF-8 bytes of one message (values in it are clipped to `TerminalText.valueBytesMax` each).
  static let messageBytesMax = 2000

  /// A value from a log, catalog or payload as a message quotes it: escaped and clipped (`TerminalText`).
  static func shown(_ value: String) -> String { TerminalText.clipped(value) }

  /// What a file that is not JSON Lines looks like, and what to do about it when that is plain.
  static func worded(_ what: ForeignInput) -> String {
    func lines(_ failed: Int, whole: Bool) -> String {
      whole ? (failed == 1 ? "its only line is not JSON" : "none of its \(failed) lines is JSON")
        : "none of its first \(failed) lines is JSON"
    }
    switch what {
    case .binary(let failed, let whole):
      return "it holds binary data (NUL bytes) and \(lines(failed, whole: whole))"
    case .text(let failed, let firstError):
      return "\(lines(failed, whole: false)) (\(firstError))"
    case .signature(let signature):
      switch signature {
      case .gzip: return "it is gzip-compressed; decompress it first (gunzip)"
      case .zip: return "it is a zip archive; extract the log from it first (unzip)"
      case .xz: return "it is xz-compressed; decompress it first (unxz)"
      case .zstd: return "it is zstd-compressed; decompress it first (unzstd)"
      case .bzip2: return "it is bzip2-compressed; decompress it first (bunzip2)"
      case .png: return "it is a PNG image"
      case .jpeg: return "it is a JPEG image"
      case .gif: return "it is a GIF image"
      case .pdf: return "it is a PDF document"
      case .sqlite: return "it is an SQLite database"
      case .elf: return "it is an executable (ELF)"
      case .utf16LE, .utf16BE: return "it is UTF-16 text; save it as UTF-8"
      }
    }
  }

  /// ` of FILE` when a line number refers to another file than the diagnostic's.
  static func of(_ file: String?) -> String { file.map { " of \($0)" } ?? "" }

  /// `; did you mean 'a' or 'b'?` after `separator`, or nothing when there is no suggestion.
  static func didYouMean(_ suggestions: [String], separator: String, closing: String = "") -> String {
    guard let last = suggestions.last else { return "" }
    let quoted = suggestions.dropLast().map { "'\(shown($0))'" }
    let list = quoted.isEmpty ? "'\(shown(last))'" : quoted.joined(separator: ", ") + " or '\(shown(last))'"
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
