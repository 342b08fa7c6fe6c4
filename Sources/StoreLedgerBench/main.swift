#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// storeledger-bench: see BenchOptions.usage and Docs/performance.md.
let arguments = Array(CommandLine.arguments.dropFirst())
// A closed pipe (`| head`) must not stop the run before it removes its temporary files.
signal(SIGPIPE, SIG_IGN)

if arguments.first == "--child" {
  // Hidden modes run in a child process so that their peak RSS is measured on its own.
  guard arguments.count == 5, arguments[1] == "baseline",
    let variant = FoundationBaseline.Variant(rawValue: arguments[2])
  else {
    say("usage: storeledger-bench --child baseline formatter|formatstyle LOG CATALOG")
    exit(64)
  }
  exit(FoundationBaseline.runChild(variant, logPath: arguments[3], catalogPath: arguments[4]))
}

if arguments.first == "--appends" {
  guard arguments.count == 2 || arguments.count == 3, let count = Int(arguments.count == 3 ? arguments[2] : "200") else {
    say("usage: storeledger-bench --appends LOG [COUNT]")
    exit(64)
  }
  exit(AppendRate.run(logPath: arguments[1], count: count))
}

if arguments.first == "--answering" {
  guard arguments.count == 4 || arguments.count == 5, let runs = Int(arguments.count == 5 ? arguments[4] : "3"), runs > 0 else {
    say("usage: storeledger-bench --answering LOG CATALOG QUERIES [RUNS]")
    exit(64)
  }
  exit(AnsweringRun.run(logPath: arguments[1], catalogPath: arguments[2], queriesPath: arguments[3], runs: runs))
}

if arguments.first == "--production-shape" {
  // The headline log on its own, for timing other tools on the same file (Docs/performance.md, "The floor").
  guard arguments.count == 3 || arguments.count == 4, let seed = UInt64(arguments.count == 4 ? arguments[3] : "1") else {
    say("usage: storeledger-bench --production-shape LOG OUT [SEED]")
    exit(64)
  }
  exit(ProductionShapeRun.run(logPath: arguments[1], outPath: arguments[2], seed: seed))
}

if arguments.contains("--help") || arguments.contains("-h") {
  say(BenchOptions.usage)
  exit(0)
}

do {
  var bench = Bench(options: try BenchOptions.parse(arguments))
  try bench.run()
} catch {
  say("storeledger-bench: error: \(error)")
  exit(1)
}
