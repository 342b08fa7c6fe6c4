#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import StoreLedger

// Past `ulimit -f` a write fails with EFBIG (exit 74, temporaries removed) instead of killing the process.
PlatformFile.reportOversizedWritesAsErrors()
// Out of memory (a failed allocation aborts the process): a sentence and 70, not a backtrace.
guard PlatformFile.reportAbortsAsOutOfMemory() else {
  _ = PlatformFile.outOfMemoryMessage.withCString { write(2, $0, strlen($0)) }
  exit(PlatformFile.outOfMemoryStatus)
}
let console = Console.standard()
let status = StoreLedgerCLI.run(arguments: Array(CommandLine.arguments.dropFirst()), console: console)
console.flush()
exit(console.finish(status: status))
