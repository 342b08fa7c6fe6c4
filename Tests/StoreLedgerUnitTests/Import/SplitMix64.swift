import StoreLedgerTestSupport

/// The support module's shuffler for every file of this target, not the log generator's of the
/// same name (which `@testable import StoreLedgerGenerate` also brings in).
typealias SplitMix64 = StoreLedgerTestSupport.SplitMix64
