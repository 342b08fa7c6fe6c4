import Foundation
import StoreLedgerTestSupport
import Testing

/// The fenced blocks of a Markdown file, as (language, text) in order.
private func fencedBlocks(_ markdown: String) -> [(language: String, text: String)] {
  var blocks: [(String, String)] = []
  var current: (language: String, lines: [Substring])? = nil
  for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
    if line.hasPrefix("```") {
      if let open = current {
        blocks.append((open.language, open.lines.map { $0 + "\n" }.joined()))
        current = nil
      } else {
        current = (String(line.dropFirst(3)), [])
      }
    } else {
      current?.lines.append(line)
    }
  }
  return blocks
}

/// A built example, beside the test bundle (any build directory) or in .build/debug.
private func exampleBinary(_ name: String) throws -> URL {
  let candidates = [
    Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name),
    Bundle.main.bundleURL.appendingPathComponent(name),
    packageRoot.appendingPathComponent(".build/debug/\(name)"),
  ]
  guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
    throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidates.map(\.path).joined(separator: ", ")])
  }
  return found
}

/// The complete programs of Docs/library.md in order: their folder and executable (Package.swift).
private let examples: [(folder: String, binary: String)] = [
  ("Examples/Library", "StoreLedgerExample"), ("Examples/LibraryQuestions", "StoreLedgerExampleQuestions"),
  ("Examples/LibraryWebhook", "StoreLedgerExampleWebhook"), ("Examples/LibraryTesting", "StoreLedgerExampleTesting"),
]

/// The names a public declaration introduces in `source`: types, members, static members.
private func publicNames(_ source: String) -> [String] {
  let pattern = #/public\s+(?:final\s+)?(?:static\s+)?(?:convenience\s+)?(?:struct|enum|class|protocol|func|var|let)\s+([A-Za-z_][A-Za-z0-9_]*)/#
  return source.matches(of: pattern).map { String($0.output.1) }
}

@Suite("Docs/library.md")
struct LibraryExampleTests {
  let markdown = (try? String(contentsOfFile: repoPath("Docs/library.md"), encoding: .utf8)) ?? ""
  var blocks: [(language: String, text: String)] { fencedBlocks(markdown) }

  @Test("every swift block that imports StoreLedger is one of the examples the package builds, in order")
  func blocksAreTheExamples() throws {
    let programs = blocks.filter { $0.language == "swift" && $0.text.contains("import StoreLedger") }.map(\.text)
    let files = try examples.map { try String(contentsOfFile: repoPath("\($0.folder)/main.swift"), encoding: .utf8) }
    #expect(programs == files)
  }

  @Test("each example run from the repository root prints the text block after it", arguments: examples.indices)
  func exampleRuns(_ index: Int) throws {
    let all = blocks
    let program = try String(contentsOfFile: repoPath("\(examples[index].folder)/main.swift"), encoding: .utf8)
    let position = try #require(all.firstIndex { $0.language == "swift" && $0.text == program })
    let expected = try #require(all.dropFirst(position + 1).first)
    #expect(expected.language == "text")
    let process = Process()
    process.executableURL = try exampleBinary(examples[index].binary)
    process.currentDirectoryURL = packageRoot
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(String(decoding: printed, as: UTF8.self) == expected.text)
  }

  @Test("each example run from another directory prints the same text block", arguments: examples.indices)
  func exampleRunsAnywhere(_ index: Int) throws {
    let all = blocks
    let program = try String(contentsOfFile: repoPath("\(examples[index].folder)/main.swift"), encoding: .utf8)
    let position = try #require(all.firstIndex { $0.language == "swift" && $0.text == program })
    let expected = try #require(all.dropFirst(position + 1).first)
    let (status, printed, _) = try runExample(examples[index].binary, in: try temporaryDirectory(), environment: [:])
    #expect(status == 0)
    #expect(printed == expected.text)
  }

  @Test("an example whose input folder lacks a file names the file on stderr and exits 66, without a backtrace or a leftover directory")
  func missingInput() throws {
    for example in examples where example.binary != "StoreLedgerExampleTesting" {
      let empty = try temporaryDirectory()
      let scratch = try temporaryDirectory()
      let (status, _, errors) = try runExample(
        example.binary, in: empty, environment: ["STORELEDGER_EVENTS": empty.path, "TMPDIR": scratch.path])
      #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [], "\(example.binary) left a directory behind")
      #expect(status == 66, "\(example.binary): \(errors)")
      #expect(errors.hasPrefix("error: /"), "\(example.binary): \(errors)")
      #expect(errors.contains("does not exist (pass the folder holding"), "\(example.binary): \(errors)")
      #expect(!errors.contains("Fatal error") && errors.split(separator: "\n").count == 1, "\(example.binary): \(errors)")
    }
  }

  /// Runs a built example in `directory` with `environment` added; its status, stdout and stderr.
  private func runExample(_ binary: String, in directory: URL, environment: [String: String]) throws -> (Int32, String, String) {
    let process = Process()
    process.executableURL = try exampleBinary(binary)
    process.currentDirectoryURL = directory
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    let complaint = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: printed, as: UTF8.self), String(decoding: complaint, as: UTF8.self))
  }

  @Test("the Package.swift for one's own package is a whole manifest SwiftPM reads, depending on this checkout by path")
  func manifestIsWhole() throws {
    let manifest = try #require(blocks.first { $0.language == "swift" && $0.text.contains("import PackageDescription") })
    #expect(manifest.text.hasPrefix("// swift-tools-version:"))
    // Placed in a folder beside a link to this checkout, as a new user's package would be.
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let package = folder.appendingPathComponent("App")
    try FileManager.default.createDirectory(at: package.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("StoreLedger"), withDestinationURL: packageRoot)
    try manifest.text.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    try "print(1)\n".write(to: package.appendingPathComponent("Sources/App/main.swift"), atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "package", "dump-package"]
    process.currentDirectoryURL = package
    // SwiftPM keeps a lock file named after the package's path in TMPDIR: keep it in the folder removed below.
    let scratch = folder.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": scratch.path]) { _, new in new }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = Pipe()
    try process.run()
    let dumped = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(dumped.contains("\"StoreLedger\"") && dumped.contains("\"App\""), "\(dumped.prefix(400))")
  }

  @Test("every public declaration of the library is named in library.md's tables")
  func everyPublicDeclarationIsDocumented() throws {
    let tables = markdown.split(separator: "\n").filter { $0.hasPrefix("|") }.joined(separator: "\n")
    var names = Set<String>()
    for target in ["StoreLedgerCore", "StoreLedgerStorage", "StoreLedgerImport", "StoreLedger"] {
      let sources = try FileManager.default.subpathsOfDirectory(atPath: repoPath("Sources/\(target)"))
        .filter { $0.hasSuffix(".swift") }
      for path in sources {
        names.formUnion(publicNames(try String(contentsOfFile: repoPath("Sources/\(target)/\(path)"), encoding: .utf8)))
      }
    }
    // Protocol requirements every such type has: Codable, CustomStringConvertible, RawRepresentable.
    names.subtract(["encode", "description"])
    #expect(names.count > 100)
    let missing = names.filter { name in
      tables.range(of: #"\b"# + name + #"\b"#, options: .regularExpression) == nil
    }
    #expect(missing.isEmpty, "not in library.md's tables: \(missing.sorted())")
  }
}
