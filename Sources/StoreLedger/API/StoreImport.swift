import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage

/// The deciding half of an import, one for `LedgerStore.importAppStore` / `importGooglePlay`
/// and `storeledger import`: the store's importer run on the payloads against what the log
/// already knows, then everything naming an erased customer left out. The caller commits the
/// result (an append, a file, stdout) and, for Google Play into a log, holds the kept documents'
/// lock around both halves (`GooglePlayDocumentFile.importing`).
package enum StoreImport {
  /// Which store the payloads come from.
  package enum Source: Sendable {
    /// The App Store.
    case appStore
    /// Google Play.
    case googlePlay
  }

  /// Which store's importer reads the payloads, with its options
  /// (`StoreImportOptions.importer(_:importedAt:)` makes one).
  package enum Importer {
    /// App Store payloads.
    case appStore(AppStoreImportOptions)
    /// Google Play payloads.
    case googlePlay(GooglePlayImportOptions)
  }

  /// The events `payloads` (named `file` in diagnostics) add to what the log at `logPath` knows
  /// (`knowledge`, and for Google Play the documents kept beside it, `keptDocuments`: an import
  /// adds only new facts, Docs/import-googleplay.md), without those of
  /// the customers erased from it (Docs/erasure.md, "Nothing comes back"). A nil `logPath` is no
  /// log on disk (an in-memory ledger, `--out`, stdout): nothing was erased from it.
  /// - Throws: every problem in the payloads; a damaged erasure record.
  /// - Complexity: O(payloads + kept documents).
  package static func result(
    _ payloads: String, file: String, importer: Importer, keptDocuments: [UInt8] = [], catalog: Catalog,
    knowledge: LedgerKnowledge, logPath: String?
  ) throws(DiagnosticList) -> ImportResult {
    let erased: ErasureRegistry?
    do throws(Diagnostic) {
      erased = try logPath.flatMap { (log) throws(Diagnostic) in try ErasureRegistry.read(log: log) }
    } catch {
      throw DiagnosticList([error])
    }
    let result: ImportResult
    switch importer {
    case .appStore(let options):
      result = try AppStoreImporter.importEvents(payloads, file: file, catalog: catalog, options: options, knowledge: knowledge)
    case .googlePlay(let options):
      result = try GooglePlayImporter.importEvents(
        payloads, file: file, catalog: catalog, options: options, knowledge: knowledge, documentStore: keptDocuments)
    }
    return result.withoutErased(erased, file: file)
  }
}
