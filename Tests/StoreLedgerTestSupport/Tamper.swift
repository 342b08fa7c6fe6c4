import Foundation

@testable import StoreLedgerImport

/// Edits of a compact JWS, as an attacker would make them.
package enum Tamper {
  package static func parts(_ jws: String) -> [String] { jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }

  package static func json(_ part: String) -> [String: Any] {
    try! JSONSerialization.jsonObject(with: Data(JWS.base64URLDecode(part.utf8)!)) as! [String: Any]
  }

  package static func encode(_ object: [String: Any]) -> String {
    JWS.base64URLEncode(Array(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])))
  }

  /// The JWS with its header edited (the signature kept).
  package static func header(_ jws: String, _ edit: (inout [String: Any]) -> Void) -> String {
    var p = parts(jws)
    var header = json(p[0])
    edit(&header)
    p[0] = encode(header)
    return p.joined(separator: ".")
  }

  /// The JWS with its payload edited (the signature kept).
  package static func payload(_ jws: String, _ edit: (inout [String: Any]) -> Void) -> String {
    var p = parts(jws)
    var payload = json(p[1])
    edit(&payload)
    p[1] = encode(payload)
    return p.joined(separator: ".")
  }

  /// The JWS with its signature bytes changed.
  package static func signature(_ jws: String, _ edit: ([UInt8]) -> [UInt8]) -> String {
    var p = parts(jws)
    p[2] = JWS.base64URLEncode(edit(JWS.base64URLDecode(p[2].utf8)!))
    return p.joined(separator: ".")
  }

  /// A raw r‖s signature re-encoded as DER, as X.509 (not JWS) carries it.
  package static func der(_ raw: [UInt8]) -> [UInt8] {
    func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
      var value = Array(bytes.drop(while: { $0 == 0 }))
      if value.first.map({ $0 >= 0x80 }) ?? true { value.insert(0, at: 0) }
      return [0x02, UInt8(value.count)] + value
    }
    let body = integer(raw[..<32]) + integer(raw[32...])
    return [0x30, UInt8(body.count)] + body
  }
}
