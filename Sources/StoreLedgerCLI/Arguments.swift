import StoreLedger
import StoreLedgerReport

/// One option a command accepts.
struct OptionSpec {
  let name: String
  let valueName: String?
  let help: String
  /// Whether the option may be given more than once (`--root A --root B`).
  var repeats = false

  static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: nil, help: help)
  }

  static func value(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: valueName, help: help)
  }

  /// A value option that may be repeated; `ParsedArguments.values(_:)` gives them all.
  static func repeatedValue(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: valueName, help: help, repeats: true)
  }
}

/// What a command looks like on the command line, for parsing and `--help`.
struct CommandSpec {
  let name: String
  let abstract: String
  let usage: String
  let positionals: [(name: String, help: String)]
  let requiredPositionals: Int
  let options: [OptionSpec]
  let discussion: String
  /// Whether the last positional may be given many times (`report --merge A B C`).
  var repeatsLastPositional = false

  /// `--snapshot` on commands that fold a log.
  static let snapshotOption = OptionSpec.value(
    "snapshot", "file", "Restore from this snapshot and fold only the log's tail after it.")

  /// `--tz` for times typed without an offset.
  static let tzOption = OptionSpec.value(
    "tz", "offset", "UTC offset (+02:00, Z) of dates and times given without one. Default: UTC.")
  /// `--tz` where zone names are taken too (`query`, `can`): times typed and reply dates.
  static let tzZoneOption = OptionSpec.value(
    "tz", "zone",
    "Zone of dates and times given without an offset, and of reply dates: +02:00, Z or a name such as Europe/Paris. Default: UTC.")

  /// `--shard i/n` on commands that fold a log: only the shard's subjects (Docs/scale-out.md).
  static let shardOption = OptionSpec.value(
    "shard", "i/n", "Keep only the subjects of shard i of n, 0 <= i < n <= 4096 (Docs/scale-out.md).")

  /// `--wait` on commands that write a log under its lock.
  static let waitOption = OptionSpec.value(
    "wait", "seconds", "Wait at most this long for another writer's lock, then exit 75. Default: 10.")

  /// `--catalog` is common to every command that reads a log.
  static let catalogOption = OptionSpec.value(
    "catalog", "FILE", "The product catalog (default: catalog.json beside the log).")

  var helpText: String {
    var text = "OVERVIEW: \(abstract)\n\nUSAGE: storeledger \(usage)\n"
    if !positionals.isEmpty {
      text += "\nARGUMENTS:\n"
      for positional in positionals {
        text += "  " + positional.name.padding(24) + positional.help + "\n"
      }
    }
    text += "\nOPTIONS:\n"
    for option in options + [.flag("help", "Show help information.")] {
      let left = "--" + option.name + (option.valueName.map { " <\($0)>" } ?? "")
      text += "  " + left.padding(24) + option.help + "\n"
    }
    if !discussion.isEmpty { text += "\n" + discussion + "\n" }
    return text
  }
}

extension String {
  func padding(_ width: Int) -> String {
    count >= width ? self + "  " : self + String(repeating: " ", count: width - count)
  }
}

/// Parsed arguments of one command.
struct ParsedArguments {
  var positionals: [String] = []
  var values: [String: String] = [:]
  /// Every value of a repeatable option, in the order given.
  var repeatedValues: [String: [String]] = [:]
  var flags: Set<String> = []
  var wantsHelp = false

  func value(_ name: String) -> String? { values[name] }
  /// Every value of a repeatable option (empty when not given).
  func values(_ name: String) -> [String] { repeatedValues[name] ?? [] }
  func has(_ name: String) -> Bool { flags.contains(name) }
}

/// A usage error, printed like swift-argument-parser's.
struct UsageError: Error {
  let message: String
}

enum ArgumentParser {
  /// Parses `arguments` against `spec`: `--name value`, `--name=value`, flags, positionals, `--`.
  static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      if argument == "--help" || argument == "-h" {
        parsed.wantsHelp = true
        continue
      }
      guard argument.hasPrefix("--") else {
        throw UsageError(message: "Unknown option '\(argument)'.")
      }
      var name = String(argument.dropFirst(2))
      var inlineValue: String? = nil
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      guard let option = spec.options.first(where: { $0.name == name }) else {
        let suggestion = NearMatch.closest(name, among: spec.options.map(\.name))
        throw UsageError(
          message: "Unknown option '--\(name)'."
            + (suggestion.map { " Did you mean '--\($0)'?" } ?? ""))
      }
      if option.valueName == nil {
        guard inlineValue == nil else {
          throw UsageError(message: "Option '--\(name)' does not take a value.")
        }
        parsed.flags.insert(name)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else {
        guard index < arguments.count else {
          throw UsageError(message: "Missing value for '--\(name) <\(option.valueName!)>'.")
        }
        value = arguments[index]
        index += 1
      }
      if option.repeats {
        parsed.repeatedValues[name, default: []].append(value)
        continue
      }
      guard parsed.values[name] == nil else {
        throw UsageError(message: "Option '--\(name)' given more than once.")
      }
      parsed.values[name] = value
    }
    if parsed.wantsHelp { return parsed }
    if parsed.positionals.count < spec.requiredPositionals {
      let missing = spec.positionals[parsed.positionals.count].name
      throw UsageError(message: "Missing expected argument '\(missing)'.")
    }
    if parsed.positionals.count > spec.positionals.count && !spec.repeatsLastPositional {
      throw UsageError(message: "Unexpected argument '\(parsed.positionals[spec.positionals.count])'.")
    }
    return parsed
  }

  /// The known name nearest to `name` (see `NearMatch`), for "did you mean".
  static func closest(_ name: String, among names: [String]) -> String? {
    NearMatch.closest(name, among: names)
  }

  /// Parses `--at`, `--as-of` and the like: the forms of `TimeInput`, in the `--tz` offset.
  static func instant(_ text: String, option: String, time: TimeInput) throws(UsageError) -> Timestamp {
    switch time.parse(text) {
    case .success(let instant): return instant
    case .failure(.missingOffset):
      throw UsageError(
        message: "Invalid value for '--\(option)': '\(text)': missing UTC offset: add Z or +02:00, or pass --tz +02:00.")
    case .failure(.outOfRange):
      throw UsageError(
        message: "Invalid value for '--\(option)': '\(text)' is outside the times the tool can print and read back "
          + "(expected \(TimeInput.rangeDescription)).")
    case .failure:
      throw UsageError(message: "Invalid value for '--\(option)': '\(text)' (expected \(TimeInput.formsDescription)).")
    }
  }

  /// Parses a time option of a command without `--tz`: the forms of `TimeInput`, in UTC.
  static func instant(_ text: String, option: String) throws(UsageError) -> Timestamp {
    try instant(text, option: option, time: TimeInput(now: currentTimestamp()))
  }

  /// The time context of a command: the wall clock, and the offset of `--tz` when given. With
  /// `zoneNames` (query, can) a zone name gives its offset now, for `today`; times typed take the
  /// offset in force at them through `instant(_:option:time:zone:)`.
  static func timeInput(_ arguments: ParsedArguments, zoneNames: Bool = false) throws(UsageError) -> TimeInput {
    var time = TimeInput(now: currentTimestamp())
    guard let text = arguments.value("tz") else { return time }
    if let offset = TimeInput.utcOffsetMinutes(text) {
      time.utcOffsetMinutes = offset
    } else if zoneNames, let zone = try zone(arguments) {
      time.utcOffsetMinutes = Int64(zone.offsetSeconds(at: time.now!) / 60)
    } else {
      throw UsageError(message: "Invalid value for '--tz': '\(text)' (expected Z, UTC or an offset such as +02:00).")
    }
    return time
  }

  /// The zone of `--tz` (a name such as Europe/Paris, or an offset), nil when not given.
  static func zone(_ arguments: ParsedArguments) throws(UsageError) -> CustomerZone? {
    guard let name = arguments.value("tz") else { return nil }
    guard let zone = ZoneRules.zone(named: name) else {
      throw UsageError(
        message: "Invalid value for '--tz': '\(name)' (expected Z, UTC, an offset such as +02:00 or a zone such as Europe/Paris).")
    }
    return zone
  }

  /// Parses a time option in `zone`: a time typed without an offset takes the zone's offset in
  /// force at that wall-clock time (summer time included), not the offset of today.
  static func instant(_ text: String, option: String, time: TimeInput, zone: CustomerZone?) throws(UsageError) -> Timestamp {
    guard let zone else { return try instant(text, option: option, time: time) }
    var probe = time
    probe.utcOffsetMinutes = 0
    let wallClock = try instant(text, option: option, time: probe)
    probe.utcOffsetMinutes = 60
    // A time that carries its own offset (or `now`) reads the same under any offset.
    guard try instant(text, option: option, time: probe) != wallClock else { return wallClock }
    var resolved = time
    resolved.utcOffsetMinutes = zone.utcOffsetMinutes(forWallClock: wallClock)
    return try instant(text, option: option, time: resolved)
  }
}
