/// The fixed bytes between an answer line's values, built once from `AnswerKey`: each is
/// written with one append, as the literals they replace were.
package struct AnswerPieces: Sendable {
  /// `{"as_of":`
  let asOf: [UInt8]
  /// `,"at":`
  let at: [UInt8]
  /// `,"balances":{`
  let balancesOpen: [UInt8]
  /// `,"cache":{"stale":`
  let cacheStale: [UInt8]
  /// `,"verified_at":`
  let verifiedAt: [UInt8]
  /// `,"entitlements":{`
  let entitlementsOpen: [UInt8]
  /// `},"plans":{`
  let plansOpen: [UInt8]
  /// `},"subject":`
  let subject: [UInt8]
  /// `:{"expires":`
  let expiresOpen: [UInt8]
  /// `,"ownership":"`
  let ownership: [UInt8]
  /// `","period":"`
  let period: [UInt8]
  /// `","product":`
  let product: [UInt8]
  /// `,"state":"`
  let state: [UInt8]
  /// `,"original_transaction":`
  let originalTransaction: [UInt8]
  /// `,"renews_to":`
  let renewsTo: [UInt8]
  /// `","transaction":`
  let transaction: [UInt8]
  /// `,"will_renew":`
  let willRenew: [UInt8]
  /// `,"tier":`
  let tier: [UInt8]
  /// `,"trial":`
  let trial: [UInt8]
  /// `{"ends":`
  let endsOpen: [UInt8]
  /// `,"ends_by":`
  let endsBy: [UInt8]
  /// `,"grace_ends":`
  let graceEnds: [UInt8]
  /// `,"started":`
  let started: [UInt8]
  /// `,"usage":{`
  let usageOpen: [UInt8]
  /// `:{"allowed":true,"limit":`
  let allowedLimit: [UInt8]
  /// `:{"allowed":false,"limit":`
  let refusedLimit: [UInt8]
  /// `,"used":`
  let used: [UInt8]
  /// `,"window_ends":`
  let windowEnds: [UInt8]

  /// The pieces, from the key table.
  static let shared = AnswerPieces()

  private init() {
    func piece(_ before: String, _ key: AnswerKey, _ after: String = "") -> [UInt8] {
      Array((before + "\"" + key.name + "\":" + after).utf8)
    }
    asOf = piece("{", .asOf)
    at = piece(",", .at)
    balancesOpen = piece(",", .balances, "{")
    cacheStale = piece(",", .cache, "{") + piece("", .stale)
    verifiedAt = piece(",", .verifiedAt)
    entitlementsOpen = piece(",", .entitlements, "{")
    plansOpen = piece("},", .plans, "{")
    subject = piece("},", .subject)
    expiresOpen = piece(":{", .expires)
    ownership = piece(",", .ownership, "\"")
    period = piece("\",", .period, "\"")
    product = piece("\",", .product)
    state = piece(",", .state, "\"")
    originalTransaction = piece(",", .originalTransaction)
    renewsTo = piece(",", .renewsTo)
    transaction = piece("\",", .transaction)
    willRenew = piece(",", .willRenew)
    tier = piece(",", .tier)
    trial = piece(",", .trial)
    endsOpen = piece("{", .ends)
    endsBy = piece(",", .endsBy)
    graceEnds = piece(",", .graceEnds)
    started = piece(",", .started)
    usageOpen = piece(",", .usage, "{")
    allowedLimit = piece(":{", .allowed, "true") + piece(",", .limit)
    refusedLimit = piece(":{", .allowed, "false") + piece(",", .limit)
    used = piece(",", .used)
    windowEnds = piece(",", .windowEnds)
  }
}
