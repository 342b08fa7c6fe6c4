#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

let console = Console.standard()
let status = StoreLedgerCLI.run(arguments: Array(CommandLine.arguments.dropFirst()), console: console)
console.flush()
exit(console.finish(status: status))
