// swift-tools-version: 6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

/// A library target: `Sources/<name>/`, whose `folders` are its layers (Docs/architecture.md).
func libraryTarget(_ name: String, folders: [String], dependencies: [Target.Dependency]) -> Target {
  .target(
    name: name, dependencies: dependencies, path: "Sources/\(name)", sources: folders, swiftSettings: strictSettings)
}

/// A test target: `Tests/<name>/` (Docs/architecture.md, "Test targets").
func testsTarget(_ name: String, dependencies: [Target.Dependency]) -> Target {
  .testTarget(name: name, dependencies: dependencies, path: "Tests/\(name)", swiftSettings: strictSettings)
}

let package = Package(
  name: "StoreLedger",
  // Synchronization's `Mutex` and `Atomic` (the log lock's fault plans, pending files, a loaded
  // log held open) first shipped in these releases; Linux has no such floor.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "StoreLedger", targets: ["StoreLedger"]),
    .executable(name: "storeledger", targets: ["StoreLedgerCLI"]),
    .executable(name: "storeledger-bench", targets: ["StoreLedgerBench"]),
  ],
  targets: [
    // The library in layers (Docs/architecture.md, "Targets"): each target is a folder of
    // Sources/ holding its layers' folders, and may use only the targets it depends on, so the
    // compiler keeps the layers. Only `StoreLedger` (API/) is a product; it re-exports the targets below it.
    libraryTarget(
      "StoreLedgerCore", folders: ["Support", "Crypto", "Catalog", "Events", "Fold", "Decide", "Log", "Query"],
      dependencies: ["CStoreLedgerSHA", "CStoreLedgerSupport"]),
    libraryTarget("StoreLedgerStorage", folders: ["Snapshot", "Index"], dependencies: ["StoreLedgerCore"]),
    libraryTarget("StoreLedgerImport", folders: ["Import"], dependencies: ["StoreLedgerCore"]),
    libraryTarget("StoreLedgerReport", folders: ["Report"], dependencies: ["StoreLedgerCore"]),
    libraryTarget(
      "StoreLedger", folders: ["API"],
      dependencies: ["StoreLedgerCore", "StoreLedgerStorage", "StoreLedgerImport"]),
    // SHA-256 block compression through the CPU's SHA instructions (SHA-NI on x86_64, the
    // ARMv8 SHA2 instructions on arm64), which Swift cannot reach directly; chosen at run time.
    .target(name: "CStoreLedgerSHA"),
    // A cache prefetch hint for the symbol tables' look-ups (no Swift builtin exists).
    .target(name: "CStoreLedgerSupport"),
    // The seeded log generator (tests, benchmark, `storeledger generate`); not in the library product.
    .target(
      name: "StoreLedgerGenerate", dependencies: ["StoreLedger"], swiftSettings: strictSettings),
    // `storeledger serve` (Docs/serve.md): HTTP/1.1 over the platform's sockets; not in the library product.
    .target(
      name: "StoreLedgerServer", dependencies: ["StoreLedger", "StoreLedgerReport"], swiftSettings: strictSettings),
    .executableTarget(
      name: "StoreLedgerCLI",
      dependencies: ["StoreLedger", "StoreLedgerReport", "StoreLedgerGenerate", "StoreLedgerServer"],
      swiftSettings: strictSettings),
    .executableTarget(
      name: "StoreLedgerBench", dependencies: ["StoreLedger", "StoreLedgerGenerate"],
      swiftSettings: strictSettings),
    // The example of Docs/library.md, built and run by the tests.
    .executableTarget(
      name: "StoreLedgerExample", dependencies: ["StoreLedger"], path: "Examples/Library",
      swiftSettings: strictSettings),
    // The other complete programs of Docs/library.md, one per section.
    .executableTarget(
      name: "StoreLedgerExampleQuestions", dependencies: ["StoreLedger"], path: "Examples/LibraryQuestions",
      swiftSettings: strictSettings),
    .executableTarget(
      name: "StoreLedgerExampleWebhook", dependencies: ["StoreLedger"], path: "Examples/LibraryWebhook",
      swiftSettings: strictSettings),
    .executableTarget(
      name: "StoreLedgerExampleTesting", dependencies: ["StoreLedger"], path: "Examples/LibraryTesting",
      swiftSettings: strictSettings),
    // Appends, answers and reader pauses of an open LedgerStore (Docs/library.md, "What it costs").
    .executableTarget(
      name: "StoreLedgerLibraryBench", dependencies: ["StoreLedger"], path: "Examples/LibraryBench",
      swiftSettings: strictSettings),
    // The tests (Docs/architecture.md, "Test targets"): `Tests/<name>/`, one folder per thing tested,
    // over two support modules. They are test targets too (built for testing, so they may
    // `@testable import`; never built by `swift build`) and hold what more than one target uses;
    // the shared one does not link the programs, so the unit tests do not either.
    testsTarget(
      "StoreLedgerTestSupport",
      dependencies: [
        "StoreLedgerCore", "StoreLedgerStorage", "StoreLedgerImport", "StoreLedgerReport", "StoreLedger",
        "StoreLedgerGenerate",
      ]),
    // Running the command in process (`runCLI`) and the built programs, for the targets that test them.
    testsTarget("StoreLedgerCLITestSupport", dependencies: ["StoreLedgerTestSupport", "StoreLedgerCLI"]),
    // The engine's layers and the library, in process.
    testsTarget(
      "StoreLedgerUnitTests",
      dependencies: [
        "StoreLedgerTestSupport", "StoreLedgerCore", "StoreLedgerStorage", "StoreLedgerImport", "StoreLedgerReport",
        "StoreLedger", "StoreLedgerGenerate",
      ]),
    // The programs end to end: the command line, the server, crashes and damage, scale-out, the benchmark.
    testsTarget(
      "StoreLedgerCommandTests",
      dependencies: [
        "StoreLedgerTestSupport", "StoreLedgerCLITestSupport", "StoreLedgerCore", "StoreLedgerStorage",
        "StoreLedgerImport", "StoreLedgerReport", "StoreLedger", "StoreLedgerGenerate", "StoreLedgerServer",
        "StoreLedgerCLI", "StoreLedgerBench",
      ]),
    // The documents: their command blocks run, the examples built and run, the tree's tidy rules.
    testsTarget(
      "StoreLedgerDocsTests",
      dependencies: [
        "StoreLedgerTestSupport", "StoreLedgerCLITestSupport", "StoreLedgerCore", "StoreLedgerStorage",
        "StoreLedgerImport", "StoreLedgerReport", "StoreLedger", "StoreLedgerCLI", "StoreLedgerExample",
        "StoreLedgerExampleQuestions", "StoreLedgerExampleWebhook", "StoreLedgerExampleTesting",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
