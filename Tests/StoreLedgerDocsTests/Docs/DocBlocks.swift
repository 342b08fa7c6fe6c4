import Foundation
import StoreLedgerTestSupport

/// A fenced shell block of README.md or Docs/*.md, with the marker written above it.
///
/// Markers are HTML comments on the line just above the fence, invisible on GitHub:
/// - `<!-- doc-test: install -->`: the documented install step; run before every other block.
/// - `<!-- doc-test: uninstall -->`: the documented uninstall step; run after every other block.
/// - `<!-- doc-test: not-run (why) -->`: deliberately not run (the test suite itself, a long
///   benchmark); the reason is required, so every exception says why.
struct DocBlock {
  enum Role: Equatable {
    case example
    case install
    case uninstall
    case notRun(reason: String)
  }

  /// The Markdown file, relative to the package root.
  let file: String
  /// The 1-based line of the opening fence.
  let line: Int
  /// `sh`, `bash`, `shell` or `console`.
  let language: String
  /// The block's text, without the fences.
  let text: String
  let role: Role

  /// Where the block is, for messages: `README.md:25`.
  var place: String { "\(file):\(line)" }

  /// The languages whose blocks are shell commands.
  static let shellLanguages: Set<String> = ["sh", "bash", "shell", "console"]

  /// Every shell block of `markdown`, with its role; throws on a marker that says nothing.
  static func extract(_ markdown: String, file: String) throws -> [DocBlock] {
    let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var blocks: [DocBlock] = []
    var index = 0
    var previous = ""
    while index < lines.count {
      let line = lines[index]
      guard line.hasPrefix("```") else {
        if !line.trimmingCharacters(in: .whitespaces).isEmpty { previous = line }
        index += 1
        continue
      }
      let language = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
      let start = index
      index += 1
      var body: [String] = []
      while index < lines.count && !lines[index].hasPrefix("```") {
        body.append(lines[index])
        index += 1
      }
      index += 1
      defer { previous = "" }
      guard shellLanguages.contains(language) else { continue }
      blocks.append(
        DocBlock(
          file: file, line: start + 1, language: language, text: body.joined(separator: "\n") + "\n",
          role: try role(marker: previous, place: "\(file):\(start)")))
    }
    return blocks
  }

  /// The role a marker line gives the block below it.
  private static func role(marker: String, place: String) throws -> Role {
    let prefix = "<!-- doc-test:"
    guard marker.hasPrefix(prefix) else { return .example }
    guard marker.hasSuffix("-->") else { throw DocBlockError("\(place): unterminated doc-test marker") }
    let body = marker.dropFirst(prefix.count).dropLast(3).trimmingCharacters(in: .whitespaces)
    switch body {
    case "install": return .install
    case "uninstall": return .uninstall
    default:
      guard body.hasPrefix("not-run ("), body.hasSuffix(")"), body.count > "not-run ()".count else {
        throw DocBlockError("\(place): unknown doc-test marker '\(body)' (install, uninstall or not-run (why))")
      }
      return .notRun(reason: String(body.dropFirst("not-run (".count).dropLast()))
    }
  }

  /// A `console` block's commands (`$ ` lines, with `\` continuations) and the stdout shown after each.
  var consoleSteps: [(command: String, output: String)] {
    var steps: [(command: String, output: String)] = []
    var continuing = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      if continuing {
        steps[steps.count - 1].command += "\n" + line
        continuing = line.hasSuffix("\\")
      } else if line.hasPrefix("$ ") {
        steps.append((String(line.dropFirst(2)), ""))
        continuing = line.hasSuffix("\\")
      } else if !steps.isEmpty {
        steps[steps.count - 1].output += line + "\n"
      }
    }
    return steps
  }
}

/// A malformed doc-test marker or a failed block.
struct DocBlockError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Runs shell blocks in a fresh copy of the repository, as a new user would.
///
/// The copy holds every file of the package root except build products and VCS metadata.
/// Blocks run with `bash -e -o pipefail` from the copy's root, with their own `HOME` (so the
/// install step writes into the sandbox), and two documented substitutions:
/// - `swift` is a stand-in that hands out the `storeledger` binary this `swift test` already
///   built (`swift run [-c release] PRODUCT ARGS` runs it, `swift build ... --show-bin-path`
///   prints its directory, other `swift build` calls do nothing), instead of building it again
///   from scratch for minutes; any other `swift` call fails, so a block that needs more must be
///   marked `not-run`.
/// - the literal prefix `/tmp/` is replaced by a private scratch directory (in commands and in
///   the output a `console` block shows), so runs never share or leave files in `/tmp`.
final class DocSandbox {
  let root: URL
  let repository: URL
  private let home: URL
  private let scratch: URL
  private let shims: URL

  /// Copies the repository and writes the `swift` stand-in; `binDirectory` holds `storeledger`.
  init(binDirectory: URL) throws {
    let files = FileManager.default
    root = try temporaryDirectory()
    repository = root.appendingPathComponent("repository")
    home = root.appendingPathComponent("home")
    scratch = root.appendingPathComponent("scratch")
    shims = root.appendingPathComponent("shims")
    for directory in [repository, home, scratch, shims] {
      try files.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    let skipped: Set<String> = [".git", ".swiftpm", "Package.resolved"]
    for name in try files.contentsOfDirectory(atPath: packageRoot.path)
    where !skipped.contains(name) && !name.hasPrefix(".build") {
      try files.copyItem(
        at: packageRoot.appendingPathComponent(name), to: repository.appendingPathComponent(name))
    }
    let swift = """
      #!/bin/sh
      # Stand-in for swift in documentation tests: hands out the binaries swift test built.
      bin='\(binDirectory.path)'
      case "$1" in
      run)
        shift
        if [ "$1" = "-c" ]; then shift 2; fi
        product="$1"; shift
        exec "$bin/$product" "$@" ;;
      build)
        for argument in "$@"; do
          if [ "$argument" = "--show-bin-path" ]; then echo "$bin"; exit 0; fi
        done
        exit 0 ;;
      *)
        echo "swift $1: not available in documentation tests (mark the block not-run)" >&2
        exit 97 ;;
      esac

      """
    let shim = shims.appendingPathComponent("swift")
    try swift.write(to: shim, atomically: true, encoding: .utf8)
    try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: shim.path)
  }

  deinit { try? FileManager.default.removeItem(at: root) }

  /// Runs `script` with bash from the repository copy; returns status, stdout and stderr.
  func run(_ script: String) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-e", "-o", "pipefail", "-c", script.replacingOccurrences(of: "/tmp/", with: scratch.path + "/")]
    process.currentDirectoryURL = repository
    process.environment = [
      "HOME": home.path, "TMPDIR": scratch.path, "LANG": "C.UTF-8",
      "PATH": "\(home.path)/.local/bin:\(shims.path):/usr/local/bin:/usr/bin:/bin",
    ]
    let outURL = root.appendingPathComponent("stdout")
    let errURL = root.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    defer {
      try? out.close()
      try? err.close()
    }
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return (
      process.terminationStatus, try String(contentsOf: outURL, encoding: .utf8),
      try String(contentsOf: errURL, encoding: .utf8)
    )
  }

  /// Runs one block: a `console` block's commands must print exactly the output shown; any
  /// other block must exit 0. Returns a failure message, or nil.
  func check(_ block: DocBlock) throws -> String? {
    if block.language == "console" {
      for step in block.consoleSteps {
        let result = try run(step.command)
        if result.status != 0 {
          return "\(block.place): `\(step.command)` exited \(result.status):\n\(result.stderr)"
        }
        let expected = step.output.replacingOccurrences(of: "/tmp/", with: scratch.path + "/")
        if result.stdout != expected {
          return "\(block.place): `\(step.command)` printed\n\(result.stdout)\ninstead of\n\(step.output)"
        }
      }
      return nil
    }
    let result = try run(block.text)
    guard result.status == 0 else {
      return "\(block.place): exited \(result.status):\n\(block.text)\nstderr:\n\(result.stderr)"
    }
    return nil
  }
}
