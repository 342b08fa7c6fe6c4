import StoreLedgerCore

extension AppStoreMapper {
  /// The `service` of the blocks a withdrawn consent writes (contract v1.3, section 10).
  static let consentService = "consent"

  /// Writes a `block` by service `consent` for each RESCIND_CONSENT (a parent or guardian
  /// withdrew consent): every entitlement of the subjects the app transaction's purchases name
  /// in this import, else of `appstore:app-transaction:<appTransactionId>` (or its `--subjects`
  /// mapping), from the notification's `signedDate`. Redeliveries share the notification's
  /// UUID, so they collapse.
  /// - Complexity: O(n log n) in the notifications and their subjects.
  mutating func blockWithdrawnConsents() {
    for notification in consentWithdrawals {
      guard let appTransactionID = notification.appTransactionID else { continue }
      guard let uuid = notification.uuid, !uuid.isEmpty, let signedDate = notification.signedDate else {
        problems.error(
          notification.line,
          "fields 'notificationUUID' and 'signedDate' are required to import RESCIND_CONSENT")
        continue
      }
      let named = appTransactionSubjects[appTransactionID] ?? []
      let fallback =
        options.subjects[appTransactionID] ?? Self.appTransactionSubject(appTransactionID)
      let subjects = named.isEmpty ? [fallback] : named.sorted()
      var meta = baseMeta(environment: notification.environment)
      meta.append(("notificationType", .string(notification.type)))
      meta.append(("appTransactionId", .string(appTransactionID)))
      for subject in subjects {
        guard let subject = checkedSubject(subject, source: "app transaction '\(appTransactionID)'", line: notification.line)
        else { continue }
        // One block per subject; several only when the app transaction's purchases name several.
        let id = "appstore:\(uuid):block" + (subjects.count == 1 ? "" : ":" + GooglePlayMapper.tokenKey(subject))
        emit(
          ImportedEvent(
            id: id, kind: .block, subject: subject, at: signedDate, recorded: signedDate,
            meta: meta, line: notification.line, identity: id
          ) {
            $0.service = Self.consentService
            $0.reason = "RESCIND_CONSENT: a parent or guardian withdrew consent"
          })
      }
    }
  }
}
