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
  case unknownCurrency(currency: String, suggestions: [String])
  // Log-wide rules.
  case idConflict(id: String, firstLine: Int, firstFile: String? = nil, differing: [String] = [])
  case transactionReused(transaction: String, firstLine: Int, firstFile: String? = nil)
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
  /// A command asked about a subject the log has no event for.
  case unknownSubject(String)
  // Snapshots and diffs.
  case snapshotMismatch(String)
  // Reports.
  case reportValueOutOfRange(name: String, bucketStart: String, limit: Int64)
  case importFailed(String)
  // The per-subject index (Docs/index.md): warnings only, an answer never depends on it.
  case indexNotUsed(IndexIssue)
  case indexNotUpdated(IndexIssue)
  case indexBuilt(IndexIssue)
  case indexMismatch(IndexIssue)
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
    case .usage, .noTrustedRoot: return 64
    case .fileNotFound, .defaultCatalogNotFound, .goldenNotFound, .cannotRead, .unknownSubject: return 66
    case .cannotWrite: return 74
    case .lockBusy: return 75
    default: return 65
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

  /// The wording of the problem.
  public var message: String {
    switch problem {
    case .invalidJSON(let detail):
      return "invalid JSON: \(detail)"
    case .unknownField(let name):
      if Diagnostic.appStoreKeys.contains(name) {
        return "unknown field '\(Self.shown(name))': this looks like an App Store payload, not a ledger event; "
          + "use 'storeledger import appstore' to turn it into events"
      }
      let suggestion = NearMatch.closest(name, among: Field.allCases.map(\.name) + ["as_of"])
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
    case .unknownEventType(let found):
      let name = found.trimmingCharacters(of: "\"")
      if ["refund", "refunded", "refunds"].contains(name.trimmingWhitespace().lowercased()) {
        return "field 'type': unknown event type \(Self.shown(found)); a refund is a 'revocation' with \"reason\": \"refund\""
      }
      return
        "field 'type': unknown event type \(Self.shown(found))"
        + Diagnostic.didYouMean(NearMatch.suggestions(for: name, among: EventKind.allNames), separator: " (", closing: ")")
        + "; expected one of \(EventKind.allNames.joined(separator: ", "))"
    case .unknownProduct(let field, let product, let suggestions):
      return "field '\(Self.shown(field))': unknown product '\(Self.shown(product))' (not in the catalog"
        + Diagnostic.didYouMean(suggestions, separator: "; ") + ")"
    case .unknownCurrency(let currency, let suggestions):
      return "field 'currency': unknown currency '\(Self.shown(currency))' (no consumable in the catalog grants it"
        + Diagnostic.didYouMean(suggestions, separator: "; ") + ")"
    case .lineTooLong(let bytes, let limit):
      return "line is \(bytes) bytes, more than the limit of \(limit)"
    case .idConflict(let id, let firstLine, let firstFile, let differing):
      let fields = differing.isEmpty ? "" : " (it differs in " + differing.joined(separator: ", ") + ")"
      return
        "field 'id': id conflict: '\(Self.shown(id))' was first used on line \(firstLine)\(Diagnostic.of(firstFile)) for a different event\(fields)"
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
      return "no event in the log names subject '\(Self.shown(subject))'"
    case .snapshotMismatch(let detail):
      return detail
    case .reportValueOutOfRange(let name, let bucketStart, let limit):
      return "report: '\(Self.shown(name))' of the bucket starting \(bucketStart) would pass \(limit) (by magnitude), "
        + "the most a report's count or sum may hold; report smaller buckets (--every day) or fewer subjects"
    case .importFailed(let detail):
      return detail
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

  /// The most UTF-8 bytes of one message (values in it are clipped to `TerminalText.valueBytesMax` each).
  static let messageBytesMax = 2000

  /// A value from a log, catalog or payload as a message quotes it: escaped and clipped (`TerminalText`).
  static func shown(_ value: String) -> String { TerminalText.clipped(value) }

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
