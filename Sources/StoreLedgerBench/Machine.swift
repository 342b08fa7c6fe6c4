import Foundation

/// The machine the figures were measured on, and how busy it was.
struct Machine {
  var cpuModel = "unknown CPU"
  var logicalCPUs = ProcessInfo.processInfo.activeProcessorCount
  var memoryGiB = Double(ProcessInfo.processInfo.physicalMemory) / Double(1 << 30)
  var kernel = "unknown kernel"
  var swiftVersion = "unknown"

  static func describe(workDir: String) -> Machine {
    var machine = Machine()
    if let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) {
      let lines = cpuinfo.split(separator: "\n")
      if let model = lines.first(where: { $0.hasPrefix("model name") }),
        let colon = model.firstIndex(of: ":")
      {
        machine.cpuModel = model[model.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
      let processors = lines.filter { $0.hasPrefix("processor") }.count
      if processors > 0 { machine.logicalCPUs = processors }
    }
    if let release = try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8) {
      machine.kernel = "Linux " + release.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let out = workDir + "/swift-version.txt"
    if let run = try? Spawner.run("swift", ["--version"], stdout: out, stderr: nil, searchPath: true),
      run.status == 0, let text = try? String(contentsOfFile: out, encoding: .utf8),
      let first = text.split(separator: "\n").first(where: { $0.contains("Swift version") })
    {
      machine.swiftVersion = String(first).trimmingCharacters(in: .whitespaces)
    }
    try? FileManager.default.removeItem(atPath: out)
    return machine
  }
}

/// How busy the machine was with work other than this benchmark, from /proc/stat.
struct LoadProbe {
  private var busyTicks: Double
  private var ownCPU: Double
  private var started: UInt64
  let loadAverageAtStart: String

  init() {
    busyTicks = LoadProbe.busyTicks()
    ownCPU = ownCPUSeconds()
    started = monotonicNanos()
    loadAverageAtStart = LoadProbe.loadAverage()
  }

  /// CPU ticks spent busy by everything on the machine since boot.
  private static func busyTicks() -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
      let cpu = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
    else { return 0 }
    let fields = cpu.split(separator: " ").dropFirst().compactMap { Double($0) }
    guard fields.count >= 5 else { return 0 }
    // user nice system idle iowait irq softirq steal ...: busy is all but idle and iowait.
    return fields.reduce(0, +) - fields[3] - fields[4]
  }

  static func loadAverage() -> String {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "?" }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
  }

  /// Average number of cores kept busy by other processes since `init`.
  func otherCoresBusy() -> Double {
    let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    let seconds = Double(monotonicNanos() - started) / 1e9
    guard seconds > 0, ticksPerSecond > 0 else { return 0 }
    let busy = (LoadProbe.busyTicks() - busyTicks) / ticksPerSecond
    let ours = ownCPUSeconds() - ownCPU
    return max(0, busy - ours) / seconds
  }
}
