extension StoreFees {
  /// The fields of one store's rates.
  static let rateFields = ["rate", "program_rate", "subscription_rate", "subscription_after_year_rate"]

  /// The catalog's `store_fees`: `{STORE: {"rate": "0.30", "program_rate": …, …}}`, rates as
  /// decimal strings from 0 to 1 with at most 6 decimals; `rate` is required. Problems are said
  /// through `bad` with the path of the field (`store_fees.appstore.rate`); nil then.
  static func parse(_ value: JSONValue, bad: (_ path: [String], _ detail: String) -> Void) -> StoreFees? {
    guard let members = value.objectMembers, !members.isEmpty else {
      bad(["store_fees"], "expected an object of store name → rates, such as {\"appstore\": {\"rate\": \"0.30\"}}")
      return nil
    }
    var fees = StoreFees(stores: [:])
    var ok = true
    for (store, raw) in members {
      guard isStoreName(store) else {
        bad(["store_fees", store], "a store name is 1–32 characters from a-z, 0-9, _ and - (as the log's 'store' field)")
        ok = false
        continue
      }
      guard let fields = raw.objectMembers else {
        bad(["store_fees", store], "expected an object of rates, found \(raw.kindName)")
        ok = false
        continue
      }
      var rates: [String: Int64] = [:]
      for (field, rateValue) in fields {
        guard rateFields.contains(field) else {
          bad(["store_fees", store, field], "unknown field; expected \(rateFields.joined(separator: ", "))")
          ok = false
          continue
        }
        guard let text = rateValue.stringValue, let ppm = ratePpm(text) else {
          bad(["store_fees", store, field], "expected a rate as a decimal string from \"0\" to \"1\" with at most 6 decimals (\"0.15\"), found \(JSONWriter.compact(rateValue))")
          ok = false
          continue
        }
        rates[field] = ppm
      }
      guard let rate = rates["rate"] else {
        if !fields.contains(where: { $0.0 == "rate" }) { bad(["store_fees", store, "rate"], "required: the store's standard rate") }
        ok = false
        continue
      }
      fees.stores[store] = Rates(
        ratePpm: rate, programRatePpm: rates["program_rate"], subscriptionRatePpm: rates["subscription_rate"],
        subscriptionAfterYearRatePpm: rates["subscription_after_year_rate"])
    }
    return ok ? fees : nil
  }

  /// A rate `"0.15"` in parts per million, or nil when it is not a decimal from 0 to 1 with at most 6 decimals.
  static func ratePpm(_ text: String) -> Int64? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit) else { return nil }
    let fraction = parts.count == 2 ? parts[1] : ""
    guard parts.count == 1 || (!fraction.isEmpty && fraction.count <= 6), fraction.allSatisfy(\.isASCIIDigit),
      let wholeValue = Int64(whole), wholeValue <= 1
    else { return nil }
    let ppm = wholeValue * ppmWhole + (Int64(String(fraction) + String(repeating: "0", count: 6 - fraction.count)) ?? 0)
    return ppm <= ppmWhole ? ppm : nil
  }

  /// The log's rule for `store` (contract v1.3, section 1).
  static func isStoreName(_ name: String) -> Bool {
    (1...32).contains(name.utf8.count)
      && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F || $0 == 0x2D }
  }
}

extension Character {
  /// `0`–`9` only.
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
