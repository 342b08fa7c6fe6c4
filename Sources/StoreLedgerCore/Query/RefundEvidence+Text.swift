extension RefundEvidence {
  /// `evidence --format text`: the evidence in sentences, then both bodies.
  package var text: String {
    var lines: [String] = []
    let respond = request.respondBy.map { "; answer by \(AnswerWords.instant($0))" } ?? ""
    lines.append(
      "Refund request \(request.id) (line \(request.line)) of transaction \(request.transaction) by \(request.subject), at \(AnswerWords.instant(request.at)), learned \(AnswerWords.instant(request.recorded))\(respond)"
        + (request.reason.map { "; reason: \($0)" } ?? "") + ".")
    lines.append(
      "As the ledger knew it then: events effective before \(AnswerWords.instant(request.at)) and recorded by \(AnswerWords.instant(request.recorded)).")
    let price = purchase.price.map { ", \(MoneyText.exact(thousandths: $0, currency: purchase.currency ?? "")) \(purchase.currency ?? "")" } ?? ""
    lines.append(
      "Purchase: \(purchase.product) (\(purchase.kind.rawValue)) on \(AnswerWords.instant(purchase.at))\(price), line \(purchase.line)"
        + (purchase.offer == .normal ? "" : ", offer \(purchase.offer.name)") + (purchase.revoked ? "; already revoked at the request" : "")
        + ". Delivered: the ledger holds the charge.")
    lines.append("Consumed: " + consumptionWords + ".")
    lines.append("Trial or sample before the purchase: " + (sample ?? "none") + ".")
    lines.append(historyWords)
    lines.append(
      usesTotal == 0
        ? "Uses the purchase paid for: none."
        : "Uses the purchase paid for: \(usesTotal) (Google Play's list holds the newest \(uses.count), newest first).")
    lines.append(preferenceWords)
    lines.append(contentsOf: notes.map { "Note: " + $0 })
    lines.append("Nothing was sent: these are the request bodies to send yourself.")
    lines.append("App Store, Send Consumption Information (PUT /inApps/v2/transactions/consumption/{transactionId}):")
    lines.append(JSONWriter.pretty(appStoreBody))
    lines.append("Google Play, orders.reviewrefund (POST …/orders/{orderId}:reviewrefund):")
    lines.append(JSONWriter.pretty(googlePlayBody))
    return lines.joined(separator: "\n") + "\n"
  }

  /// The share consumed and how it was measured.
  private var consumptionWords: String {
    let share = consumedMilliunits.map { " = " + Self.percent($0) } ?? ""
    switch consumption {
    case .credits(let currency, let credited, let spent):
      return "\(spent) of the \(credited) \(currency) this purchase credited were spent (spends take the oldest credits first)\(share)"
    case .period(let start, let end, let elapsedMs):
      return
        "\(Self.duration(elapsedMs)) of the period from \(AnswerWords.instant(start)) to \(AnswerWords.instant(end)) had passed\(share)"
    case .unmeasured:
      return "not measured: a lasting unlock has no share the ledger can count"
    }
  }

  private var historyWords: String {
    func sums(_ amounts: [String: Int64]) -> String {
      amounts.isEmpty ? "" : " (" + amounts.sorted { $0.key < $1.key }.map { "\(MoneyText.exact(thousandths: $0.value, currency: $0.key)) \($0.key)" }.joined(separator: ", ") + ")"
    }
    return
      "Customer: first seen \(AnswerWords.instant(history.firstSeen)), \(Plural.counted(tenureDays, "day")) before the request; "
      + "\(Plural.counted(history.purchases, "paid charge"))\(sums(history.purchased)); "
      + "\(Plural.counted(history.refunds, "refund"))\(sums(history.refunded)); "
      + "\(Plural.counted(history.earlierRequests, "earlier refund request")), \(history.declines) declined."
  }

  private var preferenceWords: String {
    let policy = preferenceFromCatalog ? "the catalog's refund_preference" : "the default policy"
    let why: String
    switch preference {
    case .grantFull: why = "little or nothing was consumed"
    case .grantProrated: why = "part of it was consumed"
    case .decline: why = "it was consumed"
    case .neutral: why = "how much was consumed is not known"
    }
    return "Refund preference (\(policy)): \(preference.appStore ?? "none (left out)") for the App Store, \(preference.googlePlay) for Google Play, because \(why)."
  }

  /// Milliunits as a percentage with three decimals at most: `45.2%`.
  static func percent(_ milliunits: Int64) -> String {
    let whole = milliunits / 1000
    var fraction = String(milliunits % 1000).leftPadded(3)
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return fraction.isEmpty ? "\(whole)%" : "\(whole).\(fraction)%"
  }

  /// `3 d 4 h 5 min`, seconds only below a minute.
  static func duration(_ milliseconds: Int64) -> String {
    let minutes = milliseconds / 60_000
    guard minutes > 0 else { return "\(milliseconds / 1000) s" }
    let parts = [(minutes / 1440, "d"), (minutes / 60 % 24, "h"), (minutes % 60, "min")].filter { $0.0 > 0 }
    return parts.map { "\($0.0) \($0.1)" }.joined(separator: " ")
  }
}

extension String {
  /// Zeros before the digits up to `width` characters.
  fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
