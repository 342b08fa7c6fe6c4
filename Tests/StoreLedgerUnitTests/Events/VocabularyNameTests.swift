import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore

/// The public spelling of the log's vocabulary is `rawValue`, and its `Codable` form the standard
/// library's for a `String` raw value; the package's own writers read the kind table's `name`
/// (`staticName`, no allocation). These pin the two spellings to one text, and the coding to the
/// bare name, so neither can drift from the log (Docs/decisions.md, "One front door").
@Suite("Vocabulary names: rawValue, the package's name and Codable are the log's one spelling")
struct VocabularyNameTests {
  /// Every case of the four closed sets, as (rawValue, name, its JSON form).
  static let spellings: [(rawValue: String, name: String, json: String)] =
    EventKind.allCases.map { ($0.rawValue, $0.name, Self.json($0)) }
    + Ownership.allCases.map { ($0.rawValue, $0.name, Self.json($0)) }
    + Offer.allCases.map { ($0.rawValue, $0.name, Self.json($0)) }
    + SubscriptionStatus.allCases.map { ($0.rawValue, $0.name, Self.json($0)) }
    + TrialState.allCases.map { ($0.rawValue, $0.staticName.description, Self.json($0)) }

  static func json(_ value: some Encodable) -> String {
    String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self)
  }

  @Test("each case's rawValue is the kind table's name, and it encodes as that bare string", arguments: spellings.indices)
  func oneSpelling(_ index: Int) {
    let spelling = Self.spellings[index]
    #expect(spelling.rawValue == spelling.name)
    #expect(spelling.json == "\"\(spelling.name)\"")
  }

  @Test("the names are the log's snake_case ones (EventKind.allNames, Docs/log-format.md)")
  func snakeCase() {
    #expect(EventKind.allCases.map(\.rawValue) == EventKind.allNames)
    #expect(EventKind.autoRenewChanged.rawValue == "auto_renew_changed")
    #expect(Ownership.familyShared.rawValue == "family_shared")
    #expect(Offer.winBack.rawValue == "win_back")
    #expect(SubscriptionStatus.billingRetry.rawValue == "billing_retry")
  }

  @Test("every name decodes to its case, and an unknown name is an error naming the type and the value")
  func decoding() throws {
    for kind in EventKind.allCases {
      #expect(try JSONDecoder().decode(EventKind.self, from: Data("\"\(kind.rawValue)\"".utf8)) == kind)
    }
    #expect(try JSONDecoder().decode([Offer].self, from: Data(#"["win_back","normal"]"#.utf8)) == [.winBack, .normal])
    do {
      _ = try JSONDecoder().decode(Ownership.self, from: Data(#""familyShared""#.utf8))
      Issue.record("an unknown name decoded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription.contains("Ownership"), "\(context.debugDescription)")
      #expect(context.debugDescription.contains("familyShared"), "\(context.debugDescription)")
    }
  }

  @Test("a diagnostic code is coded as its bare string, and any string decodes")
  func diagnosticCode() throws {
    #expect(Self.json(DiagnosticCode.idConflict) == #""id_conflict""#)
    #expect(Self.json(DiagnosticCode(rawValue: "owner_chain")) == #""owner_chain""#)
    #expect(try JSONDecoder().decode(DiagnosticCode.self, from: Data(#""not_yet_a_code""#.utf8)).rawValue == "not_yet_a_code")
    #expect(try JSONDecoder().decode([DiagnosticCode].self, from: Data(#"["overdraw"]"#.utf8)) == [.overdraw])
  }
}
