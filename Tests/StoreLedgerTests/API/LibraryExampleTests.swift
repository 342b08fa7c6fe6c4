import Foundation
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

/// The built example, beside the test bundle (any build directory) or in .build/debug.
private func exampleBinary() throws -> URL {
  let candidates = [
    Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("StoreLedgerExample"),
    Bundle.main.bundleURL.appendingPathComponent("StoreLedgerExample"),
    packageRoot.appendingPathComponent(".build/debug/StoreLedgerExample"),
  ]
  guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
    throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidates.map(\.path).joined(separator: ", ")])
  }
  return found
}

@Suite("Docs/library.md")
struct LibraryExampleTests {
  let blocks = fencedBlocks((try? String(contentsOfFile: repoPath("Docs/library.md"), encoding: .utf8)) ?? "")

  @Test("the first swift block is Examples/Library/main.swift, which the package builds")
  func exampleIsTheDocBlock() throws {
    let example = try String(contentsOfFile: repoPath("Examples/Library/main.swift"), encoding: .utf8)
    let first = try #require(blocks.first { $0.language == "swift" })
    #expect(first.text == example)
  }

  @Test("the example run from the repository root prints what the doc shows")
  func exampleRuns() throws {
    let expected = try #require(blocks.first { $0.language == "text" })
    let process = Process()
    process.executableURL = try exampleBinary()
    process.currentDirectoryURL = packageRoot
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(String(decoding: printed, as: UTF8.self) == expected.text)
  }
}
