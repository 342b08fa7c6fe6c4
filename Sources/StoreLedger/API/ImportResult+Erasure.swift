import StoreLedgerCore
import StoreLedgerImport

/// What an import leaves out for the ledger's erasures (Docs/erasure.md, "Nothing comes back").
extension ImportResult {
  /// The result without the events and kept documents that name an erased subject or store
  /// token anywhere (any string value, at any depth: `subject`, `meta.purchaseToken`, a Google
  /// Play `original_transaction`, an `obfuscatedExternalAccountId`), with a warning counting them.
  /// - Complexity: O(strings in the result) keyed digests.
  package func withoutErased(_ registry: ErasureRegistry?, file: String) -> ImportResult {
    guard let registry, !registry.marks.isEmpty else { return self }
    func erased(_ line: String) -> Bool {
      guard let value = try? JSONValue.parse(line) else { return false }
      return Self.names(value, registry)
    }
    var kept = self
    kept.eventLines = eventLines.filter { !erased($0) }
    kept.documentLines = documentLines.filter { !erased($0) }
    let events = eventLines.count - kept.eventLines.count
    let documents = documentLines.count - kept.documentLines.count
    if events + documents > 0 {
      kept.warnings.append(
        Diagnostic(
          file: file,
          .importFailed(
            "\(Plural.counted(events, "event")) and \(Plural.counted(documents, "document")) of erased customers "
              + "not imported (see Docs/erasure.md)"),
          severity: .warning))
    }
    return kept
  }

  /// Whether some string in `value` is erased.
  static func names(_ value: JSONValue, _ registry: ErasureRegistry) -> Bool {
    switch value {
    case .string(let text): return registry.isErased(text)
    case .array(let items): return items.contains { names($0, registry) }
    case .object(let members): return members.contains { names($0.1, registry) }
    default: return false
    }
  }
}
