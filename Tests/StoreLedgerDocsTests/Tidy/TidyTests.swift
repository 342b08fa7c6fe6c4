import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Rules the code keeps, checked on Sources/ with no tool but this target (TigerBeetle's
/// `tidy`): function length, the layer table of Docs/architecture.md, file names. Each
/// allow-list in `TidyAllowList` records today's exceptions and may only shrink.
@Suite("Tidy: function lengths, layers and file names, read from Sources/")
struct TidyTests {
  /// Longest a function may be (Docs/architecture.md; TigerBeetle's limit).
  static let functionLinesMax = 70

  /// Every Swift file of Sources/, blanked.
  static let sources: [SwiftSource] = (try? SwiftSource.files(under: "Sources")) ?? []

  @Test("no function is over 70 lines but the allow-listed ones, and none of those grows")
  func functionLengths() throws {
    try #require(Self.sources.count > 100, "Sources/ not found")
    var longest: [String: Int] = [:]
    for body in Self.sources.flatMap(\.bodies) where body.lines > Self.functionLinesMax {
      longest[body.key] = max(longest[body.key] ?? 0, body.lines)
    }
    var problems: [String] = []
    for (key, lines) in longest.sorted(by: { $0.key < $1.key }) {
      guard let allowed = TidyAllowList.longFunctions[key] else {
        problems.append("\(key): \(lines) lines, more than \(Self.functionLinesMax): split it")
        continue
      }
      if lines > allowed {
        problems.append("\(key): \(lines) lines, allow-listed at \(allowed): it may only shrink")
      }
    }
    for (key, allowed) in TidyAllowList.longFunctions.sorted(by: { $0.key < $1.key }) where longest[key] == nil {
      problems.append(
        "\(key): allow-listed at \(allowed) lines, but it is gone or at most \(Self.functionLinesMax): remove it from TidyAllowList.longFunctions"
      )
    }
    let current = longest.sorted { $0.key < $1.key }.map { "    \"\($0.key)\": \($0.value)," }.joined(separator: "\n")
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))\n\nFunctions over the limit now:\n\(current)")
  }

  @Test("no code lists event kinds in a test (kind == .a || kind == .b): it asks the kind table")
  func noKindLists() throws {
    try #require(Self.sources.count > 100, "Sources/ not found")
    // Only `EventKind` cases: the stores' own vocabularies (Google's notification kinds) are not the table's.
    let kinds = EventKind.allCases.map { String(describing: $0) }.joined(separator: "|")
    let test = #"kind\s*[!=]=\s*\.("# + kinds + #")\b"#
    let chain = try Regex(test + #"\s*(\|\||&&)\s*[a-zA-Z.]*"# + test)
    var listing: Set<String> = []
    for source in Self.sources {
      let code = String(decoding: source.code, as: UTF8.self)
      if code.contains(chain) { listing.insert(source.path) }
    }
    for path in listing.sorted() where TidyAllowList.kindLists[path] == nil {
      Issue.record("\(path) lists event kinds: ask the kind table (EventKind.facts: scope, isCharge, namesCharge, mayCarry) instead")
    }
    for path in TidyAllowList.kindLists.keys.sorted() where !listing.contains(path) {
      Issue.record("\(path) is allow-listed in TidyAllowList.kindLists but lists no kinds: remove it")
    }
  }

  @Test("only the kind table, the fold and the value rules switch over every event kind")
  func exhaustiveKindSwitches() throws {
    try #require(Self.sources.count > 100, "Sources/ not found")
    var switching: Set<String> = []
    for source in Self.sources where Self.hasExhaustiveKindSwitch(String(decoding: source.code, as: UTF8.self)) {
      switching.insert(source.path)
    }
    for path in switching.sorted() where TidyAllowList.kindSwitches[path] == nil {
      Issue.record(
        "\(path) switches over every event kind: a new kind would have to be added here too; put the rule in the kind table or Decide/")
    }
    for path in TidyAllowList.kindSwitches.keys.sorted() where !switching.contains(path) {
      Issue.record("\(path) is allow-listed in TidyAllowList.kindSwitches but has no switch over every kind: remove it")
    }
  }

  @Test("the kind-switch check finds a switch naming every kind, also nested, and passes one with a default", arguments: [
    ("switch e.kind {\ncase .purchase: a()\ncase .renewal, .usage: b()\ncase .grant: c()\n}", true),
    ("func f() {\n  if x {\n    switch kind {\n    case .purchase: if y { a() }\n    case .renewal: b()\n    case .usage, .transfer: c()\n    }\n  }\n}", true),
    ("switch e.kind {\ncase .purchase: a()\ncase .renewal, .usage: b()\ndefault: c()\n}", false),
    ("switch e.kind {\ncase .purchase: a()\ncase let other: b(other)\n}", false),
    ("switch field {\ncase .product: a()\ncase .transaction, .quantity: b()\n}", false),
    ("switch type {\ncase .didRenew: a(.renewal)\ncase .refund: b(.revocation)\ncase .expired: c(.expiration)\n}", false),
  ])
  func kindSwitchCheck(code: String, isExhaustive: Bool) {
    #expect(Self.hasExhaustiveKindSwitch(code) == isExhaustive, "\(code)")
  }

  /// Whether `code` (blanked) has a `switch` whose own `case` labels name event kinds (three or
  /// more) with no `default`, `case let` or `case _`: one the compiler names when a kind is added.
  static func hasExhaustiveKindSwitch(_ code: String) -> Bool {
    let kinds = Set(EventKind.allCases.map { String(describing: $0) })
    let text = Array(code)
    var searchFrom = code.startIndex
    while let found = code[searchFrom...].firstMatch(of: #/\bswitch\b[^{\n]*\{/#) {
      searchFrom = found.range.upperBound
      // The switch's own lines: its body without the bodies of blocks nested in it.
      var depth = 1
      var own = ""
      var index = code.distance(from: code.startIndex, to: found.range.upperBound)
      while depth > 0 && index < text.count {
        let character = text[index]
        if character == "{" { depth += 1 } else if character == "}" { depth -= 1 }
        if depth == 1 && character != "}" { own.append(character) }
        index += 1
      }
      // Each label must start with a kind: another enum's cases may share a few kinds' names.
      let labels = own.matches(of: #/(?m)^\s*case\b([^:]*):/#).map { String($0.output.1) }
      let firsts = labels.map { $0.firstMatch(of: #/\.(\w+)/#).map { String($0.output.1) } }
      guard !firsts.isEmpty, firsts.allSatisfy({ $0.map(kinds.contains) ?? false }) else { continue }
      let named = Set(labels.flatMap { $0.matches(of: #/\.(\w+)/#).map { String($0.output.1) } }).intersection(kinds)
      let catchAll = own.contains(#/(?m)^\s*(default\s*:|case\s+let\s|case\s+_)/#)
      if named.count >= 3 && !catchAll { return true }
    }
    return false
  }

  @Test("every folder uses only the folders and modules its row of Docs/architecture.md's layer table lists")
  func layers() throws {
    let table = try LayerTable.read()
    try #require(!table.rows.isEmpty, "Docs/architecture.md has no layer table")
    var problems: [String] = []
    let rowIndex = Dictionary(table.rows.enumerated().map { ($0.element.folder, $0.offset) }, uniquingKeysWith: { a, _ in a })
    for (index, row) in table.rows.enumerated() {
      for used in row.mayUse where used.hasSuffix("/") && (rowIndex[used] ?? Int.max) >= index {
        problems.append("table: \(row.folder) may use \(used), which is not a row above it")
      }
    }
    let folders = Set(Self.sources.map(Self.folder))
    for folder in folders.sorted() where rowIndex[folder] == nil {
      problems.append("\(folder) has no row in Docs/architecture.md's layer table: add one")
    }
    for row in table.rows where !folders.contains(row.folder) {
      problems.append("table: \(row.folder) has no Swift file in Sources/: remove its row")
    }
    let allowed = Dictionary(table.rows.map { ($0.folder, Set($0.mayUse)) }, uniquingKeysWith: { a, _ in a })
    // A library folder imports the targets its own target depends on (the target table).
    let targetOf = Dictionary(table.targets.flatMap { target in target.folders.map { ($0, target) } }, uniquingKeysWith: { a, _ in a })
    for source in Self.sources {
      let folder = Self.folder(source)
      let dependencies = Set(targetOf[folder]?.dependencies ?? [])
      for (module, line) in source.imports
      where !(allowed[folder]?.contains(module) ?? false) && !dependencies.contains(module) {
        problems.append("\(source.path):\(line): \(folder) imports \(module), which its row does not list")
      }
    }
    var breaksSeen = Set<String>()
    for (edge, evidence) in Self.libraryFolderUses() {
      if allowed[edge.folder]?.contains(edge.uses) ?? false { continue }
      if table.knownBreaks.contains(where: { $0 == edge }) {
        breaksSeen.insert(edge.folder + " " + edge.uses)
        continue
      }
      problems.append("\(evidence): \(edge.folder) uses \(edge.uses), which its row does not list")
    }
    for known in table.knownBreaks where !breaksSeen.contains(known.folder + " " + known.uses) {
      problems.append(
        "table: \(known.folder) no longer breaks the layers through \(known.uses) (or its row allows it): remove that known break"
      )
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  @Test("Package.swift's library targets are Docs/architecture.md's target table, each folder sits in its target's folder, and each row fits its target")
  func targets() throws {
    let table = try LayerTable.read()
    try #require(!table.targets.isEmpty, "Docs/architecture.md has no target table")
    var problems: [String] = []
    let declared = try LayerTable.packageTargets()
    for target in table.targets where !declared.contains(where: { $0.name == target.name }) {
      problems.append("table: target \(target.name) is not a libraryTarget of Package.swift")
    }
    for target in declared {
      guard let row = table.targets.first(where: { $0.name == target.name }) else {
        problems.append("Package.swift: target \(target.name) has no row in the target table")
        continue
      }
      if Set(row.folders) != Set(target.folders) {
        problems.append("Package.swift: \(target.name) compiles \(target.folders), the table says \(row.folders)")
      }
      if Set(row.dependencies) != Set(target.dependencies) {
        problems.append("Package.swift: \(target.name) depends on \(target.dependencies), the table says \(row.dependencies)")
      }
    }
    let library = Set(Self.sources.filter { $0.pathInLibrary != nil }.map(Self.folder))
    var targetOf: [String: LayerTable.Target] = [:]
    for target in table.targets {
      for folder in target.folders {
        if let other = targetOf[folder] { problems.append("table: \(folder) is in \(other.name) and \(target.name)") }
        targetOf[folder] = target
      }
    }
    for folder in library.sorted() where targetOf[folder] == nil {
      problems.append("table: \(folder) is in no target: add it to one")
    }
    // The tree shows the targets: a folder's files sit in the folder of the target compiling it.
    for source in Self.sources where source.pathInLibrary != nil {
      let directory = source.path.split(separator: "/")[1]
      if let target = targetOf[Self.folder(source)], target.name != directory {
        problems.append("\(source.path): \(Self.folder(source)) belongs to \(target.name): move it to Sources/\(target.name)/")
      }
    }
    // A folder may use folders of its own target and of the targets its target depends on.
    for row in table.rows {
      guard let target = targetOf[row.folder] else { continue }
      for used in row.mayUse where used.hasSuffix("/") {
        guard let usedTarget = targetOf[used] else { continue }
        if usedTarget.name != target.name && !target.dependencies.contains(usedTarget.name) {
          problems.append("table: \(row.folder) may use \(used), but \(target.name) does not depend on \(usedTarget.name)")
        }
      }
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  @Test("every file is named after a type it declares or extends, but the allow-listed ones")
  func fileNames() throws {
    try #require(Self.sources.count > 100, "Sources/ not found")
    var misnamed: [String] = []
    for source in Self.sources where source.baseName != "main" {
      let typeKeywords: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "actor", "extension"]
      let names = Set(source.declarations.filter { typeKeywords.contains($0.keyword) }.map(\.name))
      let base = String(source.baseName.split(separator: "+").first ?? "")
      if !names.contains(base) { misnamed.append(source.path) }
    }
    var problems: [String] = []
    for path in misnamed where !TidyAllowList.filesNamedAfterNoType.contains(path) {
      problems.append("\(path): declares or extends no type of that name: rename it or split it")
    }
    for path in TidyAllowList.filesNamedAfterNoType.sorted() where !misnamed.contains(path) {
      problems.append("\(path): allow-listed, but it is gone or now named after its type: remove it from the list")
    }
    let current = misnamed.map { "    \"\($0)\"," }.joined(separator: "\n")
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))\n\nFiles named after no type now:\n\(current)")
  }

  // MARK: How the checks read the code

  /// The row a file belongs to: `Log/` for a library folder, `StoreLedgerCLI/` for a target.
  static func folder(_ source: SwiftSource) -> String {
    if let inLibrary = source.pathInLibrary { return String(inLibrary.prefix { $0 != "/" }) + "/" }
    return source.path.split(separator: "/").map(String.init)[1] + "/"
  }

  /// Which library folder uses which other, each with the first place it does (`path:line: name`).
  ///
  /// A use is a name declared at the top level of another folder's file (a type, function or
  /// constant, not private) that a file names, outside comments and strings, and does not
  /// declare itself. Members reached through a value (`ledger.events`) are not seen.
  static func libraryFolderUses(
    of sources: [SwiftSource] = sources
  ) -> [(edge: (folder: String, uses: String), evidence: String)] {
    let library = sources.filter { $0.pathInLibrary != nil }
    var owner: [String: String] = [:]
    for source in library {
      for declaration in source.declarations
      where declaration.isTopLevel && !declaration.isPrivate && declaration.keyword != "extension" {
        owner[declaration.name] = folder(source)
      }
    }
    var first: [String: (edge: (folder: String, uses: String), evidence: String)] = [:]
    for source in library {
      let folder = folder(source)
      let own = Set(source.declarations.map(\.name))
      for (name, line) in source.identifiers where !own.contains(name) {
        guard let used = owner[name], used != folder else { continue }
        let key = folder + " " + used
        if first[key] == nil { first[key] = ((folder, used), "\(source.path):\(line): \(name)") }
      }
    }
    return first.sorted { $0.key < $1.key }.map(\.value)
  }
}
