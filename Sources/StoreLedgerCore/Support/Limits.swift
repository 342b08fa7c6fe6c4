/// Every limit on something that grows, in one place, with what happens at the limit.
package enum Limits {
  /// Longest log line in bytes; a longer line is an error (`lineTooLong`).
  package static let lineBytesMax = 64 * 1024
  /// Longest event `id` in Unicode scalars (Docs/log-format.md: 1–128).
  package static let idLengthMax = 128
  /// Longest `subject` in Unicode scalars (Docs/log-format.md: 1–256).
  package static let subjectLengthMax = 256
  /// Longest free-text `reason` of a grant, grant revocation, block or unblock, in Unicode
  /// scalars (contract v1.3: 1–256); longer is an error.
  package static let accessReasonLengthMax = 256
  /// Longest `service` of a block or unblock, in Unicode scalars (contract v1.3: 1–64); longer is an error.
  package static let serviceLengthMax = 64
  /// Longest `transaction`, `original_transaction`, `product` or `currency` value in bytes.
  package static let referenceBytesMax = 256
  /// Deepest nesting of JSON (in `meta`, catalogs, snapshots); deeper is an error.
  package static let jsonDepthMax = 64
  /// Most events one subject may have; more is an error naming the subject.
  package static let eventsPerSubjectMax = 1_000_000
  /// Most lines one log may have (line numbers are stored in 32 bits).
  package static let linesMax = Int(UInt32.max - 1)
  /// Most diagnostics printed by one command; the rest are counted.
  package static let diagnosticsShownMax = 1000
  /// Largest `append` batch (or other input read whole) in bytes.
  package static let batchBytesMax = 256 * 1024 * 1024
  /// Largest `audit --queries` input read whole, in bytes.
  package static let queryInputBytesMax = 1024 * 1024 * 1024
  /// Largest snapshot read whole (`diff`, `snapshot --check`), in bytes.
  package static let snapshotBytesMax = 8 * 1024 * 1024 * 1024
  /// Longest line of a snapshot read whole (one subject's base64 records).
  package static let snapshotLineBytesMax = 64 * 1024 * 1024
  /// Longest line the log reader skips to report it as too long; longer (an endless line) stops reading.
  package static let skippedLineBytesMax = 64 * 1024 * 1024
  /// Largest catalog file in bytes.
  package static let catalogBytesMax = 16 * 1024 * 1024
  /// Largest integer accepted for `quantity` and `price`.
  package static let amountMax: Int64 = 1_000_000_000_000_000
  /// Most one subject's balance in one currency may move in all (credits, spends, refunds and
  /// reversals counted as positive); the event that passes it is an error (`balanceMovementLimit`).
  /// Every balance is a sum of some of these amounts, so no balance can overflow.
  package static let balanceMovementMax: Int64 = 1_000_000_000_000_000_000
  /// Decimal digits of `amountMax` (a longer number cannot be within it).
  package static let amountDigitsMax = 16
}
