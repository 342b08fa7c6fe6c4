// The storage codes of the log's vocabulary: the numbers snapshots, index segments and event
// records store for each case. They are written out here, case by case, so that the public
// enums have no raw type (reordering a case changes neither the API nor a file format), and
// `StorageCodeTests` pins every number. A code, once used, is never reused for another case.

extension EventKind {
  /// The kind's number in snapshots, index segments and records (`RecordCoding` keeps codes from
  /// `EventFlags.extendedKind` on in an extra byte); fixed per kind, whatever the order of the cases.
  @inlinable package var storageCode: UInt8 {
    switch self {
    case .purchase: return 0
    case .purchasePending: return 1
    case .renewal: return 2
    case .billingRetry: return 3
    case .graceEntered: return 4
    case .expiration: return 5
    case .autoRenewChanged: return 6
    case .planChanged: return 7
    case .renewalExtended: return 8
    case .revocation: return 9
    case .refundReversed: return 10
    case .consumption: return 11
    case .usage: return 12
    case .refundRequested: return 13
    case .refundDeclined: return 14
    case .grant: return 15
    case .grantRevoked: return 16
    case .block: return 17
    case .unblock: return 18
    case .transfer: return 19
    }
  }

  /// The kind stored as `code`, or nil for a number no kind has.
  @inlinable package init?(storageCode code: UInt8) {
    switch code {
    case 0: self = .purchase
    case 1: self = .purchasePending
    case 2: self = .renewal
    case 3: self = .billingRetry
    case 4: self = .graceEntered
    case 5: self = .expiration
    case 6: self = .autoRenewChanged
    case 7: self = .planChanged
    case 8: self = .renewalExtended
    case 9: self = .revocation
    case 10: self = .refundReversed
    case 11: self = .consumption
    case 12: self = .usage
    case 13: self = .refundRequested
    case 14: self = .refundDeclined
    case 15: self = .grant
    case 16: self = .grantRevoked
    case 17: self = .block
    case 18: self = .unblock
    case 19: self = .transfer
    default: return nil
    }
  }
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
