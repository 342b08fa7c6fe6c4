import Foundation

/// A temporary directory holding the Events catalog and a log.
package struct Workspace {
  package let directory: URL
  package var log: String { directory.appendingPathComponent("log.jsonl").path }

  package init(log text: String? = nil) throws {
    directory = try temporaryDirectory()
    try exampleCatalogText.write(toFile: directory.appendingPathComponent("catalog.json").path, atomically: true, encoding: .utf8)
    if let text { try text.write(toFile: log, atomically: true, encoding: .utf8) }
  }

  package func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  package func write(_ name: String, _ text: String) throws {
    try text.write(toFile: path(name), atomically: true, encoding: .utf8)
  }

  package func read(_ name: String = "log.jsonl") throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path(name)))
  }
}
