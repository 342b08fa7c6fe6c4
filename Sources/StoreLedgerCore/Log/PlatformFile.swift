#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
internal import CStoreLedgerSupport
import Dispatch
import Synchronization

/// The only file that calls the C library: open, read, write, fsync, flock, truncate.
///
/// Kept small so that porting to another platform touches one place.
package struct PlatformFile: ~Copyable {
  /// The file descriptor.
  package let descriptor: Int32
  /// The path it was opened with, for messages.
  package let path: String

  /// How to open a file.
  package enum Mode: Sendable {
    case read
    /// Read and write, creating the file if absent (for appending to a log).
    case readWriteCreate
    /// Append-only, creating if absent (for `LOG.torn`).
    case appendCreate
    /// Append-only, creating if absent, refusing a symbolic link or anything but a regular file.
    case appendCreateRegular
    /// Write, create and truncate.
    case writeTruncate
    /// Write a new file; fails if anything exists at the path (temporary files).
    case createExclusive
  }

  /// Opens `path`; throws `fileNotFound`, `cannotRead` or `cannotWrite`.
  package init(path: String, mode: Mode) throws(Diagnostic) {
    let flags: Int32
    switch mode {
    case .read: flags = O_RDONLY
    case .readWriteCreate: flags = O_RDWR | O_CREAT
    case .appendCreate: flags = O_WRONLY | O_CREAT | O_APPEND
    case .appendCreateRegular: flags = O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK
    case .writeTruncate: flags = O_WRONLY | O_CREAT | O_TRUNC
    case .createExclusive: flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW
    }
    let fd = open(path, flags | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      let code = errno
      if code == ENOENT && mode == .read { throw Diagnostic(.fileNotFound(path: path)) }
      if mode == .read { throw Diagnostic(.cannotRead(path: path, reason: PlatformFile.describe(code))) }
      if code == ELOOP && mode == .appendCreateRegular {
        throw Diagnostic(.cannotWrite(path: path, reason: "a symbolic link; refusing to follow it"))
      }
      throw Diagnostic(.cannotWrite(path: path, reason: PlatformFile.describe(code)))
    }
    var info = stat()
    if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
      close(fd)
      throw Diagnostic(.cannotRead(path: path, reason: "is a directory"))
    }
    if mode == .appendCreateRegular && (info.st_mode & S_IFMT) != S_IFREG {
      close(fd)
      throw Diagnostic(.cannotWrite(path: path, reason: "not a regular file; refusing to write to it"))
    }
    descriptor = fd
    self.path = path
  }

  /// Opens `path` for reading and writing, creating it if absent; `created` says whether this
  /// call made it (`O_EXCL` first, so two processes never both believe they did). A name another
  /// writer removes between the two opens is created again by this call, so the file it then
  /// holds is its own; a symbolic link to nothing gets its target made, and is never called created.
  package init(readWriteCreating path: String, created: inout Bool) throws(Diagnostic) {
    for _ in 0..<PlatformFile.createAttemptsMax {
      var fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      created = fd >= 0
      if fd < 0 && errno == EEXIST {
        fd = open(path, O_RDWR | O_CLOEXEC)
        if fd < 0 && errno == ENOENT {
          guard PlatformFile.entryKind(path) == .symbolicLink else { continue }
          self = try PlatformFile(path: path, mode: .readWriteCreate)
          return
        }
      }
      guard fd >= 0 else {
        throw Diagnostic(.cannotWrite(path: path, reason: errno == EISDIR ? "is a directory" : PlatformFile.describe(errno)))
      }
      descriptor = fd
      self.path = path
      return
    }
    throw Diagnostic(.cannotWrite(path: path, reason: "created and removed by other writers \(PlatformFile.createAttemptsMax) times"))
  }

  /// How often `init(readWriteCreating:created:)` tries again when the name comes and goes.
  static let createAttemptsMax = 8

  deinit { close(descriptor) }

  /// Whether a regular file exists at `path`.
  package static func exists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0
  }

  /// Renames a file atomically (same directory).
  package static func rename(_ from: String, to: String) throws(Diagnostic) {
    if IOFaults.armed { try IOFaults.mutate(path: to) }
    guard Glibc_rename(from, to) == 0 else {
      throw Diagnostic(.cannotWrite(path: to, reason: "rename: " + describe(errno)))
    }
  }

  /// A readable description of an errno value.
  package static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }

  /// Reads up to `buffer.count` bytes; 0 at end of file.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Diagnostic) -> Int {
    while true {
      let n = Glibc_read(descriptor, buffer.baseAddress, buffer.count)
      if n >= 0 { return n }
      if errno == EINTR { continue }
      throw Diagnostic(.cannotRead(path: path, reason: PlatformFile.describe(errno)))
    }
  }

  /// Reads `buffer.count` bytes at `offset` (fewer only at end of file).
  package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Diagnostic) -> Int {
    try PlatformFile.read(descriptor: descriptor, path: path, into: buffer, at: offset)
  }

  /// Reads up to `buffer.count` bytes at `offset` from a raw descriptor (for reader threads).
  package static func read(
    descriptor: Int32, path: String, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64
  ) throws(Diagnostic) -> Int {
    var done = 0
    while done < buffer.count {
      let n = Glibc_pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
      if n == 0 { break }
      if n < 0 {
        if errno == EINTR { continue }
        throw Diagnostic(.cannotRead(path: path, reason: describe(errno)))
      }
      done += n
    }
    return done
  }

  /// Reads up to `count` bytes at `offset` into a new array (shorter only at end of file).
  package func readBytes(count: Int, at offset: Int64) throws(Diagnostic) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var failure: Diagnostic? = nil
    let done = bytes.withUnsafeMutableBytes { raw in
      do throws(Diagnostic) {
        return try read(into: raw, at: offset)
      } catch {
        failure = error
        return 0
      }
    }
    if let failure { throw failure }
    bytes.removeLast(count - done)
    return bytes
  }

  /// Calls `body` with the first `count` bytes of the file mapped read-only (no copy). With
  /// `unmapInBackground`, the mapping is removed by another thread once `body` returns: dropping
  /// the page table entries of every page read takes a while, and the caller need not wait.
  package func withMappedBytes<R>(
    count: Int, unmapInBackground: Bool = false, _ body: (UnsafeBufferPointer<UInt8>) throws(Diagnostic) -> R
  ) throws(Diagnostic) -> R {
    guard count > 0 else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
    guard let address = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
      throw Diagnostic(.cannotRead(path: path, reason: "mmap: " + PlatformFile.describe(errno)))
    }
    defer {
      if unmapInBackground {
        // Nothing refers to the range any more; the kernel reuses it only once it is unmapped.
        nonisolated(unsafe) let mapped = address
        DispatchQueue.global().async { _ = munmap(mapped, count) }
      } else {
        munmap(address, count)
      }
    }
    return try body(UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: count))
  }

  /// Writes all of `bytes` at the current position (or the end, in append mode).
  package func write(_ bytes: UnsafeRawBufferPointer) throws(Diagnostic) {
    var done = 0
    while done < bytes.count {
      var want = bytes.count - done
      var failAfter: IOFault.Failure? = nil
      if IOFaults.armed {
        (want, failAfter) = try IOFaults.write(path: path, count: want)
      }
      let n = want == 0 ? 0 : Glibc_write(descriptor, bytes.baseAddress! + done, want)
      if n < 0 {
        if errno == EINTR { continue }
        throw Diagnostic(.cannotWrite(path: path, reason: PlatformFile.describe(errno)))
      }
      done += n
      if let failAfter { throw IOFaults.diagnostic(failAfter, path: path) }
    }
  }

  /// Writes all of `bytes`.
  package func write(_ bytes: [UInt8]) throws(Diagnostic) {
    var failure: Diagnostic? = nil
    bytes.withUnsafeBytes { raw in
      do throws(Diagnostic) { try write(raw) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// Flushes data and metadata to stable storage.
  package func sync() throws(Diagnostic) {
    if IOFaults.armed, try IOFaults.sync(path: path) { return }
    guard fsync(descriptor) == 0 else {
      throw Diagnostic(.cannotWrite(path: path, reason: "fsync: " + PlatformFile.describe(errno)))
    }
  }

  /// What this open file is (regular file, pipe, device), from `fstat`.
  package func entryKind() -> EntryKind {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return .other }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .regular
    case S_IFDIR: return .directory
    case S_IFIFO, S_IFSOCK: return .stream
    default: return .other
    }
  }

  /// The file's size in bytes.
  package func size() throws(Diagnostic) -> Int64 {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw Diagnostic(.cannotRead(path: path, reason: PlatformFile.describe(errno)))
    }
    return Int64(info.st_size)
  }

  /// Moves the position to `offset` from the start.
  package func seek(to offset: Int64) throws(Diagnostic) {
    guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else {
      throw Diagnostic(.cannotRead(path: path, reason: PlatformFile.describe(errno)))
    }
  }

  /// Cuts the file to `length` bytes.
  package func truncate(to length: Int64) throws(Diagnostic) {
    if IOFaults.armed { try IOFaults.mutate(path: path) }
    guard ftruncate(descriptor, off_t(length)) == 0 else {
      throw Diagnostic(.cannotWrite(path: path, reason: "truncate: " + PlatformFile.describe(errno)))
    }
  }

  /// Blocks until this process holds the exclusive advisory lock on the file.
  package func lockExclusive() throws(Diagnostic) {
    while flock(descriptor, LOCK_EX) != 0 {
      if errno == EINTR { continue }
      throw Diagnostic(.cannotWrite(path: path, reason: "lock: " + PlatformFile.describe(errno)))
    }
  }

  /// Blocks until this process holds a shared advisory lock (readers, for an instant).
  package func lockShared() throws(Diagnostic) {
    while flock(descriptor, LOCK_SH) != 0 {
      if errno == EINTR { continue }
      throw Diagnostic(.cannotRead(path: path, reason: "lock: " + PlatformFile.describe(errno)))
    }
  }

  /// Takes the exclusive advisory lock if no one holds it; false when another holder has it.
  package func tryLockExclusive() throws(Diagnostic) -> Bool {
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      if errno == EINTR { continue }
      if errno == EWOULDBLOCK { return false }
      throw Diagnostic(.cannotWrite(path: path, reason: "lock: " + PlatformFile.describe(errno)))
    }
    return true
  }

  /// Device and inode of the open file, and its number of names (hard links).
  package func identityAndLinks() throws(Diagnostic) -> (identity: FileIdentity, links: Int) {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw Diagnostic(.cannotRead(path: path, reason: PlatformFile.describe(errno)))
    }
    return (FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)), Int(info.st_nlink))
  }

  /// Releases this descriptor's advisory lock.
  package func unlock() {
    _ = flock(descriptor, LOCK_UN)
  }

  /// This process's id (unique names for temporary files).
  package static func processID() -> Int { Int(getpid()) }

  /// The value of an environment variable, if set.
  package static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

  /// The directory holding `path` ("." for a bare name).
  package static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// Fsyncs the directory holding `path`, so a created, renamed or removed entry is durable.
  package static func syncDirectory(of path: String) throws(Diagnostic) {
    if IOFaults.armed, try IOFaults.sync(path: path) { return }
    let fd = open(directory(of: path), O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw Diagnostic(.cannotWrite(path: path, reason: "open directory: " + describe(errno))) }
    defer { close(fd) }
    guard fsync(fd) == 0 || errno == EINVAL else {
      throw Diagnostic(.cannotWrite(path: path, reason: "fsync directory: " + describe(errno)))
    }
  }

  /// Removes the file at `path`; a missing file is not an error.
  package static func remove(_ path: String) throws(Diagnostic) {
    if IOFaults.armed { try IOFaults.mutate(path: path) }
    guard unlink(path) == 0 || errno == ENOENT else {
      throw Diagnostic(.cannotWrite(path: path, reason: "remove: " + describe(errno)))
    }
  }

  /// Creates the directory `path` (its parent must exist).
  package static func makeDirectory(_ path: String) throws(Diagnostic) {
    guard mkdir(path, 0o755) == 0 else {
      throw Diagnostic(.cannotWrite(path: path, reason: "create directory: " + describe(errno)))
    }
  }

  /// Removes the directory `path` if it is empty; anything else is left as it is.
  package static func removeEmptyDirectory(_ path: String) {
    _ = rmdir(path)
  }

  /// What is at a path, without following a final symbolic link.
  package enum EntryKind: Sendable, Equatable {
    case missing, regular, directory, symbolicLink
    /// A pipe or socket: read to its end, no length known.
    case stream
    /// A device or anything else.
    case other
  }

  /// What is at `path` (`lstat`).
  package static func entryKind(_ path: String) -> EntryKind {
    var info = stat()
    guard lstat(path, &info) == 0 else { return .missing }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .regular
    case S_IFDIR: return .directory
    case S_IFLNK: return .symbolicLink
    default: return .other
    }
  }

  /// Device and inode of the file `path` names (following links), to tell whether two paths are one file.
  package static func identity(_ path: String) -> FileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  /// When the file `path` names was last modified, to the millisecond; nil when it cannot be seen.
  package static func modificationTime(_ path: String) -> Timestamp? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    #if canImport(Darwin)
      let spec = info.st_mtimespec
    #else
      let spec = info.st_mtim
    #endif
    return Timestamp(millisecondsSinceEpoch: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
  }
}

/// Which file a path names: equal identities are the same file, whatever the paths.
package struct FileIdentity: Sendable, Equatable {
  /// `st_dev`.
  package var device: UInt64
  /// `st_ino`.
  package var inode: UInt64

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(device: UInt64, inode: UInt64) {
    self.device = device
    self.inode = inode
  }
}

/// A planned I/O failure for tests, applied to files whose path begins with `pathPrefix`.
///
/// Deterministic fault injection in the one file that does I/O: a test binds a plan for its
/// own temporary directory around an operation (`IOFaults.with`, a task-local value, so other
/// tests running at the same time are not affected) and checks what is on disk afterwards.
package struct IOFault: Sendable {
  /// What goes wrong.
  package enum Failure: Sendable, Equatable {
    /// The process dies once `afterBytes` bytes were written: nothing after that point is
    /// done (no write, fsync, truncate, rename or remove under the prefix).
    case crash
    /// The write crossing `afterBytes` writes the bytes before it, then fails with this errno
    /// (ENOSPC, EIO); later writes succeed.
    case writeError(Int32)
    /// Every write transfers at most `afterBytes` bytes (at least 1): short writes.
    case shortWrites
    /// The fsync numbered `afterBytes` (from 0, counting files and directories) fails with this errno.
    case syncError(Int32)
    /// The process dies just before the change (rename, remove, truncate) numbered `afterBytes`
    /// (from 0): that change and everything after it are not done, as with `crash`.
    case crashBeforeChange
  }
  /// Files affected: those whose path begins with this.
  package var pathPrefix: String
  /// The failure.
  package var failure: Failure
  /// Bytes written before the failure (or the fsync number, or the short-write size).
  package var afterBytes: Int
  /// Bytes written and fsyncs done so far under the prefix.
  package var bytesWritten = 0
  package var syncs = 0
  /// Renames, removals and truncations done so far under the prefix.
  package var changes = 0
  /// Whether the simulated crash happened.
  package var crashed = false

  /// A plan.
  package init(pathPrefix: String, failure: Failure, afterBytes: Int) {
    self.pathPrefix = pathPrefix
    self.failure = failure
    self.afterBytes = afterBytes
  }
}

/// The fault plan a test binds around the operation it checks (tests only): a task-local value,
/// passed down the call tree like a logger's metadata, so no process-wide state exists and tests
/// running at the same time never see each other's plans. Unbound in production, where each
/// check is one task-local read per write, fsync or rename (never per event).
package enum IOFaults {
  /// A plan as it advances (bytes written, fsyncs, changes), shared by the calls it covers.
  package final class Plan: Sendable {
    fileprivate let state: Mutex<IOFault>
    init(_ fault: IOFault) { state = Mutex(fault) }
  }

  /// The plan bound to the current task, if any.
  @TaskLocal package static var bound: Plan?

  /// Whether a plan is bound.
  @inline(__always)
  static var armed: Bool { bound != nil }

  /// Runs `body` with `fault` bound; returns the plan as it ended (bytes written, crashed).
  /// Work `body` hands to other threads (not child tasks) runs without the plan.
  package static func with<R>(_ fault: IOFault, _ body: () throws -> R) rethrows -> (R, IOFault) {
    let plan = Plan(fault)
    let result = try $bound.withValue(plan) { try body() }
    return (result, plan.state.withLock { $0 })
  }

  /// Runs `change` on the bound plan when `path` is under its prefix; nil otherwise.
  private static func advance<T>(_ path: String, _ change: (inout IOFault) -> T) -> T? {
    guard let plan = bound else { return nil }
    return plan.state.withLock { fault in path.hasPrefix(fault.pathPrefix) ? change(&fault) : nil }
  }

  /// The diagnostic a planned failure gives.
  static func diagnostic(_ failure: IOFault.Failure, path: String) -> Diagnostic {
    switch failure {
    case .crash, .crashBeforeChange: return Diagnostic(.cannotWrite(path: path, reason: "simulated crash (fault injection)"))
    case .writeError(let code), .syncError(let code):
      return Diagnostic(.cannotWrite(path: path, reason: PlatformFile.describe(code)))
    case .shortWrites: return Diagnostic(.cannotWrite(path: path, reason: "short write"))
    }
  }

  /// How many of `count` bytes a write may transfer, and the failure to raise after them.
  static func write(path: String, count: Int) throws(Diagnostic) -> (Int, IOFault.Failure?) {
    let decision: Result<(Int, IOFault.Failure?), Diagnostic>? = advance(path) { fault in
      if fault.crashed { return .failure(diagnostic(.crash, path: path)) }
      let left = max(0, fault.afterBytes - fault.bytesWritten)
      switch fault.failure {
      case .crash:
        guard count > left else { break }
        fault.bytesWritten += left
        fault.crashed = true
        return .success((left, .crash))
      case .writeError(let code):
        guard count > left, fault.bytesWritten <= fault.afterBytes else { break }
        fault.bytesWritten += left + 1  // past the point: later writes succeed
        return .success((left, .writeError(code)))
      case .shortWrites:
        let n = min(count, max(1, fault.afterBytes))
        fault.bytesWritten += n
        return .success((n, nil))
      case .syncError, .crashBeforeChange:
        break
      }
      fault.bytesWritten += count
      return .success((count, nil))
    }
    return try (decision ?? .success((count, nil))).get()
  }

  /// Fails an fsync as planned; true when the path is under a plan, so the real fsync is
  /// skipped (a simulated process crash keeps the page cache, and tests stay fast).
  static func sync(path: String) throws(Diagnostic) -> Bool {
    let failure: IOFault.Failure?? = advance(path) { fault in
      if fault.crashed { return .crash }
      defer { fault.syncs += 1 }
      if case .syncError = fault.failure, fault.syncs == fault.afterBytes { return fault.failure }
      return nil
    }
    guard let planned = failure else { return false }
    if let planned { throw diagnostic(planned, path: path) }
    return true
  }

  /// Refuses any change after a simulated crash, and crashes before the planned change.
  static func mutate(path: String) throws(Diagnostic) {
    let crashed = advance(path) { fault in
      if fault.failure == .crashBeforeChange, !fault.crashed {
        if fault.changes == fault.afterBytes { fault.crashed = true }
        fault.changes += 1
      }
      return fault.crashed
    }
    if crashed == true { throw diagnostic(.crash, path: path) }
  }
}

@inline(__always)
private func Glibc_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}

@inline(__always)
private func Glibc_write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(fd, buffer, count)
}

@inline(__always)
private func Glibc_rename(_ from: String, _ to: String) -> Int32 {
  rename(from, to)
}

@inline(__always)
private func Glibc_pread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: off_t) -> Int {
  pread(fd, buffer, count, offset)
}

extension PlatformFile {
  /// The path with every symbolic link resolved (`realpath`): one spelling per file, so state
  /// kept beside a log is found through any symbolic link to it. For a file that does not exist
  /// yet, its directory is resolved and its name kept; when even that fails, `path` itself.
  package static func canonicalPath(_ path: String) -> String {
    if let resolved = realpath(path, nil) {
      defer { free(resolved) }
      return String(cString: resolved)
    }
    let directory = directory(of: path)
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let resolved = realpath(directory, nil) else { return path }
    defer { free(resolved) }
    let base = String(cString: resolved)
    return (base == "/" ? "" : base) + "/" + name
  }

  /// Writes a small advisory file (replacing it), best effort, outside any fault plan: it is not
  /// part of a durability protocol, so tests' planned failures stay on the protocol's writes.
  /// It appears whole (written under a temporary name, then renamed), so a reader never sees it half written.
  package static func writeAdvisory(_ bytes: [UInt8], to path: String) {
    let temporary = path + ".tmp-\(processID())"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return }
    let written = bytes.withUnsafeBytes { raw in Glibc_write(fd, raw.baseAddress, raw.count) }
    close(fd)
    if written != bytes.count || Glibc_rename(temporary, path) != 0 { _ = unlink(temporary) }
  }

  /// Removes an advisory file, best effort, outside any fault plan.
  package static func removeAdvisory(_ path: String) { _ = unlink(path) }

  /// Pauses the calling thread.
  package static func sleep(milliseconds: Int) {
    var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
  }

  /// Monotonic milliseconds, for waiting with a limit (never for answers).
  package static func monotonicMilliseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
  }

  /// Whether a process with this id exists (it may belong to another user).
  package static func processExists(_ pid: Int) -> Bool {
    guard pid > 0, let id = pid_t(exactly: pid) else { return false }
    return kill(id, 0) == 0 || errno == EPERM
  }

  /// Makes writing past `ulimit -f` an error (EFBIG, reported as a write error) instead of a
  /// SIGXFSZ that kills the process and leaves temporary files behind.
  package static func reportOversizedWritesAsErrors() {
    _ = signal(SIGXFSZ, SIG_IGN)
  }

  /// What a command that ran out of memory prints: the Swift runtime stops a process whose
  /// allocation fails (SIGABRT, after its own one-line "Fatal error"), which no Swift code can
  /// catch, so the command ends with this sentence and `outOfMemoryStatus` instead of a backtrace.
  package static let outOfMemoryMessage =
    "error: out of memory: the command stopped (an allocation failed, or the address-space limit is below the "
    + "128 MiB the tool needs to start). A log is never left with part of a batch (Docs/durability.md). Raise the "
    + "memory limit (ulimit -v), or read less at once: an index (storeledger index) or a snapshot (--snapshot), "
    + "Docs/performance.md.\n"
  /// The exit status after `outOfMemoryMessage` (EX_SOFTWARE).
  package static let outOfMemoryStatus: Int32 = 70

  /// The smallest address-space limit (`ulimit -v`) a command starts under: below it the loader's
  /// worker threads (8 MiB of stack each) may not fit, and Dispatch then waits for them for ever
  /// instead of failing, so such a limit is refused at once.
  package static let addressSpaceFloorBytes: Int64 = 128 << 20

  /// Makes an abort end the process with `outOfMemoryMessage` and `outOfMemoryStatus` rather than
  /// the runtime's backtrace (a command-line process only: a library must not take its host's
  /// signals), and under an address-space limit keeps the allocator to one arena, so the limit is
  /// met by a failed allocation within the command's usual time, not after minutes of one mmap
  /// per allocation. Returns false when the limit is below `addressSpaceFloorBytes`: the caller
  /// prints `outOfMemoryMessage` and exits with `outOfMemoryStatus` before doing anything.
  package static func reportAbortsAsOutOfMemory() -> Bool {
    let limit = storeledger_fit_allocator_to_address_limit()
    storeledger_report_aborts(outOfMemoryMessage, outOfMemoryStatus)
    return limit < 0 || limit >= addressSpaceFloorBytes
  }

  /// The wall-clock time, stamped as `recorded` on appended events that carry none.
  package static func wallClockNow() -> Timestamp {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Timestamp(millisecondsSinceEpoch: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
  }
}

extension PlatformFile {
  /// Device and inode of this open file (the file itself, whatever path opened it).
  package func identity() -> FileIdentity? {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  /// The names in directory `path` (without "." and ".."); empty when it cannot be read.
  package static func directoryEntries(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }
}
