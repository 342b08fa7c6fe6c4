import StoreLedger
import StoreLedgerReport

/// `storeledger policy CATALOG [--format text|markdown|html|json]`: the usage policy in words.
enum PolicyCommand: LedgerCommand {
  static let formats = ["text", "markdown", "html", "json"]

  static let spec = CommandSpec(
    name: "policy", abstract: "Describe a catalog's usage policy for people: what each tier includes.",
    usage: "policy <catalog> [--format text|markdown|html|json]",
    positionals: [("<catalog>", "The catalog (catalog.json) whose 'policy' to describe.")], requiredPositionals: 1,
    options: [.value("format", "format", "text (default), markdown (for a paywall or docs), html (a page) or json.")],
    discussion: """
      Each tier and what it includes of each feature ("5 decision sessions a day", "unlimited",
      "not included"), using the policy's optional 'label' and 'unit' (contract v1.2 §7), else
      the feature's name; when windows reset (with the UTC offset); the trial's terms; and how
      long an offline app may show a cached answer. Made from the same policy value that 'can'
      and every answer decide with, so the words cannot promise what the gate refuses.
      Example: storeledger policy Events/policy/catalog.json --format markdown
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let path = arguments.positionals[0]
    let format = arguments.value("format") ?? "text"
    guard formats.contains(format) else {
      throw UsageError(message: ReportCommand.choiceMessage("format", format, formats))
    }
    let catalog = try LedgerLoader.loadCatalog(path: path)
    guard let description = PolicyDescription(catalog: catalog) else {
      throw Diagnostic(file: path, .badCatalog("this catalog has no 'policy' (tiers and features) to describe"))
    }
    switch format {
    case "markdown": console.out(description.markdown)
    case "html": console.out(description.html)
    case "json": console.out(JSONWriter.pretty(description.json) + "\n")
    default: console.out(description.text)
    }
    return 0
  }
}
