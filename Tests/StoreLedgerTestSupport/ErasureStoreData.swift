import Foundation

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerGenerate

/// Store data for a generated log: App Store notifications and Google Play documents whose
/// account (`appAccountToken`, `obfuscatedExternalAccountId`) is one of the log's subjects, and
/// the generator's catalog with their products, for the erasure property test.
package enum ErasureStoreData {
  /// The generator's catalog (no usage) with an App Store and a Google Play subscription and a
  /// consumable that the test's own lines buy.
  package static let catalogText: String = {
    guard case .object(var members)? = try? JSONValue.parse(LogGenerator.catalogJSON),
      let at = members.firstIndex(where: { $0.0 == "products" }), case .object(var products) = members[at].1
    else { preconditionFailure("the generator's catalog is an object with products") }
    let subscription = { (group: String) -> JSONValue in
      .object([("type", .string("auto_renewable")), ("group", .string(group)), ("entitlements", .array([.string("store_pro")]))])
    }
    products += [
      ("as.pro.monthly", subscription("as_pro")), ("gp_pro:monthly", subscription("gp_pro")),
      ("gift.coins", .object([("type", .string("consumable")), ("currency", .string("giftcoins")), ("units", .integer(10))])),
    ]
    members[at].1 = .object(products)
    return JSONWriter.pretty(.object(members)) + "\n"
  }()

  /// A purchase token as long as Google's, drawn from `random`.
  package static func token(_ random: inout SeededGenerator) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    let body = String((0..<80).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] })
    return String(body.prefix(24)) + ".AO-J1O" + body.dropFirst(24)
  }

  /// An App Store purchase and renewal of `subject` (number `n`), starting at `start`.
  package static func appStore(subject: String, n: Int, start: Timestamp) -> String {
    let month: Int64 = 30 * 86_400_000
    func date(_ months: Int64, _ extra: Int64 = 0) -> String { start.adding(milliseconds: months * month + extra).rfc3339 }
    let original = "7700\(100 + n)0"
    let first = AppleTransaction(
      transactionId: original, originalTransactionId: original, productId: "as.pro.monthly", purchaseDate: date(0),
      expiresDate: date(1), signedDate: date(0, 1000), subscriptionGroupIdentifier: "as_pro", appAccountToken: subject)
    var renewal = first
    renewal.transactionId = "7700\(100 + n)1"
    renewal.purchaseDate = date(1)
    renewal.expiresDate = date(2)
    renewal.signedDate = date(1, 1000)
    renewal.transactionReason = "RENEWAL"
    return [
      AppleNotification(
        notificationType: "SUBSCRIBED", subtype: "INITIAL_BUY", notificationUUID: "c0ffee00-0000-4000-8000-\(100_000_000_000 + n)0",
        signedDate: date(0, 1000), transaction: first),
      AppleNotification(
        notificationType: "DID_RENEW", notificationUUID: "c0ffee00-0000-4000-8000-\(100_000_000_000 + n)1",
        signedDate: date(1, 1000), transaction: renewal),
    ].map(\.signedBody).joined(separator: "\n") + "\n"
  }

  /// Google Play notifications and subscription resources of `token`, bought by `subject`
  /// (number `n`) at `start` and renewed once.
  package static func googlePlay(subject: String, token: String, n: Int, start: Timestamp) -> String {
    let month: Int64 = 30 * 86_400_000
    func date(_ months: Int64, _ extra: Int64 = 0) -> String { start.adding(milliseconds: months * month + extra).rfc3339 }
    let order = "GPA.\(3300 + n)-0000-0000-\(10_000 + n)"
    return [
      GP.push(GP.notification(4, token, at: date(0)), messageID: "\(n)0"),
      GP.subscription(token, order: order, start: date(0), expiry: date(1), product: "gp_pro", account: subject, fetched: date(0, 2000)),
      GP.push(GP.notification(2, token, at: date(1)), messageID: "\(n)1"),
      GP.subscription(token, order: order + "..0", start: date(0), expiry: date(2), product: "gp_pro", account: subject, fetched: date(1, 2000)),
    ].joined(separator: "\n") + "\n"
  }

  /// Every form a file can spell `value` in: its bytes, JSON-quoted, with its first or every
  /// character as a `\u` escape, and with `/` as `\/`.
  package static func forms(_ value: String) -> [[UInt8]] {
    func escaped(_ scalar: Unicode.Scalar) -> String {
      guard scalar.value < 0x10000 else { return String(scalar) }
      let hex = String(scalar.value, radix: 16)
      return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
    let everyEscaped = "\"" + value.unicodeScalars.map(escaped).joined() + "\""
    let slashes = value.replacingOccurrences(of: "/", with: "\\/")
    return jsonForms(value) + [Array(value.utf8), Array(everyEscaped.utf8), Array(slashes.utf8)]
  }
}
