import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore

/// A diagnostic made from a code exits as the tool's own diagnostics of that code do.
@Suite("Diagnostic(code:message:) exit codes")
struct MadeDiagnosticExitTests {
  @Test(
    "a made diagnostic's exit code is its code's sysexits code, as library.md's table lists it",
    arguments: [
      (DiagnosticCode.fileNotFound, Int32(66)), (.cannotRead, 66), (.unknownSubject, 66), (.usage, 64),
      (.unknownFeature, 64), (.cannotWrite, 74), (.lockBusy, 75), (.idConflict, 65), (.invalidJSON, 65),
    ])
  func exitCode(code: DiagnosticCode, expected: Int32) {
    let made = Diagnostic(code: code, message: "made by a test")
    #expect(made.exitCode == expected, "\(code.rawValue)")
    #expect(DiagnosticList([made]).exitCode == expected)
  }
}
