import Foundation
import StoreLedgerTestSupport
import Testing

/// How far the command line reaches past the library's front door (issue 33, item 3): the
/// `package` types of the engine's targets (`StoreLedgerCore`, `StoreLedgerStorage`,
/// `StoreLedgerImport`) that Sources/StoreLedgerCLI names. The commands should go through
/// `StoreLedger`'s API folder (`LedgerStore`, `LedgerOpening`, …), as a library user does; each
/// name below the bound is a place that still assembles the engine by hand. The bound may only go
/// down (Docs/architecture.md, "One way to open a log").
@Suite("Command reach: the command line names at most a bounded number of the engine's package types")
struct CommandReachTests {
  /// The engine's targets, whose types the commands should not need.
  static let engineTargets = ["StoreLedgerCore", "StoreLedgerStorage", "StoreLedgerImport"]
  /// The most engine types the command line may name. Lower it as commands move behind the
  /// front door; raising it needs a reason in Docs/architecture.md.
  static let engineTypesNamedMax = 47

  /// The top-level `package` types declared in the engine's targets.
  static func engineTypes() throws -> Set<String> {
    var names: Set<String> = []
    for target in engineTargets {
      for source in try SwiftSource.files(under: "Sources/" + target) {
        let lines = source.lines
        for declaration in source.declarations
        where declaration.isTopLevel && ["struct", "enum", "class", "protocol", "typealias", "actor"].contains(declaration.keyword)
          && lines[declaration.line - 1].contains("package ")
        {
          names.insert(declaration.name)
        }
      }
    }
    return names
  }

  /// The engine types Sources/StoreLedgerCLI names, sorted.
  static func namedByCommands() throws -> [String] {
    let engine = try engineTypes()
    var named: Set<String> = []
    for source in try SwiftSource.files(under: "Sources/StoreLedgerCLI") {
      for (name, _) in source.identifiers where engine.contains(name) { named.insert(name) }
    }
    return named.sorted()
  }

  @Test("the engine's package types are found, so the count below measures something")
  func engineTypesAreFound() throws {
    let engine = try Self.engineTypes()
    #expect(engine.contains("LedgerBuilder"))
    #expect(engine.contains("SnapshotFiles"))
    #expect(engine.contains("LedgerKnowledge"))
    #expect(!engine.contains("LedgerOpening"), "the front door is in StoreLedger, not the engine")
  }

  @Test("the command line names no more engine types than the bound, and no longer assembles a ledger by hand")
  func commandReach() throws {
    let named = try Self.namedByCommands()
    #expect(
      named.count <= Self.engineTypesNamedMax,
      "the command line names \(named.count) engine types (at most \(Self.engineTypesNamedMax)): \(named.joined(separator: ", "))")
    // Opening a log for reading (a fold, a snapshot's restore, the index) is `LedgerOpening`'s.
    for assembled in ["SnapshotFiles", "IndexedLedger"] where named.contains(assembled) {
      let users = try SwiftSource.files(under: "Sources/StoreLedgerCLI").filter { source in
        source.identifiers.contains { $0.name == assembled }
      }
      #expect(
        users.allSatisfy { Self.writersOf[assembled, default: []].contains($0.baseName) },
        "\(assembled) is named by \(users.map(\.baseName)); a command opens a log through LedgerOpening")
    }
  }

  /// Commands that still name a type above for what `LedgerOpening` does not do: writing a
  /// snapshot or a split's catalog copy (`SnapshotFiles`), and `find`'s search of the index alone.
  static let writersOf: [String: Set<String>] = [
    "SnapshotFiles": ["SnapshotCommand", "SplitCommand"],
    "IndexedLedger": ["FindCommand"],
  ]
}
