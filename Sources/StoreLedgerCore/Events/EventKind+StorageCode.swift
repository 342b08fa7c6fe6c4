// The storage codes of the log's vocabulary: the numbers snapshots, index segments and event
// records store for each case. An event kind's is a column of its row in the kind table; the
// others are written out here, case by case, so that the public enums have no raw type (reordering a case changes neither the API nor a file format), and
// `StorageCodeTests` pins every number. A code, once used, is never reused for another case.

extension EventKind {
  /// The kind's number in snapshots, index segments and records (`RecordCoding` keeps codes from
  /// `EventFlags.extendedKind` on in an extra byte): a column of the kind table (`facts`).
  @inlinable package var storageCode: UInt8 { facts.storageCode }

  /// The kind stored as `code`, or nil for a number no kind has.
  package init?(storageCode code: UInt8) {
    guard let kind = EventKind.byStorageCode[Int(code)] else { return nil }
    self = kind
  }

  /// Every kind at its storage code, nil where no kind has that number. Derived from `allCases`;
  /// two kinds given one number stop the program at first use (a programmer error).
  private static let byStorageCode: [EventKind?] = {
    var table = [EventKind?](repeating: nil, count: Int(UInt8.max) + 1)
    for kind in allCases {
      precondition(table[Int(kind.storageCode)] == nil, "two event kinds have storage code \(kind.storageCode)")
      table[Int(kind.storageCode)] = kind
    }
    return table
  }()
}

extension Ownership {
  /// The ownership's number in snapshots, index segments and records.
  @inlinable package var storageCode: UInt8 {
    switch self {
    case .purchased: return 0
    case .familyShared: return 1
    case .granted: return 2
    }
  }

  /// The ownership stored as `code`, or nil for a number none has.
  @inlinable package init?(storageCode code: UInt8) {
    switch code {
    case 0: self = .purchased
    case 1: self = .familyShared
    case 2: self = .granted
    default: return nil
    }
  }
}

extension Offer {
  /// The offer's number in snapshots, index segments and records.
  @inlinable package var storageCode: UInt8 {
    switch self {
    case .normal: return 0
    case .trial: return 1
    case .intro: return 2
    case .promo: return 3
    case .code: return 4
    case .winBack: return 5
    }
  }

  /// The offer stored as `code`, or nil for a number none has.
  @inlinable package init?(storageCode code: UInt8) {
    switch code {
    case 0: self = .normal
    case 1: self = .trial
    case 2: self = .intro
    case 3: self = .promo
    case 4: self = .code
    case 5: self = .winBack
    default: return nil
    }
  }
}
