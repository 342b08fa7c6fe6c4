import StoreLedger
import Synchronization

/// One JSON line per answered request: time, method, route template, status, duration, bytes,
/// and the subject as `--log-subjects` says (never the query string, headers or body).
package final class AccessLog: Sendable {
  /// Where lines go (stdout in `storeledger serve`), one call at a time.
  private let write: @Sendable (String) -> Void
  /// How the subject is shown.
  let subjects: ServerConfiguration.SubjectLogging
  /// Serializes `write`, so lines from connection threads never interleave.
  private let writing = Mutex(())

  /// A log writing through `write`.
  package init(subjects: ServerConfiguration.SubjectLogging, write: @escaping @Sendable (String) -> Void) {
    self.subjects = subjects
    self.write = write
  }

  /// Writes the line of one request.
  func record(
    at time: Timestamp, method: String, route: String, subject: String?, status: Int, milliseconds: Double,
    bytesIn: Int, bytesOut: Int
  ) {
    let text = line(
      at: time, method: method, route: route, subject: subject, status: status, milliseconds: milliseconds,
      bytesIn: bytesIn, bytesOut: bytesOut)
    writing.withLock { _ in write(text) }
  }

  /// The line of one request.
  package func line(
    at time: Timestamp, method: String, route: String, subject: String?, status: Int, milliseconds: Double,
    bytesIn: Int, bytesOut: Int
  ) -> String {
    var members: [(String, JSONValue)] = [
      ("time", .string(time.rfc3339)), ("method", .string(ServerProblem.quoted(method))), ("route", .string(route)),
      ("status", .integer(Int64(status))), ("ms", .number((milliseconds * 1000).rounded() / 1000)),
      ("bytes_in", .integer(Int64(bytesIn))), ("bytes_out", .integer(Int64(bytesOut))),
    ]
    if let subject {
      switch subjects {
      case .plain: members.append(("subject", .string(ServerProblem.quoted(subject))))
      case .hash: members.append(("subject_sha256", .string(String(SHA256.hash(Array(subject.utf8)).hex.prefix(16)))))
      case .none: break
      }
    }
    return JSONWriter.compact(.object(members)) + "\n"
  }
}
