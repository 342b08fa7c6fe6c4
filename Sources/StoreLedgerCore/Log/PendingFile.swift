import Synchronization

/// A file written under a temporary name in its target's directory and renamed over the
/// target only when complete: readers see the old file or the whole new one, and a failed
/// or interrupted write leaves no partial file (the temporary is removed when the value
/// goes away uncommitted; a crash can leave only a `.NAME.tmp-*` file beside the target).
package final class PendingFile {
  /// The file being written (the temporary).
  package let file: PlatformFile
  /// Where it goes when committed.
  package let path: String
  /// The temporary name.
  package let temporaryPath: String
  private var committed = false
  private static let counter = Atomic<Int>(0)

  /// Checks that `path` may be written, then creates the temporary beside it.
  ///
  /// Refuses (exit 64) a target that is one of the files `inUse` (the log or catalog being
  /// read, whatever path names them), anything that is not a regular file (directory,
  /// symbolic link, device), and an existing file unless `force`.
  package init(replacing path: String, force: Bool, inUse: [String] = []) throws(Diagnostic) {
    try PendingFile.checkTarget(path, force: force, inUse: inUse)
    let directory = PlatformFile.directory(of: path)
    let name = path.split(separator: "/").last.map(String.init) ?? path
    var attempt = 0
    while true {
      let serial = PendingFile.counter.wrappingAdd(1, ordering: .relaxed).oldValue
      let candidate = directory + "/." + name + ".tmp-\(PlatformFile.processID())-\(serial)"
      do {
        file = try PlatformFile(path: candidate, mode: .createExclusive)
        temporaryPath = candidate
        break
      } catch {
        attempt += 1
        if attempt > 16 || PlatformFile.entryKind(candidate) == .missing {
          // Name the file the user asked for, not the temporary, and a missing folder by its name.
          guard case .cannotWrite(_, let reason) = error.problem else { throw error }
          throw Diagnostic(.cannotWrite(path: path, reason: PendingFile.folderProblem(directory) ?? reason))
        }
      }
    }
    self.path = path
  }

  /// Why `directory` cannot hold a new file when it is the folder's fault: it does not exist or is
  /// not a folder (the system's "No such file or directory" does not say which part is missing).
  static func folderProblem(_ directory: String) -> String? {
    switch PlatformFile.entryKind(directory) {
    case .missing: return "the folder \(directory) does not exist"
    case .directory, .symbolicLink: return nil
    case .regular, .stream, .other: return "\(directory) is not a folder"
    }
  }

  /// Refuses a target in use, not a regular file, or existing without `force`.
  package static func checkTarget(_ path: String, force: Bool, inUse: [String]) throws(Diagnostic) {
    if let target = PlatformFile.identity(path),
      let used = inUse.first(where: { PlatformFile.identity($0) == target })
    {
      throw Diagnostic(.usage("'\(path)' is \(used == path ? "" : "the same file as '\(used)', ")a file this command reads; write to another file"))
    }
    switch PlatformFile.entryKind(path) {
    case .missing: return
    case .regular:
      guard force else { throw Diagnostic(.usage("'\(path)' exists; pass --force to replace it")) }
    case .directory, .symbolicLink, .stream, .other:
      throw Diagnostic(.usage("'\(path)' is not a regular file; refusing to replace it"))
    }
  }

  /// Fsyncs the temporary, renames it over the target and fsyncs the directory.
  package func commit() throws(Diagnostic) {
    try file.sync()
    try PlatformFile.rename(temporaryPath, to: path)
    committed = true
    // Recovery state of an append to the replaced file described that file, not this one.
    AppendIntent.discardAfterReplacing(path)
    try PlatformFile.syncDirectory(of: path)
  }

  deinit {
    if !committed { try? PlatformFile.remove(temporaryPath) }
  }
}
