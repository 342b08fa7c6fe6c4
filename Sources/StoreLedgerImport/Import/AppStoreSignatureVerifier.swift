import StoreLedgerCore

/// Verifies App Store signed data (JWS, ES256, an `x5c` chain to a configured root) with the
/// checks of Apple's `SignedDataVerifier`, in the order Docs/verification.md lists them.
///
/// One verifier serves one import: it keeps the certificates it has read and the chains it
/// has checked (the same few certificates sign every payload), and counts what it verified.
/// Not shared between threads.
final class AppStoreSignatureVerifier {
  /// The roots and app checks.
  let trust: AppStoreTrust
  /// JWS whose every check passed.
  private(set) var verifiedSignatures = 0
  /// Indices into `trust.roots` of the roots that issued a verified chain.
  private(set) var rootsUsed: Set<Int> = []
  /// Whether the import already said that no root is configured.
  var reportedMissingRoot = false
  /// Certificates read so far, by their `x5c` text.
  private var certificates: [String: Result<X509Certificate, DERError>] = [:]
  /// Chains checked so far (the time-independent part), by leaf and intermediate `x5c` text.
  private var chains: [String: Result<Int, SignatureCheck>] = [:]

  /// Extensions whose meaning this verifier checks; any other critical extension is refused.
  private static let understood: Set<DERObjectID> = [
    X509Certificate.OID.basicConstraints, X509Certificate.OID.keyUsage, leafMarker, intermediateMarker,
  ]
  /// Apple's marker of a certificate that signs App Store data (on the leaf).
  static let leafMarker = DERObjectID("1.2.840.113635.100.6.11.1")
  /// Apple's marker of the WWDR intermediate that issues those leaves.
  static let intermediateMarker = DERObjectID("1.2.840.113635.100.6.2.1")

  /// A verifier for one import.
  init(trust: AppStoreTrust) { self.trust = trust }

  /// The decoded payload of `text` when every check passes, or the first check that fails.
  /// - Complexity: O(n) in the length of `text`, plus one ES256 verification; the first
  ///   payload of each chain adds two certificate signature verifications.
  func verify(_ text: String) -> Result<JSONValue, SignatureCheck> {
    let parts: JWS.Parts
    switch JWS.parts(text) {
    case .success(let split): parts = split
    case .failure(let failure): return .failure(.notJWS(failure.detail))
    }
    guard let algorithm = parts.header["alg"], algorithm == .string("ES256") else {
      return .failure(.algorithm(found: parts.header["alg"].map(JSONWriter.compact) ?? "absent"))
    }
    guard case .array(let chainValues)? = parts.header["x5c"], chainValues.count == 3,
      let leafText = chainValues[0].stringValue, let intermediateText = chainValues[1].stringValue,
      chainValues[2].stringValue != nil
    else {
      let found = parts.header["x5c"].map { value -> String in
        if case .array(let items) = value { return "\(items.count) entr\(items.count == 1 ? "y" : "ies")" }
        return value.kindName
      }
      return .failure(.certificateCount(found: found ?? "no 'x5c'"))
    }
    let leaf: X509Certificate
    let intermediate: X509Certificate
    switch (certificate(leafText), certificate(intermediateText)) {
    case (.success(let first), .success(let second)): (leaf, intermediate) = (first, second)
    case (.failure(let error), _): return .failure(.unreadableCertificate(index: 0, reason: error.reason))
    case (_, .failure(let error)): return .failure(.unreadableCertificate(index: 1, reason: error.reason))
    }
    if let failure = checkSignature(parts, leaf: leaf) { return .failure(failure) }
    let chainKey = leafText + "." + intermediateText
    let chain = chains[chainKey] ?? checkChain(leaf: leaf, intermediate: intermediate)
    if chains.count < Limits.importCertificateCacheMax { chains[chainKey] = chain }
    let rootIndex: Int
    switch chain {
    case .success(let index): rootIndex = index
    case .failure(let failure): return .failure(failure)
    }
    if let failure = checkValidity(parts.payload, leaf, intermediate, trust.roots[rootIndex]) {
      return .failure(failure)
    }
    if let failure = checkApp(parts.payload) { return .failure(failure) }
    verifiedSignatures += 1
    rootsUsed.insert(rootIndex)
    return .success(parts.payload)
  }

  /// The certificate an `x5c` entry (standard base64 DER) holds, read once per import.
  private func certificate(_ text: String) -> Result<X509Certificate, DERError> {
    if let known = certificates[text] { return known }
    let result: Result<X509Certificate, DERError>
    if let der = JWS.base64URLDecode(text.utf8) {
      result = Result { () throws(DERError) in try X509Certificate(der: der) }
    } else {
      result = .failure(.unsupported("not base64"))
    }
    // Bounded: a hostile input could carry a new certificate in every JWS.
    if certificates.count < Limits.importCertificateCacheMax { certificates[text] = result }
    return result
  }

  /// The ES256 signature over the exact `header.payload` text, under the leaf's P-256 key.
  private func checkSignature(_ parts: JWS.Parts, leaf: X509Certificate) -> SignatureCheck? {
    guard parts.signature.count == 64 else { return .signatureLength(bytes: parts.signature.count) }
    guard leaf.publicKey.curve.name == EllipticCurve.p256.name else {
      return .leafKeyNotP256(curve: leaf.publicKey.curve.name)
    }
    let digest = SHA256.hash(parts.signingInput).bytes
    return leaf.publicKey.isValidRawSignature(parts.signature, digest: digest) ? nil : .signature
  }

  /// Everything about the chain that does not depend on time: extensions, constraints, and
  /// the two certificate signatures (intermediate by a configured root, leaf by the
  /// intermediate). The index of the root on success.
  private func checkChain(leaf: X509Certificate, intermediate: X509Certificate) -> Result<Int, SignatureCheck> {
    guard leaf.extension(Self.leafMarker) != nil else {
      return .failure(.missingMarker(certificate: "leaf", oid: Self.leafMarker.description))
    }
    guard intermediate.extension(Self.intermediateMarker) != nil else {
      return .failure(.missingMarker(certificate: "intermediate", oid: Self.intermediateMarker.description))
    }
    for (certificate, name) in [(leaf, "leaf"), (intermediate, "intermediate")] {
      if let failure = checkExtensions(certificate, name: name, isCA: name != "leaf", below: 0) {
        return .failure(failure)
      }
    }
    guard let rootIndex = trust.roots.indices.first(where: { index in
      let root = trust.roots[index]
      return intermediate.issuer.elementsEqual(root.subject) && intermediate.isSigned(by: root.publicKey)
    }) else {
      return .failure(.intermediateNotFromRoot(roots: trust.roots.count))
    }
    if let failure = checkExtensions(trust.roots[rootIndex], name: "root", isCA: true, below: 1) {
      return .failure(failure)
    }
    guard leaf.issuer.elementsEqual(intermediate.subject), leaf.isSigned(by: intermediate.publicKey) else {
      return .failure(.leafNotFromIntermediate)
    }
    return .success(rootIndex)
  }

  /// Critical extensions, basicConstraints and keyUsage of one certificate. `below` is how many
  /// CA certificates follow it down the chain (its path length must allow them).
  private func checkExtensions(_ certificate: X509Certificate, name: String, isCA: Bool, below: Int)
    -> SignatureCheck?
  {
    if let unknown = certificate.extensions.first(where: { $0.isCritical && !Self.understood.contains($0.id) }) {
      return .unknownCriticalExtension(certificate: name, oid: unknown.id.description)
    }
    do {
      let constraints = try certificate.basicConstraints()
      let usage = try certificate.keyUsage()
      if isCA {
        guard let constraints, constraints.isCA else {
          return .constraints(certificate: name, .notCA)
        }
        if let limit = constraints.pathLength, limit < below {
          return .constraints(certificate: name, .pathLength(limit: limit, below: below))
        }
        if let usage, !usage.keyCertSign {
          return .constraints(certificate: name, .keyUsage(needed: "keyCertSign"))
        }
      } else {
        if let constraints, constraints.isCA {
          return .constraints(certificate: name, .isCA)
        }
        if let usage, !usage.digitalSignature {
          return .constraints(certificate: name, .keyUsage(needed: "digitalSignature"))
        }
      }
    } catch {
      return .constraints(certificate: name, .malformed(reason: error.reason))
    }
    return nil
  }

  /// Every certificate valid at the payload's `signedDate` (or the configured override);
  /// both ends inclusive (RFC 5280 §4.1.2.5).
  private func checkValidity(_ payload: JSONValue, _ certificates: X509Certificate...) -> SignatureCheck? {
    let instant: Int64
    if let pinned = trust.validationTimeOverrideMs {
      instant = pinned
    } else if case .integer(let signedDate)? = payload["signedDate"] {
      instant = signedDate
    } else {
      return .signedDate
    }
    for (certificate, name) in zip(certificates, ["leaf", "intermediate", "root"])
    where instant < certificate.notBeforeMs || instant > certificate.notAfterMs {
      return .validity(
        certificate: name, atMs: instant, notBeforeMs: certificate.notBeforeMs, notAfterMs: certificate.notAfterMs)
    }
    return nil
  }

  /// `--bundle-id` and `--app-apple-id`, where Apple's verifier checks them: a transaction's
  /// `bundleId`; a notification's `bundleId`, and its `appAppleId` in Production.
  private func checkApp(_ payload: JSONValue) -> SignatureCheck? {
    guard trust.bundleId != nil || trust.appAppleId != nil else { return nil }
    let holder: JSONValue?
    if payload["notificationType"] != nil {
      holder = ["data", "summary", "appData", "externalPurchaseToken"].lazy.compactMap { payload[$0] }.first
    } else if payload["transactionId"] != nil {
      holder = payload
    } else {
      return nil  // renewal info names no app
    }
    if let expected = trust.bundleId, holder?["bundleId"] != .string(expected) {
      return .bundleId(expected: expected, found: holder?["bundleId"].map(JSONWriter.compact) ?? "absent")
    }
    if let expected = trust.appAppleId, payload["notificationType"] != nil,
      holder?["environment"] == .string(AppStoreEnvironment.production),
      holder?["appAppleId"] != .integer(expected)
    {
      return .appAppleId(expected: expected, found: holder?["appAppleId"].map(JSONWriter.compact) ?? "absent")
    }
    return nil
  }
}
