#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The only file that calls the C library: open, read, write, fsync, flock, truncate.
///
/// Kept small so that porting to another platform touches one place.
public struct PlatformFile: ~Copyable {
  /// The file descriptor.
  public let descriptor: Int32
  /// The path it was opened with, for messages.
  public let path: String

  /// How to open a file.
  public enum Mode: Sendable {
    case read
    /// Read and write, creating the file if absent (for appending to a log).
    case readWriteCreate
    /// Append-only, creating if absent (for `LOG.torn`).
    case appendCreate
    /// Write, create and truncate.
    case writeTruncate
  }

  /// Opens `path`; throws `fileNotFound`, `cannotRead` or `cannotWrite`.
  public init(path: String, mode: Mode) throws(Diagnostic) {
    let flags: Int32
    switch mode {
    case .read: flags = O_RDONLY
    case .readWriteCreate: flags = O_RDWR | O_CREAT
    case .appendCreate: flags = O_WRONLY | O_CREAT | O_APPEND
    case .writeTruncate: flags = O_WRONLY | O_CREAT | O_TRUNC
    }
    let fd = open(path, flags | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      let code = errno
      if code == ENOENT && mode == .read { throw Diagnostic(.fileNotFound(path: path)) }
      if mode == .read { throw Diagnostic(.cannotRead(path: path, reason: PlatformFile.describe(code))) }
      throw Diagnostic(.cannotWrite(path: path, reason: PlatformFile.describe(code)))
    }
    var info = stat()
    if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
      close(fd)
      throw Diagnostic(.cannotRead(path: path, reason: "is a directory"))
    }
    descriptor = fd
    self.path = path
  }

  deinit { close(descriptor) }

  /// Whether a regular file exists at `path`.
  public static func exists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0
  }

  /// Renames a file atomically (same directory).
  public static func rename(_ from: String, to: String) throws(Diagnostic) {
    guard Glibc_rename(from, to) == 0 else {
      throw Diagnostic(.cannotWrite(path: to, reason: "rename: " + describe(errno)))
    }
  }

  /// A readable description of an errno value.
  public static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }

  /// Reads up to `buffer.count` bytes; 0 at end of file.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Diagnostic) -> Int {
    while true {
      let n = Glibc_read(descriptor, buffer.baseAddress, buffer.count)
      if n >= 0 { return n }
      if errno == EINTR { continue }
      throw Diagnostic(.cannotRead(path: path, reason: PlatformFile.describe(errno)))
    }
  }

  /// Reads `buffer.count` bytes at `offset` (fewer only at end of file).
  public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Diagnostic) -> Int {
    try PlatformFile.read(descriptor: descriptor, path: path, into: buffer, at: offset)
  }

  /// Reads up to `buffer.count` bytes at `offset` from a raw descriptor (for reader threads).
  public static func read(
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
  public func readBytes(count: Int, at offset: Int64) throws(Diagnostic) -> [UInt8] {
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

  /// Calls `body` with the first `count` bytes of the file mapped read-only (no copy).
  public func withMappedBytes<R>(
    count: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(Diagnostic) -> R
  ) throws(Diagnostic) -> R {
    guard count > 0 else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
    guard let address = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
      throw Diagnostic(.cannotRead(path: path, reason: "mmap: " + PlatformFile.describe(errno)))
    }
    defer { munmap(address, count) }
    return try body(UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: count))
  }

  /// Writes all of `bytes` at the current position (or the end, in append mode).
  public func write(_ bytes: UnsafeRawBufferPointer) throws(Diagnostic) {
    var done = 0
    while done < bytes.count {
      let n = Glibc_write(descriptor, bytes.baseAddress! + done, bytes.count - done)
      if n < 0 {
        if errno == EINTR { continue }
        throw Diagnostic(.cannotWrite(path: path, reason: PlatformFile.describe(errno)))
      }
      done += n
    }
  }

  /// Writes all of `bytes`.
  public func write(_ bytes: [UInt8]) throws(Diagnostic) {
    var failure: Diagnostic? = nil
    bytes.withUnsafeBytes { raw in
      do throws(Diagnostic) { try write(raw) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// Flushes data and metadata to stable storage.
  public func sync() throws(Diagnostic) {
    guard fsync(descriptor) == 0 else {
      throw Diagnostic(.cannotWrite(path: path, reason: "fsync: " + PlatformFile.describe(errno)))
    }
  }

  /// The file's size in bytes.
  public func size() throws(Diagnostic) -> Int64 {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw Diagnostic(.cannotRead(path: path, reason: PlatformFile.describe(errno)))
    }
    return Int64(info.st_size)
  }

  /// Moves the position to `offset` from the start.
  public func seek(to offset: Int64) throws(Diagnostic) {
    guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else {
      throw Diagnostic(.cannotRead(path: path, reason: PlatformFile.describe(errno)))
    }
  }

  /// Cuts the file to `length` bytes.
  public func truncate(to length: Int64) throws(Diagnostic) {
    guard ftruncate(descriptor, off_t(length)) == 0 else {
      throw Diagnostic(.cannotWrite(path: path, reason: "truncate: " + PlatformFile.describe(errno)))
    }
  }

  /// Blocks until this process holds the exclusive advisory lock on the file.
  public func lockExclusive() throws(Diagnostic) {
    while flock(descriptor, LOCK_EX) != 0 {
      if errno == EINTR { continue }
      throw Diagnostic(.cannotWrite(path: path, reason: "lock: " + PlatformFile.describe(errno)))
    }
  }

  /// Fsyncs the directory holding `path`, so a newly created file's entry is durable.
  public static func syncDirectory(of path: String) {
    let directory: String
    if let slash = path.lastIndex(of: "/") {
      directory = slash == path.startIndex ? "/" : String(path[..<slash])
    } else {
      directory = "."
    }
    let fd = open(directory, O_RDONLY)
    if fd >= 0 {
      _ = fsync(fd)
      close(fd)
    }
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
  /// The wall-clock time, stamped as `recorded` on appended events that carry none.
  public static func wallClockNow() -> Timestamp {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Timestamp(millisecondsSinceEpoch: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
  }
}
