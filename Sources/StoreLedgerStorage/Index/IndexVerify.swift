import StoreLedgerCore

extension LogIndex {
  /// What only `check` verifies: the whole covered prefix against the chained digest, and every
  /// page of every segment; plus the checks of every open. Returns a warning for an index that
  /// does not describe the log (nothing when there is no index or it checks out).
  /// - Complexity: O(covered prefix + index size).
  package static func verify(logPath: String, catalog: Catalog) -> [Diagnostic] {
    func warning(_ issue: IndexIssue) -> [Diagnostic] { [Diagnostic(file: logPath, .indexMismatch(issue), severity: .warning)] }
    do {
      let log = try PlatformFile(path: logPath, mode: .read)
      let length = try AppendIntent.visibleLength(of: log, logPath: logPath).length
      switch open(logPath: logPath, log: log, length: length, catalog: catalog) {
      case .absent: return []
      case .unusable(let issue): return warning(issue)
      case .usable(let opened):
        let manifest = opened.manifest
        guard let chained = try PrefixDigest.extend(PrefixDigest.emptyChain, from: 0, to: manifest.coveredBytes, of: log),
          chained.bytes == manifest.chainBytes, chained.chain == manifest.chain
        else { return warning(.prefixDigestMismatch) }
        for segment in opened.segments {
          var offset: Int64 = 0
          while offset < segment.header.dataBytes {
            let count = Int(min(1 << 20, segment.header.dataBytes - offset))
            _ = try segment.data(at: offset, count: count)
            offset += Int64(count)
          }
        }
        return []
      }
    } catch let damage as IndexDamage {
      return warning(.damaged(damage.reason))
    } catch {
      return warning(.damaged("\(error)"))
    }
  }
}
