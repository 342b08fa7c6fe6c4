import StoreLedgerCore

extension Limits {
  /// Longest JWS the App Store importer decodes, in bytes; a longer one is an import error.
  ///
  /// Apple's signed transactions are about 3 KB (most of it the x5c certificate chain);
  /// 1 MiB leaves room for anything Apple adds without letting one value exhaust memory.
  package static let importJWSBytesMax = 1024 * 1024
  /// Most payloads (notifications, transactions, status entries) one import reads; more is an
  /// import error asking to split the input.
  package static let importPayloadsMax = 10_000_000
  /// Longest base64 text the Google Play importer decodes (Pub/Sub `message.data`), in bytes.
  ///
  /// A developer notification is a few hundred bytes; 1 MiB bounds memory without ever
  /// refusing real data.
  package static let importEncodedBytesMax = 1024 * 1024
  /// Most certificates (and leaf–intermediate chains) one App Store import remembers having
  /// checked; Apple uses a handful, so more only means re-checking, never an error.
  package static let importCertificateCacheMax = 1024
}
