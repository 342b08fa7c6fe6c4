import StoreLedgerCore

/// What App Store signed data is verified against: the trusted roots and the optional app
/// checks of Apple's `SignedDataVerifier` (Docs/verification.md).
package struct AppStoreTrust: Sendable {
  /// The SHA-256 fingerprint of Apple Root CA - G3 (DER), the root of every App Store signature.
  package static let appleRootCAG3SHA256 = "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179"

  /// The configured roots; an intermediate must be issued by one of them (never by `x5c[2]`).
  package var roots: [X509Certificate]
  /// When set, transactions and notifications must name this `bundleId`.
  package var bundleId: String?
  /// When set, Production notifications must name this `appAppleId`.
  package var appAppleId: Int64?
  /// Validate every certificate at this instant instead of each payload's `signedDate` (tests
  /// use it to show an old payload fails once its leaf has expired).
  package var validationTimeOverrideMs: Int64?

  /// Trust in `roots`, with optional app checks.
  package init(roots: [X509Certificate], bundleId: String? = nil, appAppleId: Int64? = nil) {
    self.roots = roots
    self.bundleId = bundleId
    self.appAppleId = appAppleId
  }

  /// Reads a root certificate given as DER or as PEM (`-----BEGIN CERTIFICATE-----`).
  /// Fails with the reason when the bytes are neither, or not a certificate this verifier can
  /// use (ECDSA, P-256 or P-384).
  /// - Complexity: O(n) in the file's size.
  package static func certificate(fromFile bytes: [UInt8]) -> Result<X509Certificate, DERError> {
    var der = bytes
    let begin = Array("-----BEGIN CERTIFICATE-----".utf8)
    let end = Array("-----END CERTIFICATE-----".utf8)
    if let start = firstIndex(of: begin, in: bytes, from: 0) {
      guard let stop = firstIndex(of: end, in: bytes, from: start + begin.count) else {
        return .failure(.unsupported("a PEM certificate without its END line"))
      }
      // Base64 with its line breaks (and any other whitespace) removed.
      let body = bytes[(start + begin.count)..<stop].filter { $0 > 32 }
      guard let decoded = JWS.base64URLDecode(body), !decoded.isEmpty else {
        return .failure(.unsupported("the PEM body is not base64"))
      }
      der = decoded
    } else if bytes.starts(with: Array("-----BEGIN".utf8)) {
      return .failure(.unsupported("a PEM file without a CERTIFICATE block"))
    }
    do {
      return .success(try X509Certificate(der: der))
    } catch {
      return .failure(error)
    }
  }

  /// Where `needle` first occurs in `bytes` at or after `from`.
  /// - Complexity: O(n·m).
  private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
    guard bytes.count >= needle.count, from <= bytes.count - needle.count else { return nil }
    return (from...(bytes.count - needle.count)).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
  }

  /// The lower-case hexadecimal SHA-256 of a certificate's DER, as certificate pages print it.
  package static func fingerprint(_ certificate: X509Certificate) -> String {
    SHA256.hash(certificate.encoded).hex
  }
}

/// How an App Store import treats signatures.
package enum AppStoreVerification: Sendable {
  /// Every payload must be a JWS that verifies under `AppStoreTrust` (the default of the CLI).
  case verify(AppStoreTrust)
  /// Nothing is verified (`--no-verify`); decoded payloads are accepted too.
  case skip
}
