import StoreLedgerCore

/// Recognizes what each input document is and decodes the JWS values it carries.
///
/// Recognized shapes: a notification (decoded, or `{"signedPayload": JWS}`), a transaction,
/// Get Transaction History and Get Refund History responses (`signedTransactions`), Get All
/// Subscription Statuses responses (`data[].lastTransactions[]`), Get Notification History
/// responses (`notificationHistory[].signedPayload`), Get Transaction Info responses
/// (`signedTransactionInfo`), and a bare JWS of any of these. Renewal info and app transactions
/// alone carry no purchase: they are counted, not imported.
///
/// With a verifier, every JWS is verified before it is decoded (Docs/verification.md), and a
/// payload that arrived decoded, outside any verified JWS, is refused: it cannot be verified.
struct AppStoreDocuments {
  /// Checks each JWS; nil with `--no-verify` (and for `emitCatalog`), when JWS are only decoded.
  let verifier: AppStoreSignatureVerifier?

  /// The payloads of every document, each JWS decoded without verification.
  /// - Complexity: O(n) in the total size of the documents.
  static func payloads(in documents: [InputDocument], _ problems: inout ImportProblems)
    -> [AppStorePayload]
  {
    AppStoreDocuments(verifier: nil).payloads(in: documents, &problems)
  }

  /// The payloads of every document; problems are collected, never thrown one by one.
  /// - Complexity: O(n) in the total size of the documents, plus one signature verification
  ///   per JWS when verifying.
  func payloads(in documents: [InputDocument], _ problems: inout ImportProblems)
    -> [AppStorePayload]
  {
    InputDocument.payloads(in: documents, &problems) { document, payloads, problems in
      read(document.value, path: "", line: document.line, into: &payloads, &problems)
    }
  }

  /// Whether a payload may be used: always without a verifier; otherwise only when it came
  /// from a verified JWS (`isSigned`). Records the refusal.
  private func isUsable(_ object: PayloadObject, isSigned: Bool, _ problems: inout ImportProblems) -> Bool {
    guard verifier != nil, !isSigned else { return true }
    let place = object.path.isEmpty ? "this document" : "field '\(object.path)'"
    problems.record(object.line, .unsignedPayload(place: place))
    return false
  }

  /// Reads one top-level document.
  private func read(
    _ value: JSONValue, path: String, line: Int, into payloads: inout [AppStorePayload],
    _ problems: inout ImportProblems
  ) {
    guard let object = object(value, path: path, line: line, &problems) else { return }
    // A bare JWS line was verified by `object`; a JSON document is a decoded payload or an
    // unsigned envelope of JWS.
    let isSigned = value.stringValue != nil
    if object.has("notificationType") {
      if let notification = readNotification(object, isSigned: isSigned, &problems) {
        payloads.append(.notification(notification))
      }
    } else if object.has("signedPayload") {
      if let notification = nestedNotification(object, key: "signedPayload", &problems) {
        payloads.append(.notification(notification))
      }
    } else if case .array(let history)? = object["notificationHistory"] {
      for (index, item) in history.enumerated() {
        let itemPath = object.name("notificationHistory[\(index)]")
        guard let entry = self.object(item, path: itemPath, line: line, &problems) else { continue }
        if let notification = nestedNotification(entry, key: "signedPayload", &problems) {
          payloads.append(.notification(notification))
        }
      }
    } else if case .array(let signed)? = object["signedTransactions"] {
      let environment = object.string("environment", &problems)
      for (index, item) in signed.enumerated() {
        let itemPath = object.name("signedTransactions[\(index)]")
        if let transaction = transaction(item, path: itemPath, line: line, environment, covered: false, &problems) {
          payloads.append(.transaction(transaction))
        }
      }
    } else if case .array(let groups)? = object["data"] {
      readStatuses(object, groups: groups, into: &payloads, &problems)
    } else if let signed = object["signedTransactionInfo"] {
      let itemPath = object.name("signedTransactionInfo")
      let environment = object.string("environment", &problems)
      if let transaction = transaction(signed, path: itemPath, line: line, environment, covered: isSigned, &problems) {
        payloads.append(.transaction(transaction))
      }
    } else if let code = object["errorCode"] {
      let message = object["errorMessage"]?.stringValue.map { ": \($0)" } ?? ""
      problems.error(
        line,
        "this is an App Store Server API error response (errorCode \(JSONWriter.compact(code))\(message)), not purchase data"
      )
    } else {
      readBarePayload(object, isSigned: isSigned, into: &payloads, &problems)
    }
  }

  /// A transaction, renewal info or app transaction without an envelope.
  private func readBarePayload(
    _ object: PayloadObject, isSigned: Bool, into payloads: inout [AppStorePayload],
    _ problems: inout ImportProblems
  ) {
    let transactionKeys = [
      "transactionId", "purchaseDate", "inAppOwnershipType", "transactionReason",
    ]
    let renewalKeys = [
      "autoRenewStatus", "autoRenewProductId", "expirationIntent", "isInBillingRetryPeriod",
      "gracePeriodExpiresDate", "renewalDate", "priceIncreaseStatus",
    ]
    // An app transaction, or a response or notification `appData` that carries one.
    let appTransactionKeys = [
      "receiptType", "applicationVersion", "originalApplicationVersion", "signedAppTransactionInfo",
    ]
    let isPayload = (transactionKeys + renewalKeys + appTransactionKeys + ["productId", "bundleId"]).contains(where: object.has)
    guard !isPayload || isUsable(object, isSigned: isSigned, &problems) else { return }
    if transactionKeys.contains(where: object.has) {
      if let transaction = TransactionPayload.read(object, environment: nil, &problems) {
        payloads.append(.transaction(transaction))
      }
    } else if renewalKeys.contains(where: object.has) {
      let environment = object.string("environment", &problems)
      payloads.append(
        .ignored(
          kind: "renewalInfo", line: object.line, environment: environment,
          identity: object.identity))
    } else if appTransactionKeys.contains(where: object.has) {
      // An app transaction names its environment `receiptType`.
      let environment =
        object.string("receiptType", &problems)
        ?? object.string("environment", &problems)
      payloads.append(
        .ignored(
          kind: "appTransaction", line: object.line, environment: environment,
          identity: object.identity))
    } else if object.has("productId") || object.has("bundleId") {
      // Most likely a transaction with its identifying fields missing: say which.
      if let transaction = TransactionPayload.read(object, environment: nil, &problems) {
        payloads.append(.transaction(transaction))
      }
    } else {
      let keys = object.fields.keys.sorted().prefix(8).joined(separator: ", ")
      let found = keys.isEmpty ? "an empty object" : "keys: \(keys)"
      problems.error(
        object.line,
        "\(object.path.isEmpty ? "this document" : "field '\(object.path)'") is not a payload the App Store importer knows (\(found)); expected a transaction, a notification, or a transaction history, subscription status or notification history response"
      )
    }
  }

  /// The entries of a Get All Subscription Statuses response.
  private func readStatuses(
    _ object: PayloadObject, groups: [JSONValue], into payloads: inout [AppStorePayload],
    _ problems: inout ImportProblems
  ) {
    let environment = object.string("environment", &problems)
    for (groupIndex, group) in groups.enumerated() {
      let groupPath = object.name("data[\(groupIndex)]")
      guard let groupObject = self.object(group, path: groupPath, line: object.line, &problems)
      else { continue }
      guard case .array(let entries)? = groupObject["lastTransactions"] else {
        problems.error(
          object.line, "field '\(groupObject.name("lastTransactions"))': expected an array")
        continue
      }
      for (index, item) in entries.enumerated() {
        let path = groupObject.name("lastTransactions[\(index)]")
        guard let entry = self.object(item, path: path, line: object.line, &problems) else {
          continue
        }
        let errorsBefore = problems.errors.count
        let status = entry.integer("status", &problems)
        guard let signed = entry["signedTransactionInfo"] else {
          problems.error(
            object.line, "field '\(entry.name("signedTransactionInfo"))' is missing")
          continue
        }
        let transaction = transaction(
          signed, path: entry.name("signedTransactionInfo"), line: object.line, environment,
          covered: false, &problems)
        var renewalInfo: RenewalInfoPayload?
        if let signedRenewal = entry["signedRenewalInfo"] {
          renewalInfo = self.renewalInfo(
            signedRenewal, path: entry.name("signedRenewalInfo"), line: object.line, environment,
            covered: false, &problems)
        }
        guard let transaction, problems.errors.count == errorsBefore else { continue }
        payloads.append(
          .subscriptionStatus(
            SubscriptionStatusPayload(
              line: object.line, path: path, status: status, transaction: transaction,
              renewalInfo: renewalInfo)))
      }
    }
  }

  /// A notification carried as a JWS (or, tolerated, as an object) in `key`.
  private func nestedNotification(
    _ object: PayloadObject, key: String, _ problems: inout ImportProblems
  ) -> NotificationPayload? {
    guard let value = object[key],
      let inner = self.object(value, path: object.name(key), line: object.line, &problems)
    else { return nil }
    guard inner.has("notificationType") else {
      problems.error(
        object.line, "field '\(object.name(key))': the decoded payload has no 'notificationType'")
      return nil
    }
    return readNotification(inner, isSigned: value.stringValue != nil, &problems)
  }

  /// Reads a decoded notification and decodes its nested JWS; `isSigned` when it came from a
  /// verified JWS (its nested JWS are verified on their own all the same).
  private func readNotification(_ object: PayloadObject, isSigned: Bool, _ problems: inout ImportProblems)
    -> NotificationPayload?
  {
    guard isUsable(object, isSigned: isSigned, &problems) else { return nil }
    let errorsBefore = problems.errors.count
    let type = object.requiredString("notificationType", &problems, why: "in a notification")
    var notification = NotificationPayload(
      line: object.line, type: type ?? "", subtype: object.string("subtype", &problems),
      uuid: object.string("notificationUUID", &problems),
      signedDate: object.timestamp("signedDate", &problems))
    if let dataValue = object["data"] {
      guard
        let data = self.object(dataValue, path: object.name("data"), line: object.line, &problems)
      else { return nil }
      notification.environment = data.string("environment", &problems)
      notification.environmentField = data.name("environment")
      notification.status = data.integer("status", &problems)
      notification.consumptionReason = data.string("consumptionRequestReason", &problems)
      if let signed = data["signedTransactionInfo"] {
        notification.transaction = transaction(
          signed, path: data.name("signedTransactionInfo"), line: object.line,
          notification.environment, covered: isSigned, &problems)
      }
      if let signed = data["signedRenewalInfo"] {
        notification.renewalInfo = renewalInfo(
          signed, path: data.name("signedRenewalInfo"), line: object.line,
          notification.environment, covered: isSigned, &problems)
      }
    } else if let summary = object["summary"] {
      notification.environment = summary["environment"]?.stringValue
      notification.environmentField = object.name("summary.environment")
    } else if let appData = object["appData"] {
      notification.environment = appData["environment"]?.stringValue
      notification.environmentField = object.name("appData.environment")
      if type == AppStoreNotificationType.rescindConsent.rawValue {
        notification.appTransactionID = appTransactionID(
          appData["signedAppTransactionInfo"], path: object.name("appData.signedAppTransactionInfo"),
          line: object.line, covered: isSigned, &problems)
      }
    } else if let token = object["externalPurchaseToken"]?["externalPurchaseId"]?.stringValue {
      // Apple's own verifier treats external purchase ids starting with SANDBOX as sandbox data.
      notification.environment =
        token.hasPrefix("SANDBOX") ? "Sandbox" : AppStoreEnvironment.production
      notification.environmentField = object.name("externalPurchaseToken.externalPurchaseId")
    }
    return problems.errors.count == errorsBefore ? notification : nil
  }

  /// A transaction carried as a JWS (or, tolerated, as a decoded object: usable when verifying
  /// only if `covered` by the verified JWS around it).
  private func transaction(
    _ value: JSONValue, path: String, line: Int, _ environment: String?, covered: Bool,
    _ problems: inout ImportProblems
  ) -> TransactionPayload? {
    guard let object = object(value, path: path, line: line, &problems),
      isUsable(object, isSigned: covered || value.stringValue != nil, &problems)
    else { return nil }
    return TransactionPayload.read(object, environment: environment, &problems)
  }

  /// The `appTransactionId` of the app transaction a RESCIND_CONSENT names (who withdrew
  /// consent); an error when it is missing or unreadable, since without it the notification
  /// names nobody.
  private func appTransactionID(
    _ value: JSONValue?, path: String, line: Int, covered: Bool, _ problems: inout ImportProblems
  ) -> String? {
    guard let value else {
      problems.error(line, "field '\(path)' is missing; it is required to import RESCIND_CONSENT (whose consent was withdrawn)")
      return nil
    }
    guard let object = object(value, path: path, line: line, &problems),
      isUsable(object, isSigned: covered || value.stringValue != nil, &problems)
    else { return nil }
    return object.requiredString("appTransactionId", &problems, why: "to import RESCIND_CONSENT")
  }

  /// Renewal info carried as a JWS (or, tolerated, as a decoded object; see `transaction`).
  private func renewalInfo(
    _ value: JSONValue, path: String, line: Int, _ environment: String?, covered: Bool,
    _ problems: inout ImportProblems
  ) -> RenewalInfoPayload? {
    guard let object = object(value, path: path, line: line, &problems),
      isUsable(object, isSigned: covered || value.stringValue != nil, &problems)
    else { return nil }
    return RenewalInfoPayload.read(object, environment: environment, &problems)
  }

  /// Whether a decoded payload says it comes from StoreKit Testing in Xcode (`environment`, or
  /// an app transaction's `receiptType`).
  static func isXcodeData(_ payload: JSONValue) -> Bool {
    let xcode = JSONValue.string(AppStoreEnvironment.xcode)
    return payload["environment"] == xcode || payload["receiptType"] == xcode
      || payload["data"]?["environment"] == xcode
  }

  /// The object a value is, decoding it first when it is a JWS string (after verifying it, when
  /// there is a verifier).
  private func object(
    _ value: JSONValue, path: String, line: Int, _ problems: inout ImportProblems
  ) -> PayloadObject? {
    let place = path.isEmpty ? "this document" : "field '\(path)'"
    switch value {
    case .object:
      return PayloadObject(value, path: path, line: line)
    case .string(let text):
      if let verifier {
        guard !verifier.trust.roots.isEmpty else {
          // Said once: every JWS fails the same way.
          if !verifier.reportedMissingRoot {
            verifier.reportedMissingRoot = true
            problems.record(line, .noTrustedRoot(appleRootSHA256: AppStoreTrust.appleRootCAG3SHA256))
          }
          return nil
        }
        // Xcode signs StoreKit testing data with its own key, which chains to no Apple root:
        // like Apple's verifier, read it unverified; the mapper refuses it without
        // --allow-xcode and marks its events `verified: false`.
        if case .success(let decoded) = JWS.decodePayload(text), Self.isXcodeData(decoded) {
          return PayloadObject(decoded, path: path, line: line)
        }
        switch verifier.verify(text) {
        case .success(let decoded):
          return PayloadObject(decoded, path: path, line: line)
        case .failure(let check):
          problems.record(line, .signatureRejected(place: place, check))
          return nil
        }
      }
      switch JWS.decodePayload(text) {
      case .success(let decoded):
        return PayloadObject(decoded, path: path, line: line)
      case .failure(let failure):
        problems.error(line, "\(place): \(failure.detail)")
        return nil
      }
    default:
      problems.error(
        line, "\(place): expected a JSON object or a JWS string, found \(value.kindName)")
      return nil
    }
  }
}
