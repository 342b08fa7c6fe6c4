import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Outputs: snapshot --out and generate never replace what they must not, stdout errors exit 74")
struct OutputSafetyTests {
  static let demo = try! String(contentsOfFile: repoPath("Events/demo.jsonl"), encoding: .utf8)

  /// Files in the workspace's directory.
  private func entries(_ space: Workspace) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: space.directory.path).sorted()
  }

  @Test("snapshot --out refuses the log, the catalog and the --snapshot being read, by any path", arguments: [
    "log.jsonl", "catalog.json", "./log.jsonl", "alias",
  ])
  func refusesFilesInUse(target: String) throws {
    let space = try Workspace(log: Self.demo)
    defer { try? FileManager.default.removeItem(at: space.directory) }
    try FileManager.default.createSymbolicLink(atPath: space.path("alias"), withDestinationPath: space.log)
    let before = try space.read()
    let catalogBefore = try space.read("catalog.json")
    let path = target.hasPrefix("./") ? space.directory.path + "/" + target.dropFirst(2) : space.path(target)
    let result = runCLI(["snapshot", space.log, "--out", path, "--force"])
    #expect(result.status == 64, "\(result.stderr)")
    #expect(result.stderr.contains("a file this command reads"))
    #expect(try space.read() == before)
    #expect(try space.read("catalog.json") == catalogBefore)
    #expect(try entries(space) == ["alias", "catalog.json", "log.jsonl"])
  }

  @Test("snapshot --out needs --force to replace a file, and replaces it whole")
  func needsForce() throws {
    let space = try Workspace(log: Self.demo)
    defer { try? FileManager.default.removeItem(at: space.directory) }
    try space.write("snap.json", "precious")
    let refused = runCLI(["snapshot", space.log, "--out", space.path("snap.json")])
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("pass --force"))
    #expect(String(decoding: try space.read("snap.json"), as: UTF8.self) == "precious")
    let forced = runCLI(["snapshot", space.log, "--out", space.path("snap.json"), "--force"])
    #expect(forced.status == 0)
    #expect(runCLI(["replay", space.log, "--snapshot", space.path("snap.json")]).status == 0)
    #expect(try entries(space) == ["catalog.json", "log.jsonl", "snap.json"])
  }

  @Test("snapshot --out never replaces a directory, symbolic link or device, even with --force")
  func refusesNonRegular() throws {
    let space = try Workspace(log: Self.demo)
    defer { try? FileManager.default.removeItem(at: space.directory) }
    try FileManager.default.createDirectory(atPath: space.path("dir"), withIntermediateDirectories: false)
    try space.write("elsewhere", "x")
    try FileManager.default.createSymbolicLink(atPath: space.path("link"), withDestinationPath: space.path("elsewhere"))
    for target in [space.path("dir"), space.path("link"), "/dev/null"] {
      let result = runCLI(["snapshot", space.log, "--out", target, "--force"])
      #expect(result.status == 64, "\(target): \(result.stderr)")
      #expect(result.stderr.contains("not a regular file"), "\(target)")
    }
    #expect(PlatformFile.entryKind(space.path("link")) == .symbolicLink)
    #expect(String(decoding: try space.read("elsewhere"), as: UTF8.self) == "x")
  }

  @Test("a snapshot that cannot be written leaves no temporary or partial file")
  func failedWriteLeavesNothing() throws {
    let space = try Workspace(log: Self.demo)
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let fault = IOFault(pathPrefix: space.directory.path + "/", failure: .writeError(ENOSPC), afterBytes: 100)
    let (result, _) = IOFaults.with(fault) { runCLI(["snapshot", space.log, "--out", space.path("snap.json")]) }
    #expect(result.status == 74)
    #expect(try entries(space) == ["catalog.json", "log.jsonl"])
  }

  @Test("generate on a full disk leaves no log, catalog or temporary file")
  func failedGenerateLeavesNothing() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let out = directory.appendingPathComponent("log.jsonl").path
    let fault = IOFault(pathPrefix: directory.path + "/", failure: .writeError(ENOSPC), afterBytes: 5000)
    let (result, _) = IOFaults.with(fault) { runCLI(["generate", "--subjects", "50", "--seed", "1", "--out", out]) }
    #expect(result.status == 74)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  @Test("commands whose stdout cannot be written (/dev/full) exit 74, not 0", arguments: [
    ["check", "LOG"], ["replay", "LOG"], ["query", "LOG", "--subject", "u1", "--at", "2026-03-01"],
    ["audit", "LOG", "--queries", "QUERIES"], ["repair", "LOG"], ["diff", "SNAP", "SNAP"],
  ])
  func stdoutFullExits74(arguments: [String]) throws {
    guard FileManager.default.isWritableFile(atPath: "/dev/full") else { return }
    let space = try Workspace(log: Self.demo)
    defer { try? FileManager.default.removeItem(at: space.directory) }
    try space.write("queries.jsonl", #"{"subject":"u1","at":"2026-03-01T00:00:00Z"}"# + "\n")
    #expect(runCLI(["snapshot", space.log, "--out", space.path("snap.json")]).status == 0)
    let resolved = arguments.map {
      $0 == "LOG" ? space.log : $0 == "QUERIES" ? space.path("queries.jsonl") : $0 == "SNAP" ? space.path("snap.json") : $0
    }
    let result = try runProcess(storeledgerBinary().path, resolved, stdoutPath: "/dev/full")
    #expect(result.status == 74, "\(arguments[0]): \(result.stderr)")
    #expect(result.stderr.contains("cannot write standard output"))
  }
}
