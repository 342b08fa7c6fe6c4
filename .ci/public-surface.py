#!/usr/bin/env python3
"""The library's public surface: list it, or reduce it to the API of Docs/library.md.

  .ci/public-surface.py list    # public types of the product's targets (the product's targets)
  .ci/public-surface.py apply   # every other `public` declaration becomes `package`

`apply` is idempotent and mechanical, so it can be re-run after merging branches that add
public declarations: it rewrites `public` to `package` in the product's targets, except in API/
(written for users) and on the declarations listed in KEEP, which Docs/library.md documents.
The CLI, the benchmark and the example are targets of this package and keep `package` access;
the tests use `@testable import`.

The surface that results is recorded in .ci/public-surface.txt and checked by `swift test`
(Tests/StoreLedgerDocsTests/Tidy/PublicSurfaceTests.swift), so CI fails on a public declaration
nobody meant to add; the test prints the new surface to record when a change is meant.
"""
import os
import re
import sys

SOURCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources")
# The product's library targets, each a folder of Sources/ holding its layers' folders.
PRODUCT_TARGETS = ("StoreLedgerCore", "StoreLedgerStorage", "StoreLedgerImport", "StoreLedger")

# file (relative to its target's folder) -> patterns of declaration lines that stay public.
KEEP = {
    "Support/Timestamp.swift": [
        r"struct Timestamp\b", r"var millisecondsSinceEpoch\b", r"init\(millisecondsSinceEpoch:",
        r"static let distantPast\b", r"static let distantFuture\b", r"static func < ",
        r"var description\b", r"var rfc3339\b",
    ],
    "Support/Timestamp+Parsing.swift": [r"static func parseRFC3339\(_ text: String\)"],
    "Support/Timestamp+Date.swift": [
        r"init\(_ date: Date\)", r"static func parseUserInput\(", r"static var now\b", r"var date: Date",
    ],
    "Support/Diagnostic.swift": [
        r"enum Severity\b", r"struct Diagnostic\b", r"var file: String\?", r"var line: Int\?",
        r"var column: Int\?", r"var severity\b", r"var exitCode\b", r"var description\b",
        r"var message\b", r"struct DiagnosticList\b", r"var diagnostics\b", r"init\(_ diagnostics:",
        r"var code: DiagnosticCode", r"public init\($", r"struct DiagnosticCode\b", r"var rawValue: String",
        r"init\(rawValue: String\)", r"init\(from decoder:", r"func encode\(to encoder:",
        # The codes a library caller acts on (Docs/decisions.md, "The public face of errors").
        r"static let (idConflict|transactionReused|overdraw|invalidJSON|importFailed|signatureRejected|"
        r"unsignedPayload|lockBusy|commitsDropped|tornLineBlocksAppend|googlePlayDocumentsDamaged|"
        r"unknownFeature|noPolicy|cacheAfterAnswer|unknownRefundRequest|evidenceWithoutCharge|fileNotFound) ",
    ],
    "Events/EventKind.swift": [r"enum EventKind\b", r"enum Ownership\b", r"enum Offer\b", r"var name: String"],
    "Fold/SubscriptionStatus.swift": [r"enum SubscriptionStatus\b", r"var name: String"],
    "Fold/PolicyDecision.swift": [r"enum TrialState\b"],
    "Log/LogAppender.swift": [
        r"struct AppendReport\b", r"var appended\b", r"var duplicates\b", r"var stamped\b", r"var warnings\b",
        r"var learnedEarlier\b", r"var linesWritten\b",
    ],
}

DECLARATION = re.compile(r"^(\s*(?:@\w+(?:\([^)]*\))?\s+)*)public\b")
TYPE = re.compile(r"^(\s*)public (?:final |indirect )?(struct|enum|class|protocol|typealias|actor) (\w+)")


def swift_files():
    for target in PRODUCT_TARGETS:
        root = os.path.join(SOURCES, target)
        for directory, _, names in sorted(os.walk(root)):
            for name in sorted(names):
                if name.endswith(".swift"):
                    path = os.path.join(directory, name)
                    yield os.path.relpath(path, root), path


def list_types():
    for relative, path in swift_files():
        with open(path, encoding="utf-8") as file:
            for line in file:
                match = TYPE.match(line)
                if match:
                    indent, kind, name = match.groups()
                    print(f"{relative}: {'  ' * (len(indent) // 2)}{kind} {name}")


def apply():
    changed = 0
    for relative, path in swift_files():
        if relative.startswith("API/"):
            continue
        keep = [re.compile(pattern) for pattern in KEEP.get(relative, [])]
        with open(path, encoding="utf-8") as file:
            lines = file.readlines()
        out = []
        for line in lines:
            if DECLARATION.match(line) and not any(pattern.search(line) for pattern in keep):
                line = DECLARATION.sub(lambda m: m.group(1) + "package", line, count=1)
                changed += 1
            out.append(line)
        if out != lines:
            with open(path, "w", encoding="utf-8") as file:
                file.writelines(out)
    print(f"{changed} declarations now package")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "list"
    if command == "list":
        list_types()
    elif command == "apply":
        apply()
    else:
        sys.exit(__doc__)
