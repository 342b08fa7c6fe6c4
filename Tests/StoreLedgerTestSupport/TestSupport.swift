import Foundation
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// The package root, found from this file's path.
package let packageRoot: URL = {
  var url = URL(fileURLWithPath: #filePath)
  while url.path != "/" {
    url.deleteLastPathComponent()
    if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
      return url
    }
  }
  fatalError("Package.swift not found above \(#filePath)")
}()

/// The path of a file under the package root.
package func repoPath(_ relative: String) -> String { packageRoot.appendingPathComponent(relative).path }

/// A fresh temporary directory for one test, removed when the test process exits.
package func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "storeledger-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  TemporaryDirectories.shared.register(url)
  return url
}

/// Every directory `temporaryDirectory()` made, removed at exit: a test's values may outlive
/// its scope (ARC may end them early or late), the process end is the one sure moment.
package final class TemporaryDirectories: @unchecked Sendable {
  package static let shared = TemporaryDirectories()
  private let lock = NSLock()
  private var urls: [URL] = []
  private var installed = false

  package func register(_ url: URL) {
    lock.lock()
    defer { lock.unlock() }
    urls.append(url)
    if !installed {
      installed = true
      atexit { TemporaryDirectories.shared.removeAll() }
    }
  }

  package func removeAll() {
    lock.lock()
    defer { lock.unlock() }
    for url in urls { try? FileManager.default.removeItem(at: url) }
    urls.removeAll()
  }
}

/// Prints `text` only when `STORELEDGER_TEST_VERBOSE=1`: a passing run prints nothing, and
/// seeds and tallies are there for whoever asks (failures name their seed in the issue).
package func testLog(_ text: String) {
  if ProcessInfo.processInfo.environment["STORELEDGER_TEST_VERBOSE"] == "1" { print(text) }
}

/// Parses a catalog literal or fails the test.
package func catalog(_ text: String) throws -> Catalog {
  try Catalog.parse(text, file: "catalog.json")
}

/// Parses a fixture's catalog, which must parse (a static fixture cannot throw).
package func fixtureCatalog(_ text: String) -> Catalog {
  do {
    return try catalog(text)
  } catch {
    fatalError("test catalog does not parse: \(error)")
  }
}

/// The catalog of Events/ (the contract's example catalog plus a few products).
package let exampleCatalogText: String = {
  guard let text = try? String(contentsOfFile: repoPath("Events/catalog.json"), encoding: .utf8) else {
    fatalError("Events/catalog.json is missing")
  }
  return text
}()

/// Builds a ledger from log text, returning the ledger or the diagnostics.
package func buildLedger(_ lines: String, catalogText: String = exampleCatalogText, file: String = "log.jsonl")
  throws -> Result<Ledger, DiagnosticList>
{
  var builder = LedgerBuilder(catalog: try catalog(catalogText), file: file)
  var number = 0
  for line in lines.split(separator: "\n", omittingEmptySubsequences: false) {
    number += 1
    var bytes = Array(line.utf8)
    _ = bytes.withUnsafeMutableBufferPointer { builder.add(line: UnsafeBufferPointer($0), lineNumber: number) }
  }
  return builder.finish()
}

/// Builds a ledger that must be valid.
package func ledger(_ lines: String, catalogText: String = exampleCatalogText) throws -> Ledger {
  switch try buildLedger(lines, catalogText: catalogText) {
  case .success(let ledger): return ledger
  case .failure(let list):
    Issue.record("unexpected errors: \(list.diagnostics.map(\.description))")
    throw list
  }
}

/// The diagnostics of a log that must be invalid.
package func errors(_ lines: String, catalogText: String = exampleCatalogText) throws -> [Diagnostic] {
  switch try buildLedger(lines, catalogText: catalogText) {
  case .success:
    Issue.record("expected the log to be rejected")
    return []
  case .failure(let list): return list.diagnostics.filter { $0.severity == .error }
  }
}

/// Parses a timestamp literal.
package func ts(_ text: String) -> Timestamp {
  guard let parsed = Timestamp.parseRFC3339(text) else { fatalError("bad timestamp literal \(text)") }
  return parsed
}

extension QueryEngine {
  /// Answers with both code paths and checks that they agree.
  package mutating func checkedAnswer(_ subject: String, at: String, asOf: String? = nil) -> Holdings {
    let answer = self.answer(subject: subject, at: ts(at), asOf: asOf.map(ts))
    var out: [UInt8] = []
    var bytes = Array(subject.utf8)
    bytes.withUnsafeMutableBufferPointer {
      writeAnswer(subject: UnsafeBufferPointer($0), at: ts(at), asOf: asOf.map(ts), into: &out)
    }
    let fast = try? JSONValue.parse(bytes: out)
    #expect(fast == answer.jsonValue, "fast and structured answers differ for \(subject) at \(at)")
    return answer
  }
}


/// A parameterized test's case whose inputs may hold line breaks, shown escaped (`"a\nb"`)
/// in the test log, which then never carries raw line breaks or control bytes.
package struct EscapedCase<Value: Sendable>: Sendable, CustomTestStringConvertible {
  package let value: Value
  package init(_ value: Value) { self.value = value }
  package var testDescription: String { String(reflecting: value) }
}

/// The ledger of the log at `logPath` and the snapshot written of it, as `storeledger snapshot` writes it.
package func writtenSnapshot(of logPath: String, catalogPath: String, catalog: Catalog) throws -> (ledger: Ledger, bytes: [UInt8]) {
  let (ledger, extent) = try LedgerLoader.load(logPath: logPath, catalog: catalog)
  let header = try SnapshotFiles.header(for: ledger, extent: extent, logPath: logPath, catalogPath: catalogPath)
  return (ledger, SnapshotWriter.write(ledger, header: header))
}
