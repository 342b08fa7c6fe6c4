import StoreLedgerCore

/// The subjects the index beside a log points at for a term (`storeledger find`): those whose id
/// contains it, and those whose covered lines hold it as an event id or a charged transaction.
///
/// Candidates only: fingerprints can collide, and the unindexed tail is not in the index, so the
/// caller loads them through `IndexedLedger` (which adds every subject of the tail) and checks
/// each match on the events themselves.
package enum IndexSearch {
  /// The candidate subjects, at most `subjectsMax` of them (then `isFull`); nil when there is
  /// no usable index (none, another log's, another catalog's, damaged).
  /// - Complexity: O(subjects of the index) page reads for the id substring, O(segments × log(index)) for the ids.
  package static func candidates(
    logPath: String, catalog: Catalog, term: String, subjectsMax: Int
  ) -> (subjects: [String], isFull: Bool)? {
    guard let log = try? PlatformFile(path: logPath, mode: .read),
      let length = try? AppendIntent.visibleLength(of: log, logPath: logPath).length,
      case .usable(let opened) = LogIndex.open(logPath: logPath, log: log, length: length, catalog: catalog)
    else { return nil }
    var names: [String] = []
    var seen = Set<String>()
    var isFull = false
    func keep(_ name: String) {
      guard !seen.contains(name) else { return }
      guard names.count < subjectsMax else {
        isFull = true
        return
      }
      seen.insert(name)
      names.append(name)
    }
    do {
      let key = IndexHash.fingerprint(term)
      let owners = Set(try opened.owners(.ids, key: key) + opened.owners(.charges, key: key))
      for segment in opened.segments {
        for owner in owners { for block in try segment.subjects(fingerprint: owner) { keep(String(decoding: block.name, as: UTF8.self)) } }
      }
      let termBytes = Array(term.utf8)
      try opened.forEachSubjectName { name in
        if SubjectFinder.contains(name[...], termBytes) { keep(String(decoding: name, as: UTF8.self)) }
      }
    } catch {
      return nil
    }
    return (names, isFull)
  }
}
