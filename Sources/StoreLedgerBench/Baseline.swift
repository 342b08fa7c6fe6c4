import Foundation
import StoreLedger

/// The obvious Foundation implementation, for comparison: read lines, decode each with
/// `JSONDecoder` into a `Decodable` struct, parse timestamps with `ISO8601DateFormatter` (or, as
/// a second variant, `Date.ISO8601FormatStyle`), build `Event`s and fold them with the same
/// `LedgerBuilder` as the real reader.
///
/// It checks less than the real reader (unknown fields are ignored by `JSONDecoder`, per-type
/// field rules are not enforced), which only flatters it. Runs in a child process
/// (`storeledger-bench --child baseline VARIANT LOG CATALOG`) so its peak RSS is its own.
enum FoundationBaseline {
  /// One log line as `JSONDecoder` sees it.
  struct Line: Decodable {
    var id: String
    var type: String
    var subject: String
    var at: String
    var recorded: String?
    var product: String?
    var transaction: String?
    var original_transaction: String?
    var expires: String?
    var grace_expires: String?
    var quantity: Int64?
    var price: Int64?
    var currency: String?
    var ownership: String?
    var offer: String?
    var reason: String?
    var auto_renew: Bool?
    var feature: String?
    var meta: MetaValue?
  }

  /// `meta` as a JSON value, hashed like the real reader so redeliveries compare the same.
  indirect enum MetaValue: Decodable {
    case object([String: MetaValue])
    case array([MetaValue])
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case null

    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
      if let keyed = try? decoder.container(keyedBy: Key.self) {
        var members: [String: MetaValue] = [:]
        for key in keyed.allKeys { members[key.stringValue] = try keyed.decode(MetaValue.self, forKey: key) }
        self = .object(members)
        return
      }
      if var unkeyed = try? decoder.unkeyedContainer() {
        var items: [MetaValue] = []
        while !unkeyed.isAtEnd { items.append(try unkeyed.decode(MetaValue.self)) }
        self = .array(items)
        return
      }
      let single = try decoder.singleValueContainer()
      if single.decodeNil() {
        self = .null
      } else if let value = try? single.decode(Bool.self) {
        self = .bool(value)
      } else if let value = try? single.decode(Int64.self) {
        self = .integer(value)
      } else if let value = try? single.decode(Double.self) {
        self = .double(value)
      } else {
        self = .string(try single.decode(String.self))
      }
    }

    /// The same value hash as `EventLineParser` (key order and `1.0` vs `1` do not matter).
    var hash: UInt64 {
      switch self {
      case .object(let members):
        var sum: UInt64 = 0x6f62_6a65_6374
        if members.isEmpty { return SymbolTable.mix(sum) }
        for (key, value) in members {
          sum = sum &+ SymbolTable.mix(FoundationBaseline.bytesHash(key) ^ (value.hash &* 0x9e37_79b9_7f4a_7c15))
        }
        return SymbolTable.mix(sum ^ UInt64(members.count))
      case .array(let items):
        var h: UInt64 = 0x6172_7261_79
        if items.isEmpty { return SymbolTable.mix(h) }
        for item in items { h = SymbolTable.mix(h ^ item.hash) }
        return h
      case .string(let text):
        return SymbolTable.mix(FoundationBaseline.bytesHash(text) ^ 0x7374_7269_6e67)
      case .integer(let value):
        return SymbolTable.mix(UInt64(bitPattern: value) ^ 0x6e75_6d)
      case .double(let value):
        if value.isFinite, abs(value) < 9.0e18, value == Double(Int64(value)) {
          return SymbolTable.mix(UInt64(bitPattern: Int64(value)) ^ 0x6e75_6d)
        }
        return SymbolTable.mix((value == 0 ? 0 : value.bitPattern) ^ 0x666c_6f61_74)
      case .bool(let value):
        return value ? 0x7472_7565 : 0x6661_6c73_65
      case .null:
        return 0x6e75_6c6c
      }
    }
  }

  static func bytesHash(_ text: String) -> UInt64 {
    var text = text
    return text.withUTF8 { SymbolTable.hash($0) }
  }

  /// How the baseline turns RFC 3339 text into an instant.
  protocol DateParser {
    init()
    func date(from text: String) -> Date?
  }

  /// `ISO8601DateFormatter`: without fractional seconds first, then with (the classic API).
  struct FormatterDates: DateParser {
    let plain: ISO8601DateFormatter
    let fractional: ISO8601DateFormatter

    init() {
      plain = ISO8601DateFormatter()
      plain.formatOptions = [.withInternetDateTime]
      fractional = ISO8601DateFormatter()
      fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    }

    func date(from text: String) -> Date? { plain.date(from: text) ?? fractional.date(from: text) }
  }

  /// `Date.ISO8601FormatStyle` (swift-foundation's parser): the same fallback, a faster parser.
  struct FormatStyleDates: DateParser {
    let plain = Date.ISO8601FormatStyle()
    let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    init() {}

    func date(from text: String) -> Date? { (try? plain.parse(text)) ?? (try? fractional.parse(text)) }
  }

  /// The two variants, by their command-line names.
  enum Variant: String, CaseIterable {
    case formatter
    case formatstyle

    var title: String {
      switch self {
      case .formatter: return "JSONDecoder + ISO8601DateFormatter fold"
      case .formatstyle: return "JSONDecoder + Date.ISO8601FormatStyle fold"
      }
    }
  }

  static func timestamp<Dates: DateParser>(
    _ text: String, _ dates: Dates, field: String, line: Int
  ) throws -> Timestamp {
    guard let date = dates.date(from: text) else {
      throw BenchError("line \(line): '\(field)' is not an RFC 3339 timestamp: \(text)")
    }
    return Timestamp(millisecondsSinceEpoch: Int64((date.timeIntervalSince1970 * 1000).rounded()))
  }

  /// Folds the log; returns the ledger and the lines read.
  static func fold<Dates: DateParser>(logPath: String, catalog: Catalog, dates: Dates) throws -> Ledger {
    guard let handle = FileHandle(forReadingAtPath: logPath) else {
      throw BenchError("cannot open \(logPath)")
    }
    defer { try? handle.close() }
    var builder = LedgerBuilder(catalog: catalog, file: logPath)
    let decoder = JSONDecoder()
    var pending = Data()
    var lineNumber = 0
    func handleLine(_ bytes: Data) throws {
      lineNumber += 1
      if bytes.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { return }
      let line: Line
      do {
        line = try decoder.decode(Line.self, from: bytes)
      } catch {
        throw BenchError("line \(lineNumber): \(error)")
      }
      let made = try makeEvent(line, lineNumber: lineNumber, catalog: catalog, dates: dates, builder: &builder)
      if builder.add(event: made.event, subject: made.subject, details: made.details) == .rejected {
        throw BenchError("line \(lineNumber): rejected: \(builder.errors.last.map { "\($0)" } ?? "?")")
      }
    }
    while true {
      let chunk = handle.readData(ofLength: 1 << 20)
      if chunk.isEmpty { break }
      pending.append(chunk)
      var start = pending.startIndex
      while let newline = pending[start...].firstIndex(of: 10) {
        try handleLine(pending[start..<newline])
        start = newline + 1
      }
      pending = Data(pending[start...])
    }
    // A torn last line (no newline) is ignored, as by the real reader.
    switch builder.finish() {
    case .success(let ledger): return ledger
    case .failure(let list): throw BenchError("the log does not fold: \(list.diagnostics.prefix(3))")
    }
  }

  static func makeEvent<Dates: DateParser>(
    _ line: Line, lineNumber: Int, catalog: Catalog, dates: Dates, builder: inout LedgerBuilder
  ) throws -> (event: Event, subject: Symbol, details: EventDetails) {
    guard let kind = EventKind(name: line.type) else {
      throw BenchError("line \(lineNumber): unknown type '\(line.type)'")
    }
    var event = Event(kind: kind)
    event.line = UInt32(lineNumber)
    event.at = try timestamp(line.at, dates, field: "at", line: lineNumber)
    if let recorded = line.recorded {
      event.recorded = try timestamp(recorded, dates, field: "recorded", line: lineNumber)
      event.hasRecorded = true
    } else {
      event.recorded = event.at
    }
    var details = EventDetails()
    if let meta = line.meta { details.metaHash = meta.hash }
    if let price = line.price { details.price = price }
    var product: Product? = nil
    if let id = line.product {
      guard let index = catalog.index(of: id) else {
        throw BenchError("line \(lineNumber): unknown product '\(id)'")
      }
      event.product = index
      product = catalog[index]
    }
    if let expires = line.expires ?? line.grace_expires {
      event.expires = try timestamp(expires, dates, field: "expires", line: lineNumber)
      event.hasExpires = true
    }
    if let autoRenew = line.auto_renew { event.autoRenew = autoRenew }
    if kind == .purchase, let product, product.kind == .consumable {
      event.quantity = line.quantity ?? 1
    }
    if kind == .consumption { event.quantity = line.quantity ?? 0 }
    if kind == .usage {
      guard let name = line.feature, let feature = catalog.policy?.featureIndex(of: name) else {
        throw BenchError("line \(lineNumber): 'feature' is not a feature of the catalog's policy")
      }
      event.feature = UInt16(feature)
      event.quantity = line.quantity ?? 1
    }
    try setOptionalFields(line, lineNumber: lineNumber, into: &event)
    let currency = (kind == .consumption || line.price != nil) ? line.currency : nil
    let subject = builder.withSymbols { symbols in
      event.id = symbols.ids.intern(line.id)
      if let transaction = line.transaction { event.transaction = symbols.transactions.intern(transaction) }
      if let original = line.original_transaction {
        event.originalTransaction = symbols.transactions.intern(original)
      }
      if let currency {
        let symbol = symbols.currencies.intern(currency)
        if kind == .consumption { event.balanceCurrency = symbol } else { details.priceCurrency = symbol }
      }
      return symbols.subjects.intern(line.subject)
    }
    return (event, subject, details)
  }

  /// `ownership`, `offer` and the reason, as the real reader sets them.
  static func setOptionalFields(_ line: Line, lineNumber: Int, into event: inout Event) throws {
    if let ownership = line.ownership {
      event.ownership = ownership == "family_shared" ? .familyShared : .purchased
      event.hasOwnership = true
    }
    if let name = line.offer {
      guard let offer = Offer.allCases.first(where: { $0.name == name }) else {
        throw BenchError("line \(lineNumber): unknown offer '\(name)'")
      }
      event.offer = offer
      event.hasOffer = true
    }
    if let reason = line.reason {
      if event.kind == .expiration {
        event.reasonRaw = ExpirationReason.allCases.first { $0.name == reason }?.rawValue ?? 255
      } else {
        event.reasonRaw = RevocationReason.allCases.first { $0.name == reason }?.rawValue ?? 255
      }
    }
  }

  /// The `--child baseline VARIANT LOG CATALOG` entry point: prints a summary like `replay`'s.
  static func runChild(_ variant: Variant, logPath: String, catalogPath: String) -> Int32 {
    do {
      let catalog = try LedgerLoader.loadCatalog(path: catalogPath)
      let (ledger, seconds) = try timed {
        switch variant {
        case .formatter: return try fold(logPath: logPath, catalog: catalog, dates: FormatterDates())
        case .formatstyle: return try fold(logPath: logPath, catalog: catalog, dates: FormatStyleDates())
        }
      }
      let counts = ActiveEntitlements.count(in: ledger, at: ledger.latestEffective)
      var text = "events read: \(ledger.events.count + ledger.duplicatesSkipped)\n"
      text += "duplicates skipped: \(ledger.duplicatesSkipped)\n"
      text += "subjects: \(ledger.subjectCount)\n"
      text += "latest effective time: \(ledger.latestEffective.rfc3339)\n"
      text += "entitlements active at \(ledger.latestEffective.rfc3339):\n"
      text += counts.map { "  \($0.entitlement): \($0.subjects)\n" }.joined()
      text += "elapsed: \(String(format: "%.3f", seconds)) s\n"
      FileHandle.standardOutput.write(Data(text.utf8))
      return 0
    } catch {
      FileHandle.standardError.write(Data("baseline: \(error)\n".utf8))
      return 65
    }
  }
}
