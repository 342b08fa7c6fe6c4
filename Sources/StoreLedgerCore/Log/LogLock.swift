/// The exclusive lock a writer (`append`, `import --append`, `repair`, an open ledger's append)
/// holds on a log, taken with a bounded wait, and the record that names its holder.
///
/// `flock` cannot say who holds a lock, so the holder writes `LOG.writer` (beside the log's
/// canonical path) with its process id and command once it has the lock, and removes it before
/// letting go. A writer that cannot get the lock at once says after a second whom it waits for,
/// and gives up with exit 75 after the limit. Readers never take this lock (`AppendIntent`).
package enum LogLock {
  /// How long a writer waits for the lock, and what it says while waiting.
  package struct Wait: Sendable {
    /// The longest wait, in milliseconds; 0 tries once.
    package var limitMilliseconds: Int
    /// The default limit: 10 seconds.
    package static let standard = Wait(limitMilliseconds: 10_000)
    /// Creates a wait limit.
    package init(limitMilliseconds: Int) {
      precondition(limitMilliseconds >= 0, "a wait limit is not negative")
      self.limitMilliseconds = limitMilliseconds
    }
  }

  /// Milliseconds of waiting after which the writer says whom it waits for.
  static let noticeAfterMilliseconds: Int64 = 1000
  /// Largest holder record read.
  static let holderBytesMax = 512

  /// The holder record's path for a log.
  static func holderPath(forLog logPath: String) -> String { PlatformFile.canonicalPath(logPath) + ".writer" }

  /// Takes the exclusive lock on `log`, waiting at most `wait`; then records this process as holder.
  ///
  /// `notice` is called once, after a second of waiting, with a description of the holder.
  /// - Throws: `lockBusy` (exit 75) when the limit passes.
  package static func acquire(
    _ log: borrowing PlatformFile, logPath: String, command: String, wait: Wait, notice: ((String) -> Void)?
  ) throws(Diagnostic) {
    let started = PlatformFile.monotonicMilliseconds()
    var pause = 2
    var noticed = false
    while try !log.tryLockExclusive() {
      let waited = PlatformFile.monotonicMilliseconds() - started
      if waited >= Int64(wait.limitMilliseconds) {
        throw Diagnostic(file: logPath, .lockBusy(holder: holder(of: logPath), waitedSeconds: Int(waited / 1000)))
      }
      if !noticed, waited >= noticeAfterMilliseconds, let notice {
        noticed = true
        notice(holder(of: logPath))
      }
      PlatformFile.sleep(milliseconds: min(pause, max(1, wait.limitMilliseconds - Int(waited))))
      pause = min(pause * 2, 100)
    }
    let record = "pid=\(PlatformFile.processID()) command=\(command) since=\(PlatformFile.wallClockNow())\n"
    // Best effort: the record only helps a waiting writer name the holder.
    PlatformFile.writeAdvisory(Array(record.utf8), to: holderPath(forLog: logPath))
  }

  /// Removes the holder record and lets go of the lock.
  package static func release(_ log: borrowing PlatformFile, logPath: String) {
    PlatformFile.removeAdvisory(holderPath(forLog: logPath))
    log.unlock()
  }

  /// Who holds the lock, as far as the holder record says.
  static func holder(of logPath: String) -> String {
    let path = holderPath(forLog: logPath)
    guard PlatformFile.entryKind(path) == .regular,
      let bytes = try? LedgerLoader.readFile(path, limit: holderBytesMax),
      let text = String(validating: bytes, as: UTF8.self)
    else { return "a process that did not name itself" }
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
    func value(_ name: String) -> String? {
      fields.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }
    guard let pidText = value("pid"), let pid = Int(pidText), pid > 0 else {
      return "a process that did not name itself"
    }
    let command = value("command").map(plain) ?? "?"
    let since = value("since").map(plain) ?? "?"
    guard PlatformFile.processExists(pid) else {
      return "a process that did not name itself; '\(path)' names pid \(pid), which has ended"
    }
    return "pid \(pid), storeledger \(command), since \(since)"
  }

  /// A field of the record as safe, short text (the file could hold anything).
  private static func plain(_ text: String) -> String {
    let kept = text.unicodeScalars.prefix(40).filter { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || ":.-+_".unicodeScalars.contains($0)) }
    return String(String.UnicodeScalarView(kept))
  }
}
