#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation

/// What one child process cost: wall time from spawn to reaped, CPU time and peak RSS.
struct ChildRun {
  /// Wall time from just before `posix_spawn` to `wait4` returning.
  var seconds: Double
  /// User plus system CPU time of the child (`rusage`).
  var cpuSeconds: Double
  /// Peak resident set size of the child in bytes (`ru_maxrss`).
  var peakRSS: Int
  /// Exit status (or 128 + signal).
  var status: Int32
}

/// Monotonic clock in nanoseconds.
func monotonicNanos() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Seconds taken by `body` on the monotonic clock.
func timed<R>(_ body: () throws -> R) rethrows -> (R, Double) {
  let start = monotonicNanos()
  let result = try body()
  return (result, Double(monotonicNanos() - start) / 1e9)
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Spawns programs with `posix_spawn` and reaps them with `wait4` to get their own `rusage`.
enum Spawner {
  /// Runs `executable` with `arguments`, stdin from /dev/null, stdout and stderr to files
  /// (or /dev/null when nil); `searchPath` uses `posix_spawnp`.
  static func run(
    _ executable: String, _ arguments: [String], stdout: String?, stderr: String?,
    searchPath: Bool = false
  ) throws -> ChildRun {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 1, stdout ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(
      &actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)

    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] =
      ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid = pid_t()
    let started = monotonicNanos()
    let error =
      searchPath
      ? posix_spawnp(&pid, executable, &actions, nil, argv, envp)
      : posix_spawn(&pid, executable, &actions, nil, argv, envp)
    guard error == 0 else {
      throw BenchError("cannot start \(executable): \(String(cString: strerror(error)))")
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else { throw BenchError("wait4 failed: \(String(cString: strerror(errno)))") }
    }
    let seconds = Double(monotonicNanos() - started) / 1e9
    let cpu =
      Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    let exitStatus: Int32 = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    // Linux reports ru_maxrss in kilobytes.
    return ChildRun(seconds: seconds, cpuSeconds: cpu, peakRSS: Int(usage.ru_maxrss) * 1024, status: exitStatus)
  }
}

/// The best (fastest) of several runs, with the peak RSS of all of them.
struct Measured {
  var runs: [ChildRun]
  var best: ChildRun { runs.min { $0.seconds < $1.seconds }! }
  var peakRSS: Int { runs.map(\.peakRSS).max() ?? 0 }
  var median: Double {
    let sorted = runs.map(\.seconds).sorted()
    return sorted[sorted.count / 2]
  }
}

/// CPU time this process and its reaped children have used so far.
func ownCPUSeconds() -> Double {
  func seconds(_ usage: rusage) -> Double {
    Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  }
  var own = rusage()
  var children = rusage()
  #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &own)
    getrusage(RUSAGE_CHILDREN.rawValue, &children)
  #else
    getrusage(RUSAGE_SELF, &own)
    getrusage(RUSAGE_CHILDREN, &children)
  #endif
  return seconds(own) + seconds(children)
}

/// The high-water mark of this process's address space (`VmHWM`) in bytes.
///
/// Linux carries it over into a child started with `posix_spawn` (vfork-style): `exec`
/// records the old address space's high-water mark in the child's `maxrss`. A child's figure
/// is exact when above this, an upper bound otherwise. (`getrusage(RUSAGE_SELF)` would also
/// count whatever ran in this process before its own `exec`, such as `swift run`.)
func ownPeakRSS() -> Int {
  if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
    let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
  {
    return kilobytes * 1024
  }
  var usage = rusage()
  #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  return Int(usage.ru_maxrss) * 1024
}
