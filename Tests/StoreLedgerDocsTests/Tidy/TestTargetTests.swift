import Foundation
import StoreLedgerTestSupport
import Testing

/// The split of the tests (Docs/architecture.md, "Test targets"): Package.swift's test targets are
/// the table's, every test file sits in a folder of one, and each imports only what its target
/// declares (SwiftPM lets a module import what its dependencies depend on; this test does not).
@Suite("Tidy: the test targets, their folders and what they import")
struct TestTargetTests {
  /// Modules of the toolchain and the system, which no target declares.
  static let systemModules: Set<String> = [
    "Foundation", "FoundationEssentials", "Testing", "Dispatch", "Synchronization", "Glibc", "Musl", "Darwin",
  ]

  /// The test support modules: helpers only, at their top level. The shared one does not link the
  /// programs; running the command in process is in its own.
  static let supports: Set<String> = ["StoreLedgerTestSupport", "StoreLedgerCLITestSupport"]

  /// The programs, which the engine's tests and the shared support neither link nor run in process.
  static let programs: Set<String> = ["StoreLedgerCLI", "StoreLedgerServer", "StoreLedgerBench"]

  /// The targets that must stay clear of `programs`: the unit tests and the support they share.
  static let programFree = ["StoreLedgerUnitTests", "StoreLedgerTestSupport"]

  /// The Swift files under `Tests/`, relative to the package root (`Tests/<target>/<folder>/<file>`).
  static func testFiles() throws -> [String] {
    let root = packageRoot.appendingPathComponent("Tests")
    guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
    return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { "Tests/" + $0 }.sorted()
  }

  /// The modules a file imports, `@testable` or not.
  static func imports(of path: String) throws -> [String] {
    let text = try String(contentsOfFile: repoPath(path), encoding: .utf8)
    let line = try Regex(#"^(?:@testable\s+)?import\s+(\w+)"#)
    return text.split(separator: "\n").compactMap { try? line.prefixMatch(in: $0) }
      .compactMap { $0.output[1].substring.map(String.init) }
  }

  @Test("Package.swift's test targets are Docs/architecture.md's test-target table, with their folders under Tests/")
  func targetsAndFolders() throws {
    let table = try LayerTable.read().testTargets
    let declared = try LayerTable.packageTestTargets()
    try #require(declared.count >= 4, "Package.swift declares no testsTarget(_:dependencies:)")
    var problems: [String] = []
    #expect(table.map(\.name) == declared.map(\.name), "table and Package.swift name other test targets")
    let files = try Self.testFiles()
    for target in declared {
      guard let row = table.first(where: { $0.name == target.name }) else {
        problems.append("Package.swift: test target \(target.name) has no row in the test-target table")
        continue
      }
      if Set(row.dependencies) != Set(target.dependencies) {
        problems.append("Package.swift: \(target.name) depends on \(target.dependencies), the table says \(row.dependencies)")
      }
      let own = files.filter { $0.hasPrefix("Tests/\(target.name)/") }.map { $0.split(separator: "/").dropFirst(2) }
      let folders = Set(own.filter { $0.count > 1 }.map { String($0.first!) + "/" })
      if folders != Set(row.folders) {
        problems.append("Tests/\(target.name)/ holds the folders \(folders.sorted()), the table says \(row.folders)")
      }
      let loose = own.filter { $0.count == 1 }.map { $0.joined() }
      if !Self.supports.contains(target.name) && !loose.isEmpty {
        problems.append("Tests/\(target.name)/: \(loose) sit outside a folder: put each in the folder of what it tests")
      }
      if own.isEmpty { problems.append("Tests/\(target.name)/ holds no Swift file") }
    }
    let targetFolders = declared.map { "Tests/\($0.name)/" }
    for file in files where !targetFolders.contains(where: { file.hasPrefix($0) }) {
      problems.append("\(file) is in no test target of Package.swift: move it to the target that tests its subject")
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  @Test("each test target imports only what Package.swift declares for it, and uses each library it declares")
  func dependencies() throws {
    let declared = try LayerTable.packageTestTargets()
    let executables = try LayerTable.packageExecutables()
    let files = try Self.testFiles()
    var problems: [String] = []
    for target in declared {
      var used: Set<String> = []
      for file in files where file.hasPrefix("Tests/\(target.name)/") {
        for module in try Self.imports(of: file) where !Self.systemModules.contains(module) {
          used.insert(module)
          if !target.dependencies.contains(module) {
            problems.append("\(file) imports \(module), which \(target.name) does not depend on in Package.swift")
          }
        }
        if Self.supports.contains(target.name),
          try String(contentsOfFile: repoPath(file), encoding: .utf8).contains(try Regex(#"(?m)^\s*@(Test|Suite)\b"#))
        {
          problems.append("\(file): the support module holds helpers, no tests: move the test to the target of its subject")
        }
      }
      // A library the target depends on but never imports is a dependency it does not need; an
      // executable may be depended on only so that its program is built for the tests to run.
      for dependency in target.dependencies where !used.contains(dependency) && !executables.contains(dependency) {
        problems.append("\(target.name) depends on \(dependency) but no file of it imports it: drop it from Package.swift")
      }
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  @Test("the unit tests and the shared support link no program, directly or through a test target, and no unit test runs the command or any process")
  func unitTestsLinkNoProgram() throws {
    let declared = try LayerTable.packageTestTargets()
    let byName = Dictionary(uniqueKeysWithValues: declared.map { ($0.name, $0.dependencies) })
    var problems: [String] = []
    for name in Self.programFree {
      try #require(byName[name] != nil, "Package.swift declares no test target \(name)")
      // What the target links: its dependencies and, through each test target among them, theirs.
      var linked: Set<String> = []
      var pending = byName[name] ?? []
      while let next = pending.popLast() {
        if linked.insert(next).inserted { pending += byName[next] ?? [] }
      }
      for program in linked.intersection(Self.programs).sorted() {
        problems.append("Package.swift: \(name) links \(program): test the program from StoreLedgerCommandTests")
      }
    }
    // In-process (`runCLI`) or as a process of its own (the built binary, or any `Process`).
    let runsCommand = try Regex(#"\b(runCLI|runCLIConcurrently|storeledgerBinary|Process)\b\("#)
    for file in try Self.testFiles() where file.hasPrefix("Tests/StoreLedgerUnitTests/") {
      let text = try String(contentsOfFile: repoPath(file), encoding: .utf8)
      if let found = text.firstMatch(of: runsCommand) {
        problems.append("\(file) runs the command or a process (\(text[found.range])): move that test to Tests/StoreLedgerCommandTests/")
      }
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }
}
