import StoreLedgerTestSupport
import Testing

/// The tidy checks' reading of Swift, on small files whose answers are known: braces, names and
/// imports inside comments and strings do not count.
@Suite("Tidy: how Swift source is read")
struct SwiftSourceTests {
  static let sample = ##"""
    import Foundation
    internal import CStoreLedgerSupport

    /// A doc comment naming Beta { and a brace.
    struct Alpha {
      let text = "a } brace and Beta in a string \(1 + (2))"
      let raw = #"raw "quoted" } \#(Beta.self)"#
      /* a block /* nested */ comment with } */
      func short() -> Int {
        let block = """
          multi-line } "quoted"
          """
        return block.count
      }

      var computed: Int {
        1
      }

      init() {
        _ = [1, 2].map { value in
          value + 1
        }
      }
    }

    private struct Hidden {}
    func helper(_ value: Gamma) -> Beta { value.beta }
    """##

  @Test("bodies are measured from their keyword to their closing brace, strings and comments ignored")
  func bodies() {
    let source = SwiftSource(path: "Sources/StoreLedger/A/Alpha.swift", text: Self.sample)
    let bodies = source.bodies.map { "\($0.name) \($0.line) \($0.lines)" }
    #expect(bodies == ["func short 9 6", "var computed 16 3", "init 20 5", "func helper 28 1"])
  }

  @Test("declarations, imports and the names a file uses")
  func names() {
    let source = SwiftSource(path: "Sources/StoreLedger/A/Alpha.swift", text: Self.sample)
    let declarations = source.declarations.map {
      "\($0.keyword) \($0.name)\($0.isTopLevel ? " top" : "")\($0.isPrivate ? " private" : "")"
    }
    #expect(
      declarations == [
        "struct Alpha top", "let text", "let raw", "func short", "let block", "var computed", "struct Hidden top private",
        "func helper top",
      ])
    #expect(source.imports.map { $0.module } == ["Foundation", "CStoreLedgerSupport"])
    let used = source.identifiers.filter { $0.name.first?.isUppercase ?? false }.map { "\($0.name) \($0.line)" }
    #expect(used == ["Foundation 1", "CStoreLedgerSupport 2", "Alpha 5", "Int 9", "Int 16", "Hidden 27", "Gamma 28", "Beta 28"])
  }

  @Test("a folder using another folder's declaration is found once, with where; comments and strings are not uses")
  func folderUses() {
    let alpha = SwiftSource(path: "Sources/StoreLedger/A/Alpha.swift", text: "struct Alpha {}\nprivate struct Quiet {}\n")
    let beta = SwiftSource(
      path: "Sources/StoreLedger/B/Beta.swift",
      text: "// Alpha\nlet note = \"Alpha\"\nstruct Beta { let alpha: Alpha\n let other: Alpha; let q: Quiet }\n")
    let gamma = SwiftSource(path: "Sources/StoreLedger/C/Gamma.swift", text: "struct Gamma { let text = \"Beta\" }\n")
    let uses = TidyTests.libraryFolderUses(of: [alpha, beta, gamma])
    #expect(uses.map { "\($0.edge.folder) \($0.edge.uses) \($0.evidence)" } == ["B/ A/ Sources/StoreLedger/B/Beta.swift:3: Alpha"])
  }
}
