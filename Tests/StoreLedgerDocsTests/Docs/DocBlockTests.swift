import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

/// The Markdown files whose shell blocks must run as written: README.md, then Docs/*.md.
private func documentationFiles() throws -> [String] {
  let docs = try FileManager.default.contentsOfDirectory(atPath: repoPath("Docs"))
    .filter { $0.hasSuffix(".md") }.sorted().map { "Docs/" + $0 }
  return ["README.md"] + docs
}

private func allBlocks() throws -> [DocBlock] {
  try documentationFiles().flatMap { file in
    try DocBlock.extract(String(contentsOfFile: repoPath(file), encoding: .utf8), file: file)
  }
}

@Suite("Documentation: every shell block runs as written")
struct DocBlockTests {
  @Test("blocks are found with their markers, and console blocks split into commands and output")
  func extraction() throws {
    let markdown = """
      text
      <!-- doc-test: install -->
      ```sh
      make install
      ```
      ```json
      {"not": "shell"}
      ```
      <!-- doc-test: not-run (takes an hour) -->

      ```bash
      sleep 3600
      ```
      ```console
      $ echo a \\
        b
      a b
      $ true
      ```
      """
    let blocks = try DocBlock.extract(markdown, file: "X.md")
    #expect(blocks.map(\.line) == [3, 11, 14])
    #expect(blocks.map(\.role) == [.install, .notRun(reason: "takes an hour"), .example])
    let steps = blocks[2].consoleSteps
    #expect(steps.map(\.command) == ["echo a \\\n  b", "true"])
    #expect(steps.map(\.output) == ["a b\n", ""])
    #expect(throws: DocBlockError.self) {
      try DocBlock.extract("<!-- doc-test: skip -->\n```sh\nls\n```\n", file: "X.md")
    }
  }

  @Test("README.md documents one install and one uninstall step, and says why any block is not run")
  func markers() throws {
    let blocks = try allBlocks()
    #expect(blocks.filter { $0.role == .install }.map(\.file) == ["README.md"])
    #expect(blocks.filter { $0.role == .uninstall }.map(\.file) == ["README.md"])
    let notRun = blocks.compactMap { block -> String? in
      if case .notRun = block.role { return block.place }
      return nil
    }
    // Deliberately not run: the test suite itself (twice), the release benchmark (twice), the
    // library's release benchmark (Docs/library.md), the
    // report of the benchmark's generated log, the DocC recipe of Docs/library.md, the scale-out
    // recipes that need a Kubernetes pod, a Kafka broker or PySpark (Docs/scale-out.md), the
    // 100M-event simulation and the index benchmark (Docs/performance.md), and the `serve`
    // examples that need a server listening (README.md, Docs/serve.md twice), the headless
    // Chromium run behind nginx and the load measurement (Docs/serve.md).
    #expect(notRun.count == 17, "not-run blocks: \(notRun)")
  }

  @Test("from a fresh copy, after the documented install, every block of README.md and Docs/ succeeds; uninstall removes the tool")
  func blocksRun() throws {
    let binary = try storeledgerBinary()
    let sandbox = try DocSandbox(binDirectory: binary.deletingLastPathComponent())
    let blocks = try allBlocks()
    let before = try sandbox.run("command -v storeledger")
    #expect(before.status != 0, "storeledger is on the sandbox's PATH before the install step")
    let ordered =
      blocks.filter { $0.role == .install } + blocks.filter { $0.role == .example }
      + blocks.filter { $0.role == .uninstall }
    for block in ordered {
      if let failure = try sandbox.check(block) { Issue.record(Comment(rawValue: failure)) }
    }
    let after = try sandbox.run("command -v storeledger")
    #expect(after.status != 0, "storeledger is still on the PATH after the uninstall step")
  }
}
