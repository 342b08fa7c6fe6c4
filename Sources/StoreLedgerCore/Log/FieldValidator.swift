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
  func unknownCurrency(_ ref: StringRef) -> Problem? {
    guard !catalog.grantsCurrency(bytes(ref)) else { return nil }
    let currency = string(ref)
    return .unknownCurrency(currency: currency, suggestions: NearMatch.suggestions(for: currency, among: catalog.currencies))
  }

  /// The per-kind value rules on the event read so far (`Decide/`).
  @inline(__always)
  var rules: ValueRules { ValueRules(catalog: catalog) }

  func internRef(_ ref: StringRef) -> InternRef { InternRef(ref: ref, hash: SymbolTable.hash(bytes(ref))) }

  /// A usage's `feature`: one of the catalog's policy (its rules on the value are `ValueRules`').
  private func featureProblem(_ fields: RawFields, into event: inout Event) -> Problem? {
    let ref = fields.strings[Field.feature.rawValue]
    guard let policy = catalog.policy else {
      return .invalidValue(
        field: "feature", expected: "a feature of the catalog's 'policy' (this catalog has no policy)",
        found: quoted(ref))
    }
    guard let feature = policy.featureIndex(of: bytes(ref)) else {
      let names = policy.features.map(\.name).joined(separator: ", ")
      return .invalidValue(field: "feature", expected: "a feature of the catalog's policy (\(names))", found: quoted(ref))
    }
    event.feature = UInt16(feature)
    return nil
  }

  /// Checks the per-type rules and returns the event with its strings still to intern.
  /// `lineStart` is where the line starts in its block, for the pending event's string references.
  /// The rules run in a fixed order (fields, identity, shared values, the kind's own values,
  /// offer, price): a line with several faults is refused for the first, the same every time.
  mutating func pending(from fields: RawFields, lineStart: Int = 0) -> Result<PendingEvent, Diagnostic> {
    let present = fields.present
    let s = fields.strings
    guard present.contains(.type) else { return fail(.missingField(field: "type", type: "any")) }
    guard let kind = kind(s[Field.type.rawValue]) else {
      return fail(.unknownEventType(quoted(s[Field.type.rawValue])))
    }
    if let problem = fieldSetProblem(kind, present) { return fail(problem) }
    var event = Event(kind: kind)
    var pending = PendingEvent()
    event.line = UInt32(lineNumber)
    event.at = fields.at
    event.recorded = present.contains(.recorded) ? fields.recorded : fields.at
    event.hasRecorded = present.contains(.recorded)
    pending.details.metaHash = fields.metaHash
    if let problem = identityProblem(fields) { return fail(problem) }
    if let problem = sharedValueProblem(fields, kind, into: &event) { return fail(problem) }
    if let problem = kindValueProblem(fields, kind, into: &event, &pending) { return fail(problem) }
    if let problem = offerProblem(fields, into: &event) { return fail(problem) }
    if kind.isCharge, let problem = priceProblem(fields, kind, into: &event, &pending) { return fail(problem) }
    if kind.isCharge, let problem = chargeFactsProblem(fields, into: &pending) { return fail(problem) }
    pending.id = internRef(s[Field.id.rawValue])
    pending.subject = internRef(s[Field.subject.rawValue])
    // A transfer keeps its unit and recipient as `Event+Transfer` describes (set by `transferProblem`).
    if present.contains(.transaction) && kind != .transfer { pending.transaction = internRef(s[Field.transaction.rawValue]) }
    if present.contains(.originalTransaction) && kind != .transfer {
      pending.originalTransaction = internRef(s[Field.originalTransaction.rawValue])
    }
    pending.event = event
    pending.lineStart = Int32(lineStart)
    return .success(pending)
  }

  /// The first field every type, `kind`'s row of the kind table, or the base fields
  /// miss or refuse; nil when the line's fields fit its type.
  @inline(__always)
  private func fieldSetProblem(_ kind: EventKind, _ present: FieldSet) -> Problem? {
    if !present.contains(FieldValidator.everyTypeFields) {
      for field in [Field.id, .subject, .at] where !present.contains(field) {
        return .missingField(field: field.name, type: kind.name)
      }
    }
    let required = kind.required
    if !present.contains(required) {
      for field in Field.allCases where required.contains(field) && !present.contains(field) {
        return .missingField(field: field.name, type: kind.name)
      }
    }
    let allowed = required.union(kind.optional).union(FieldValidator.baseFields)
    if !allowed.contains(present) {
      for field in Field.allCases where present.contains(field) && !allowed.contains(field) {
        return .fieldNotAllowed(field: field.name, type: kind.name, why: "")
      }
    }
    return nil
  }

  /// The lengths of `id` and `subject` (Docs/log-format.md, "Limits").
  @inline(__always)
  private func identityProblem(_ fields: RawFields) -> Problem? {
    let idLength = scalarCount(fields.strings[Field.id.rawValue])
    guard idLength >= 1 && idLength <= Limits.idLengthMax else {
      return .invalidValue(
        field: "id", expected: "a string of 1–\(Limits.idLengthMax) characters", found: "\(idLength) characters")
    }
    let subjectLength = scalarCount(fields.strings[Field.subject.rawValue])
    guard subjectLength >= 1 && subjectLength <= Limits.subjectLengthMax else {
      return .invalidValue(
        field: "subject", expected: "a string of 1–\(Limits.subjectLengthMax) characters",
        found: "\(subjectLength) characters")
    }
    return nil
  }

  /// The values of fields several types share: `product`, the transaction references, the end
  /// (`expires` or `grace_expires`, one per type) and `auto_renew`, with the rules on their values
  /// (`ValueRules`) where the line's order puts them.
  @inline(__always)
  private func sharedValueProblem(_ fields: RawFields, _ kind: EventKind, into event: inout Event) -> Problem? {
    let present = fields.present
    if present.contains(.product) {
      let ref = fields.strings[Field.product.rawValue]
      guard let index = catalog.index(of: bytes(ref)) else {
        let product = string(ref)
        return .unknownProduct(field: "product", product: product, suggestions: catalog.suggestions(for: product))
      }
      event.product = index
      if let problem = rules.productProblem(event) { return problem }
    }
    for field in [Field.transaction, .originalTransaction] where present.contains(field) {
      let ref = fields.strings[field.rawValue]
      guard ref.count >= 1 && Int(ref.count) <= Limits.referenceBytesMax else {
        return .invalidValue(
          field: field.name, expected: "a non-empty string of at most \(Limits.referenceBytesMax) bytes",
          found: quoted(ref))
      }
    }
    // Two optional lookups rather than an array of pairs: an array built from line values is
    // allocated on every line.
    for field in [Field.expires, .graceExpires] where present.contains(field) {
      event.expires = field == .expires ? fields.expires : fields.graceExpires
      event.hasExpires = true
    }
    if let problem = rules.endProblem(event) { return problem }
    if present.contains(.autoRenew) { event.autoRenew = fields.autoRenew }
    return nil
  }

  /// The values only some kinds carry (`quantity`, `ownership`, `feature`, `currency` of a
  /// consumption, `reason`, `refunded`, `respond_by`, the access kinds' and a transfer's), read
  /// from the line's text field by field; then the kind's rules on them (`ValueRules.kindProblem`).
  @inline(__always)
  private func kindValueProblem(
    _ fields: RawFields, _ kind: EventKind, into event: inout Event, _ pending: inout PendingEvent
  ) -> Problem? {
    let present = fields.present
    if kind.scope.contains(.access) {
      if let problem = accessProblem(fields, kind, into: &event, &pending) { return problem }
    } else if kind.scope.contains(.ownership) {
      if let problem = transferProblem(fields, into: &event, &pending) { return problem }
    } else if present.contains(.reason), let problem = reasonProblem(fields, kind, into: &event) {
      return problem
    }
    if present.contains(.ownership), let problem = ownershipProblem(fields, into: &event) { return problem }
    if present.contains(.feature), let problem = featureProblem(fields, into: &event) { return problem }
    if kind.scope.contains(.balance), let problem = balanceCurrencyProblem(fields, into: &pending) { return problem }
    if present.contains(.quantity) {
      event.quantity = fields.quantity
    } else if kind.mayCarry(.quantity) && (kind.scope.contains(.usage) || (kind.isCharge && catalog.kind(event.product) == .consumable)) {
      // Its default: one use, one pack of a consumable (a kind without the field holds none).
      event.quantity = 1
    }
    if present.contains(.refunded) {
      event.hasRefunded = true
      pending.details.price = fields.refunded
    }
    if present.contains(.respondBy) {
      event.expires = fields.respondBy
      event.hasExpires = true
    }
    return rules.kindProblem(event, pending.details, present: present)
  }

  /// A purchase's `ownership`: `purchased` or `family_shared` (of which products: `ValueRules`).
  private func ownershipProblem(_ fields: RawFields, into event: inout Event) -> Problem? {
    let ref = fields.strings[Field.ownership.rawValue]
    if equals(ref, "purchased") {
      event.ownership = .purchased
    } else if equals(ref, "family_shared") {
      event.ownership = .familyShared
    } else {
      return .invalidValue(field: "ownership", expected: "'purchased' or 'family_shared'", found: quoted(ref))
    }
    event.hasOwnership = true
    return nil
  }

  /// A consumption's `currency`: a currency some consumable of the catalog grants.
  @inline(__always)
  private func balanceCurrencyProblem(_ fields: RawFields, into pending: inout PendingEvent) -> Problem? {
    let ref = fields.strings[Field.currency.rawValue]
    guard ref.count >= 1 && Int(ref.count) <= Limits.referenceBytesMax else {
      return .invalidValue(field: "currency", expected: "a non-empty currency id", found: quoted(ref))
    }
    if let unknown = unknownCurrency(ref) { return unknown }
    pending.currency = internRef(ref)
    return nil
  }

  /// `reason`, one of the names of the kind's reasons, by its scope: an expiration's (subscription),
  /// a revocation's (refund) or a refund request's (refund notice); the access kinds' are free text.
  private func reasonProblem(_ fields: RawFields, _ kind: EventKind, into event: inout Event) -> Problem? {
    if kind.scope.contains(.subscription) { return reasonProblem(fields, ExpirationReason.self, into: &event) }
    if kind.scope.contains(.refund) { return reasonProblem(fields, RevocationReason.self, into: &event) }
    return reasonProblem(fields, RefundRequestReason.self, into: &event)
  }

  /// `reason`, one of the names of `Reason`.
  private func reasonProblem<Reason: ReasonName>(
    _ fields: RawFields, _: Reason.Type, into event: inout Event
  ) -> Problem? {
    let ref = fields.strings[Field.reason.rawValue]
    guard let reason = Reason.allCases.first(where: { matches(ref, $0.name) }) else {
      let names = Reason.allCases.map(\.name).joined(separator: ", ")
      return .invalidValue(field: "reason", expected: "one of \(names)", found: quoted(ref))
    }
    event.reasonRaw = reason.rawValue
    return nil
  }

  /// `offer`: one of the offers other than `normal`.
  @inline(__always)
  private func offerProblem(_ fields: RawFields, into event: inout Event) -> Problem? {
    guard fields.present.contains(.offer) else { return nil }
    let ref = fields.strings[Field.offer.rawValue]
    guard let offer = Offer.allCases.first(where: { $0 != .normal && matches(ref, $0.name) }) else {
      return .invalidValue(field: "offer", expected: "one of trial, intro, promo, code, win_back", found: quoted(ref))
    }
    event.offer = offer
    event.hasOffer = true
    return nil
  }

  /// A charge's `price` and `currency`: both or neither, a price ≥ 0 and an ISO 4217 code.
  @inline(__always)
  private func priceProblem(
    _ fields: RawFields, _ kind: EventKind, into event: inout Event, _ pending: inout PendingEvent
  ) -> Problem? {
    let hasPrice = fields.present.contains(.price)
    guard hasPrice == fields.present.contains(.currency) else {
      return .missingField(
        field: hasPrice ? "currency" : "price",
        type: "\(kind.name) with a \(hasPrice ? "price" : "currency") (both or neither)")
    }
    guard hasPrice else { return nil }
    pending.details.price = fields.price
    if let problem = rules.priceProblem(event, pending.details, present: fields.present) { return problem }
    let ref = fields.strings[Field.currency.rawValue]
    let b = bytes(ref)
    guard b.count == 3, b.allSatisfy({ $0 >= 65 && $0 <= 90 }) else {
      return .invalidValue(field: "currency", expected: "an ISO 4217 code such as USD", found: quoted(ref))
    }
    pending.currency = internRef(ref)
    return nil
  }
}

extension FieldValidator {
  /// A charge's v1.3 `store` (`appstore`, `googleplay` or 1–32 of `a-z0-9_-`), `country` (two
  /// uppercase letters) and `proceeds` (0 ≤ proceeds ≤ price, only with a price), kept as one hash
  /// in its details so a redelivery that changes them is a conflict.
  fileprivate func chargeFactsProblem(_ fields: RawFields, into pending: inout PendingEvent) -> Problem? {
    let present = fields.present
    guard present.contains(.store) || present.contains(.country) || present.contains(.proceeds) else { return nil }
    var hash: UInt64 = 0x5354_4f52_4546_4143
    if present.contains(.store) {
      let ref = fields.strings[Field.store.rawValue]
      let b = bytes(ref)
      guard (1...32).contains(b.count), b.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 || $0 == 45 })
      else {
        return .invalidValue(
          field: "store", expected: "appstore, googleplay or another name of 1–32 characters from a-z, 0-9, _ and -",
          found: quoted(ref))
      }
      hash = hash &* 0x100_0000_01b3 ^ SymbolTable.hash(b)
    }
    if present.contains(.country) {
      let ref = fields.strings[Field.country.rawValue]
      let b = bytes(ref)
      guard b.count == 2, b.allSatisfy({ $0 >= 65 && $0 <= 90 }) else {
        return .invalidValue(field: "country", expected: "an ISO 3166-1 alpha-2 code such as US (two uppercase letters)", found: quoted(ref))
      }
      hash = hash &* 0x100_0000_01b3 ^ (UInt64(b[0]) << 8 | UInt64(b[1]) | 1 << 40)
    }
    if present.contains(.proceeds) {
      guard present.contains(.price) else {
        return .fieldNotAllowed(field: "proceeds", type: "charge without a price", why: "proceeds come with a price")
      }
      guard fields.proceeds >= 0 && fields.proceeds <= fields.price else {
        return .invalidValue(
          field: "proceeds", expected: "an integer from 0 to the price (\(fields.price)) in thousandths",
          found: String(fields.proceeds))
      }
      hash = hash &* 0x100_0000_01b3 ^ (UInt64(bitPattern: fields.proceeds) &+ 1 << 50)
    }
    pending.details.factsHash = hash
    return nil
  }
}

extension FieldValidator {
  /// The values of `grant`, `grant_revoked`, `block` and `unblock` (contract v1.3, section 10):
  /// `entitlements` known to the catalog, `grant` an event id, `service` of 1–64 characters,
  /// `reason` free text of 1–256; kept as `Event+Access` describes.
  fileprivate func accessProblem(
    _ fields: RawFields, _ kind: EventKind, into event: inout Event, _ pending: inout PendingEvent
  ) -> Problem? {
    let s = fields.strings
    if fields.present.contains(.reason) {
      let ref = s[Field.reason.rawValue]
      guard (1...Limits.accessReasonLengthMax).contains(scalarCount(ref)) else {
        return .invalidValue(field: "reason", expected: "free text of 1–\(Limits.accessReasonLengthMax) characters", found: "\(scalarCount(ref)) characters")
      }
      pending.originalTransaction = internRef(ref)
    }
    switch kind {
    case .grant:
      pending.transaction = internRef(s[Field.id.rawValue])
    case .grantRevoked:
      let ref = s[Field.grant.rawValue]
      guard (1...Limits.idLengthMax).contains(scalarCount(ref)) else {
        return .invalidValue(field: "grant", expected: "the id of a grant event (1–\(Limits.idLengthMax) characters)", found: quoted(ref))
      }
      pending.transaction = internRef(ref)
    default:
      let ref = s[Field.service.rawValue]
      guard (1...Limits.serviceLengthMax).contains(scalarCount(ref)) else {
        return .invalidValue(field: "service", expected: "a name of 1–\(Limits.serviceLengthMax) characters such as \"fraud\"", found: quoted(ref))
      }
      pending.transaction = internRef(ref)
    }
    guard kind.mayCarry(.entitlements) else { return nil }
    guard fields.present.contains(.entitlements) else {
      event.entitlementMask = UInt64.max
      return nil
    }
    let (mask, problem) = entitlementMask(s[Field.entitlements.rawValue])
    event.entitlementMask = mask
    return problem
  }

  /// The bit mask of a non-empty list of entitlement ids that some product of the catalog grants.
  private func entitlementMask(_ ref: StringRef) -> (UInt64, Problem?) {
    let names = catalog.entitlementNames
    guard case .array(let items)? = try? JSONValue.parse(string(ref)), !items.isEmpty else {
      return (0, .invalidValue(field: "entitlements", expected: "a non-empty list of entitlement ids", found: string(ref)))
    }
    var mask: UInt64 = 0
    for item in items {
      guard let name = item.stringValue, let index = names.firstIndex(of: name) else {
        let name = item.stringValue ?? ""
        let near = NearMatch.suggestions(for: name, among: names)
        return (
          0,
          .invalidValue(
            field: "entitlements",
            expected: "entitlement ids some product of the catalog grants (\(names.joined(separator: ", ")))"
              + (near.isEmpty ? "" : "; did you mean \(near.map { "'\($0)'" }.joined(separator: " or "))?"),
            found: "\"\(name)\""))
      }
      guard index < Event.maskableEntitlementsMax else {
        return (
          0,
          .invalidValue(
            field: "entitlements",
            expected: "one of the catalog's first \(Event.maskableEntitlementsMax) entitlement ids (grants and blocks name at most that many)",
            found: "\"\(name)\""))
      }
      mask |= 1 << UInt64(index)
    }
    return (mask, nil)
  }
}

extension FieldValidator {
  /// The values of a `transfer` (contract v1.3, section 9): the unit named by exactly one of
  /// `original_transaction` and `transaction`, and `to` a subject id other than `subject`; kept as
  /// `Event+Transfer` describes. The owner chain is a rule of the whole log (`OwnerChains`).
  fileprivate func transferProblem(_ fields: RawFields, into event: inout Event, _ pending: inout PendingEvent) -> Problem? {
    let s = fields.strings
    let byOriginal = fields.present.contains(.originalTransaction)
    let byTransaction = fields.present.contains(.transaction)
    guard byOriginal != byTransaction else {
      return .invalidValue(
        field: byOriginal ? "transaction" : "original_transaction",
        expected: "exactly one of 'original_transaction' (an auto_renewable subscription) or 'transaction' "
          + "(a non_consumable or non_renewing purchase) naming the unit moved",
        found: byOriginal ? "both" : "neither")
    }
    let to = s[Field.to.rawValue]
    let toLength = scalarCount(to)
    guard toLength >= 1 && toLength <= Limits.subjectLengthMax else {
      return .invalidValue(
        field: "to", expected: "a subject id of 1–\(Limits.subjectLengthMax) characters", found: "\(toLength) characters")
    }
    guard !bytes(to).elementsEqual(bytes(s[Field.subject.rawValue])) else {
      return .invalidValue(field: "to", expected: "a subject other than the line's 'subject'", found: quoted(to))
    }
    event.transferNamesTransaction = byTransaction
    pending.originalTransaction = internRef(s[(byTransaction ? Field.transaction : .originalTransaction).rawValue])
    pending.transaction = internRef(to)
    return nil
  }
}

/// The reasons a log's `reason` names, by kind.
protocol ReasonName: CaseIterable {
  /// The name used in the log.
  var name: String { get }
  /// The stored code.
  var rawValue: UInt8 { get }
}

extension ExpirationReason: ReasonName {}
extension RevocationReason: ReasonName {}
extension RefundRequestReason: ReasonName {}

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
  /// A consumption's balance currency or a charge's price currency (by `event.kind`).
  var currency = InternRef()
  /// The price (its currency still to intern) and the meta hash.
  var details = EventDetails()

  /// Interns the strings and returns the finished event (its subject in `loadingSubject`) and its details.
  ///
  /// `blockOffset` is where `buffer` starts in the log file (-1: not a file): ids and
  /// transactions that are the log's own bytes are then interned as spans of it.
  func interned(
    into symbols: inout LedgerSymbols, buffer: UnsafeBufferPointer<UInt8>, scratch: UnsafeBufferPointer<UInt8>,
    blockOffset: Int64 = -1
  ) -> (event: Event, details: EventDetails) {
    @inline(__always) func bytes(_ r: InternRef) -> UnsafeBufferPointer<UInt8> {
      let start = Int(r.ref.start)
      if r.ref.inScratch {
        return UnsafeBufferPointer(rebasing: scratch[start..<(start + Int(r.ref.count))])
      }
      return UnsafeBufferPointer(rebasing: buffer[(Int(lineStart) + start)..<(Int(lineStart) + start + Int(r.ref.count))])
    }
    // Escaped strings were decoded into the scratch: their log bytes differ, so they stay text.
    @inline(__always) func offset(_ r: InternRef) -> Int64 {
      blockOffset < 0 || r.ref.inScratch ? -1 : blockOffset + Int64(lineStart) + Int64(r.ref.start)
    }
    var result = event
    result.id = symbols.ids.intern(bytes(id), hash: id.hash, logOffset: offset(id))
    result.loadingSubject = symbols.subjects.intern(bytes(subject), hash: subject.hash)
    if transaction.ref.isPresent {
      result.transaction = symbols.transactions.intern(bytes(transaction), hash: transaction.hash, logOffset: offset(transaction))
    }
    if originalTransaction.ref.isPresent {
      result.originalTransaction = symbols.transactions.intern(
        bytes(originalTransaction), hash: originalTransaction.hash, logOffset: offset(originalTransaction))
    }
    var details = details
    if currency.ref.isPresent {
      let symbol = symbols.currencies.intern(bytes(currency), hash: currency.hash)
      if result.kind == .consumption { result.balanceCurrency = symbol } else { details.priceCurrency = symbol }
    }
    return (result, details)
  }
}
