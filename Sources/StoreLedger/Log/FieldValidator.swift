/// Applies the per-type rules of Docs/log-format.md to the raw fields of one line and
/// builds the compact `Event`.
struct FieldValidator {
  let line: UnsafeBufferPointer<UInt8>
  let scratch: UnsafeBufferPointer<UInt8>
  let lineNumber: Int
  let catalog: Catalog

  init(
    line: UnsafeBufferPointer<UInt8>, scratch: UnsafeBufferPointer<UInt8>, lineNumber: Int,
    catalog: Catalog
  ) {
    self.line = line
    self.scratch = scratch
    self.lineNumber = lineNumber
    self.catalog = catalog
  }

  /// Fields every event type requires.
  private static let everyTypeFields: FieldSet = [FieldSet(.id), FieldSet(.subject), FieldSet(.at)]

  private static let baseFields: FieldSet = [
    FieldSet(.id), FieldSet(.type), FieldSet(.subject), FieldSet(.at), FieldSet(.recorded),
    FieldSet(.meta),
  ]

  @inline(__always)
  func bytes(_ ref: StringRef) -> UnsafeBufferPointer<UInt8> {
    let start = Int(ref.start)
    let stop = start + Int(ref.count)
    return UnsafeBufferPointer(rebasing: (ref.inScratch ? scratch : line)[start..<stop])
  }

  func string(_ ref: StringRef) -> String { String(decoding: bytes(ref), as: UTF8.self) }

  func quoted(_ ref: StringRef) -> String { "\"" + string(ref) + "\"" }

  /// Counts Unicode scalars of valid UTF-8 (continuation bytes are not counted).
  func scalarCount(_ ref: StringRef) -> Int {
    // The parser keeps only plain ASCII in the line: one byte, one scalar.
    if !ref.inScratch { return Int(ref.count) }
    var count = 0
    for byte in bytes(ref) where byte & 0xC0 != 0x80 { count += 1 }
    return count
  }

  @inline(__always)
  func equals(_ ref: StringRef, _ literal: StaticString) -> Bool {
    let b = bytes(ref)
    guard b.count == literal.utf8CodeUnitCount else { return false }
    let l = literal.utf8Start
    for k in 0..<b.count where b[k] != l[k] { return false }
    return true
  }

  /// The kind named by `ref`, from the kind table (`EventKind.facts`).
  func kind(_ ref: StringRef) -> EventKind? { EventKind(nameBytes: bytes(ref)) }

  func fail(_ problem: Problem) -> Result<PendingEvent, Diagnostic> {
    .failure(Diagnostic(line: lineNumber, problem))
  }

  /// Whether the bytes of `ref` spell `name` (no `String` is created).
  func matches(_ ref: StringRef, _ name: String) -> Bool { name.utf8.elementsEqual(bytes(ref)) }

  /// A spend of a currency no consumable grants would read as an overdraw of 0: the typo named instead.
  func unknownCurrency(_ ref: StringRef) -> Result<PendingEvent, Diagnostic>? {
    guard !catalog.grantsCurrency(bytes(ref)) else { return nil }
    let currency = string(ref)
    return fail(.unknownCurrency(currency: currency, suggestions: NearMatch.suggestions(for: currency, among: catalog.currencies)))
  }

  func internRef(_ ref: StringRef) -> InternRef { InternRef(ref: ref, hash: SymbolTable.hash(bytes(ref))) }

  /// The most a `usage` event's `quantity` may be, either way (Docs/log-format.md).
  static let usageQuantityMax: Int64 = 1_000_000

  /// Checks `feature` against the catalog's policy and the `quantity` rules of a `usage` event.
  private func validateUsage(_ fields: RawFields, into event: inout Event) -> Result<PendingEvent, Diagnostic>? {
    let ref = fields.strings[Field.feature.rawValue]
    guard let policy = catalog.policy else {
      return fail(
        .invalidValue(
          field: "feature", expected: "a feature of the catalog's 'policy' (this catalog has no policy)",
          found: quoted(ref)))
    }
    guard let feature = policy.featureIndex(of: bytes(ref)) else {
      let names = policy.features.map(\.name).joined(separator: ", ")
      return fail(
        .invalidValue(field: "feature", expected: "a feature of the catalog's policy (\(names))", found: quoted(ref)))
    }
    event.feature = UInt16(feature)
    // Any usage may be the trial's first: its end and grace end must be times an answer can
    // print. Only a usage near the end of time can fail, so the calendar sum is done only there.
    if let trial = policy.trial,
      fields.at.millisecondsSinceEpoch
        > Timestamp.latestMilliseconds - trial.duration.upperBoundMilliseconds
          - (trial.grace?.upperBoundMilliseconds ?? 0)
    {
      let ends = trial.duration.added(to: fields.at)
      let graceEnds = trial.grace.map { $0.added(to: ends) } ?? ends
      guard graceEnds.isReadable else {
        return fail(
          .invalidValue(
            field: "at",
            expected: "a time from which the policy's trial (\(trial.duration)\(trial.grace.map { " and grace \($0)" } ?? "")) "
              + "ends by \(Timestamp.latest.rfc3339), the latest time a log can hold",
            found: "\"\(fields.at.rfc3339)\" (it would end at \(graceEnds.rfc3339))"))
      }
    }
    if fields.present.contains(.quantity) {
      let quantity = fields.quantity
      guard quantity != 0, quantity.magnitude <= FieldValidator.usageQuantityMax.magnitude else {
        return fail(
          .invalidValue(
            field: "quantity",
            expected: "a non-zero integer from -\(FieldValidator.usageQuantityMax) to \(FieldValidator.usageQuantityMax) (negative: held items released)",
            found: String(quantity)))
      }
      event.quantity = quantity
    } else {
      event.quantity = 1
    }
    return nil
  }

  /// Refuses a purchase whose computed values leave their range (Docs/log-format.md, "Limits"):
  /// a grant end from the catalog's duration past the latest time a log can hold, or a
  /// consumable credit (`quantity` × the product's `units`) above `Limits.amountMax`.
  private func checkComputedAmounts(
    _ fields: RawFields, product index: ProductIndex, productKind: ProductKind
  ) -> Result<PendingEvent, Diagnostic>? {
    let product = catalog[index]
    if productKind == .consumable {
      let quantity = fields.present.contains(.quantity) ? fields.quantity : 1
      let (credit, overflow) = quantity.multipliedReportingOverflow(by: product.units)
      guard overflow || credit > Limits.amountMax else { return nil }
      return fail(
        .invalidValue(
          field: "quantity",
          expected: "at most \(Limits.amountMax / product.units) of '\(product.id)' (\(product.units) units each; "
            + "one event credits at most \(Limits.amountMax) units)",
          found: String(quantity)))
    }
    guard !fields.present.contains(.expires), let duration = catalog.grantDurations[Int(index.rawValue)],
      fields.at.millisecondsSinceEpoch > Timestamp.latestMilliseconds - duration.upperBoundMilliseconds
    else { return nil }
    let end = duration.added(to: fields.at)
    guard end.millisecondsSinceEpoch > Timestamp.latestMilliseconds else { return nil }
    return fail(
      .invalidValue(
        field: "at",
        expected: "a time from which '\(product.id)' (\(duration)) ends by \(Timestamp.latest.rfc3339), the latest time a log can hold",
        found: "\"\(fields.at.rfc3339)\" (it would end at \(end.rfc3339))"))
  }

  /// Checks the per-type rules and returns the event with its strings still to intern.
  /// `lineStart` is where the line starts in its block, for the pending event's string references.
  mutating func pending(from fields: RawFields, lineStart: Int = 0) -> Result<PendingEvent, Diagnostic> {
    let present = fields.present
    let s = fields.strings
    guard present.contains(.type) else { return fail(.missingField(field: "type", type: "any")) }
    guard let kind = kind(s[Field.type.rawValue]) else {
      return fail(.unknownEventType(quoted(s[Field.type.rawValue])))
    }
    // Only error paths read it: a computed name keeps String creation off the per-line path.
    var typeName: String { kind.name }
    if !present.contains(FieldValidator.everyTypeFields) {
      for field in [Field.id, .subject, .at] where !present.contains(field) {
        return fail(.missingField(field: field.name, type: typeName))
      }
    }
    let required = kind.required
    if !present.contains(required) {
      for field in Field.allCases where required.contains(field) && !present.contains(field) {
        return fail(.missingField(field: field.name, type: typeName))
      }
    }
    let allowed = required.union(kind.optional).union(FieldValidator.baseFields)
    if !allowed.contains(present) {
      for field in Field.allCases where present.contains(field) && !allowed.contains(field) {
        return fail(.fieldNotAllowed(field: field.name, type: typeName, why: ""))
      }
    }
    var event = Event(kind: kind)
    var pending = PendingEvent()
    event.line = UInt32(lineNumber)
    event.at = fields.at
    event.recorded = present.contains(.recorded) ? fields.recorded : fields.at
    event.hasRecorded = present.contains(.recorded)
    event.metaHash = fields.metaHash

    let id = s[Field.id.rawValue]
    let idLength = scalarCount(id)
    guard idLength >= 1 && idLength <= Limits.idLengthMax else {
      return fail(
        .invalidValue(
          field: "id", expected: "a string of 1–\(Limits.idLengthMax) characters",
          found: "\(idLength) characters"))
    }
    let subject = s[Field.subject.rawValue]
    let subjectLength = scalarCount(subject)
    guard subjectLength >= 1 && subjectLength <= Limits.subjectLengthMax else {
      return fail(
        .invalidValue(
          field: "subject", expected: "a string of 1–\(Limits.subjectLengthMax) characters",
          found: "\(subjectLength) characters"))
    }

    // The product's kind only: copying a whole `Product` per line costs retains.
    var productKind: ProductKind? = nil
    if present.contains(.product) {
      let ref = s[Field.product.rawValue]
      guard let index = catalog.index(of: bytes(ref)) else {
        let product = string(ref)
        return fail(.unknownProduct(field: "product", product: product, suggestions: catalog.suggestions(for: product)))
      }
      event.product = index
      productKind = catalog.kind(index)
      if kind.scope.contains(.subscription) && productKind != .autoRenewable {
        return fail(
          .invalidValue(
            field: "product", expected: "an auto_renewable product for '\(typeName)'",
            found: "'\(catalog[index].id)' (\(catalog[index].kind.rawValue))"))
      }
    }
    func productLabel() -> String { "'\(catalog[event.product].id)' is \(catalog[event.product].kind.rawValue)" }
    for field in [Field.transaction, .originalTransaction] where present.contains(field) {
      let ref = s[field.rawValue]
      guard ref.count >= 1 && Int(ref.count) <= Limits.referenceBytesMax else {
        return fail(
          .invalidValue(
            field: field.name, expected: "a non-empty string of at most \(Limits.referenceBytesMax) bytes",
            found: quoted(ref)))
      }
    }
    // `expires` and `grace_expires` share the event's one end field; a type has at most one.
    // Two optional lookups rather than an array of pairs: an array built from line values is
    // allocated on every line.
    for field in [Field.expires, .graceExpires] where present.contains(field) {
      let end = field == .expires ? fields.expires : fields.graceExpires
      guard end > fields.at else {
        return fail(
          .invalidValue(
            field: field.name, expected: "a time later than 'at' (\(fields.at.rfc3339))",
            found: "\"\(end.rfc3339)\""))
      }
      event.expires = end
      event.hasExpires = true
    }
    if present.contains(.autoRenew) { event.autoRenew = fields.autoRenew }

    if kind == .purchase, let productKind {
      switch productKind {
      case .autoRenewable:
        guard present.contains(.expires) else {
          return fail(
            .missingField(field: "expires", type: "purchase of an auto_renewable product"))
        }
      case .nonRenewing:
        break
      case .nonConsumable, .consumable:
        if present.contains(.expires) {
          return fail(
            .fieldNotAllowed(
              field: "expires", type: typeName, why: productLabel()))
        }
      }
      if present.contains(.originalTransaction) && productKind != .autoRenewable {
        return fail(
          .fieldNotAllowed(
            field: "original_transaction", type: typeName,
            why: "only for auto_renewable products; " + productLabel()))
      }
      if let failure = checkComputedAmounts(fields, product: event.product, productKind: productKind) { return failure }
      if productKind == .consumable {
        event.quantity = present.contains(.quantity) ? fields.quantity : 1
      } else if present.contains(.quantity) {
        return fail(
          .fieldNotAllowed(
            field: "quantity", type: typeName,
            why: "only for consumable products; " + productLabel()))
      }
      if present.contains(.ownership) {
        let ref = s[Field.ownership.rawValue]
        if equals(ref, "purchased") {
          event.ownership = .purchased
        } else if equals(ref, "family_shared") {
          guard catalog.products[Int(event.product.rawValue)].isFamilyShareable else {
            return fail(
              .invalidValue(
                field: "ownership",
                expected: "'purchased' ('\(catalog[event.product].id)' is not family_shareable)",
                found: quoted(ref)))
          }
          event.ownership = .familyShared
        } else {
          return fail(
            .invalidValue(field: "ownership", expected: "'purchased' or 'family_shared'", found: quoted(ref)))
        }
        event.hasOwnership = true
      }
    }
    if kind == .usage {
      if let failure = validateUsage(fields, into: &event) { return failure }
    } else if present.contains(.quantity) {
      guard fields.quantity >= 1 else {
        return fail(.invalidValue(field: "quantity", expected: "an integer ≥ 1", found: String(fields.quantity)))
      }
    }
    if kind == .consumption { event.quantity = fields.quantity }
    if present.contains(.offer) {
      let ref = s[Field.offer.rawValue]
      guard let offer = Offer.allCases.first(where: { $0 != .normal && matches(ref, $0.name) }) else {
        return fail(
          .invalidValue(
            field: "offer", expected: "one of trial, intro, promo, code, win_back", found: quoted(ref)))
      }
      event.offer = offer
      event.hasOffer = true
    }
    if kind.isCharge {
      let hasPrice = present.contains(.price)
      let hasCurrency = present.contains(.currency)
      guard hasPrice == hasCurrency else {
        return fail(
          .missingField(field: hasPrice ? "currency" : "price", type: "\(typeName) with a \(hasPrice ? "price" : "currency") (both or neither)"))
      }
      if hasPrice {
        guard fields.price >= 0 else {
          return fail(
            .invalidValue(field: "price", expected: "an integer ≥ 0 in thousandths", found: String(fields.price)))
        }
        let ref = s[Field.currency.rawValue]
        let b = bytes(ref)
        guard b.count == 3, b.allSatisfy({ $0 >= 65 && $0 <= 90 }) else {
          return fail(
            .invalidValue(field: "currency", expected: "an ISO 4217 code such as USD", found: quoted(ref)))
        }
        event.price = fields.price
        event.hasPrice = true
        pending.currency = internRef(ref)
      }
    } else if kind == .consumption {
      let ref = s[Field.currency.rawValue]
      guard ref.count >= 1 && Int(ref.count) <= Limits.referenceBytesMax else {
        return fail(.invalidValue(field: "currency", expected: "a non-empty currency id", found: quoted(ref)))
      }
      if let unknown = unknownCurrency(ref) { return unknown }
      pending.currency = internRef(ref)
    }
    if present.contains(.reason) {
      let ref = s[Field.reason.rawValue]
      if kind == .expiration {
        guard let reason = ExpirationReason.allCases.first(where: { matches(ref, $0.name) }) else {
          return fail(
            .invalidValue(
              field: "reason",
              expected: "one of voluntary, billing, price_increase, product_unavailable, other",
              found: quoted(ref)))
        }
        event.reasonRaw = reason.rawValue
      } else {
        guard let reason = RevocationReason.allCases.first(where: { matches(ref, $0.name) }) else {
          return fail(
            .invalidValue(field: "reason", expected: "one of refund, family_revoked, other", found: quoted(ref)))
        }
        event.reasonRaw = reason.rawValue
      }
    }
    pending.id = internRef(id)
    pending.subject = internRef(subject)
    if present.contains(.transaction) { pending.transaction = internRef(s[Field.transaction.rawValue]) }
    if present.contains(.originalTransaction) {
      pending.originalTransaction = internRef(s[Field.originalTransaction.rawValue])
    }
    pending.event = event
    pending.lineStart = Int32(lineStart)
    return .success(pending)
  }
}

/// A string of a parsed line and its hash, waiting to be interned.
struct InternRef {
  var ref = StringRef()
  var hash: UInt64 = 0
}

/// A validated line whose strings are not yet interned.
///
/// Parsing and interning are separate steps so that a reader thread can parse
/// while the builder interns (interning must happen in line order, parsing need not).
struct PendingEvent {
  var event = Event(kind: .purchase)
  /// Where the line starts in its block (at most a block's size); string references are relative to it.
  var lineStart: Int32 = 0
  var id = InternRef()
  var subject = InternRef()
  var transaction = InternRef()
  var originalTransaction = InternRef()
  var currency = InternRef()

  /// Interns the strings and returns the finished event.
  func interned(
    into symbols: inout LedgerSymbols, buffer: UnsafeBufferPointer<UInt8>, scratch: UnsafeBufferPointer<UInt8>
  ) -> Event {
    @inline(__always) func bytes(_ r: InternRef) -> UnsafeBufferPointer<UInt8> {
      let start = Int(r.ref.start)
      if r.ref.inScratch {
        return UnsafeBufferPointer(rebasing: scratch[start..<(start + Int(r.ref.count))])
      }
      return UnsafeBufferPointer(rebasing: buffer[(Int(lineStart) + start)..<(Int(lineStart) + start + Int(r.ref.count))])
    }
    var result = event
    result.id = symbols.ids.intern(bytes(id), hash: id.hash)
    result.subject = symbols.subjects.intern(bytes(subject), hash: subject.hash)
    if transaction.ref.isPresent {
      result.transaction = symbols.transactions.intern(bytes(transaction), hash: transaction.hash)
    }
    if originalTransaction.ref.isPresent {
      result.originalTransaction = symbols.transactions.intern(
        bytes(originalTransaction), hash: originalTransaction.hash)
    }
    if currency.ref.isPresent { result.currency = symbols.currencies.intern(bytes(currency), hash: currency.hash) }
    return result
  }
}
