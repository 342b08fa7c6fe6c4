import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("SHA-384")
struct SHA384Tests {
  @Test("the FIPS 180 examples hash to their published digests", arguments: [
    ("", "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b"),
    ("abc", "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"),
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039"
    ),
  ])
  func fipsExamples(message: String, digest: String) {
    #expect(hexString(SHA384.hash(Array(message.utf8))) == digest)
  }

  @Test("hashing in pieces gives the digest of the whole, at every split around a block")
  func incremental() {
    let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let whole = SHA384.hash(message)
    for split in [0, 1, 111, 112, 127, 128, 129, 255, 256, 300] {
      var hasher = SHA384()
      hasher.update(message[..<split])
      hasher.update(message[split...])
      #expect(hasher.finalize() == whole, "split at \(split)")
    }
  }

  @Test("the shared known answers match", .enabled(if: SharedVectors.present, SharedVectors.absentMessage))
  func knownAnswers() throws {
    let document = try #require(try SharedVectors.json("sha384/sha384_kat.json") as? [String: Any])
    let vectors = try #require(document["vectors"] as? [[String: Any]])
    #expect(vectors.count >= 20)
    for vector in vectors {
      // The million-'a' vector gives its message in words, not hex.
      let message =
        (vector["msg_hex"] as? String).map(hexBytes) ?? [UInt8](repeating: UInt8(ascii: "a"), count: vector["len"] as? Int ?? 0)
      #expect(message.count == vector["len"] as? Int)
      #expect(hexString(SHA384.hash(message)) == vector["sha384"] as? String, "\(vector["note"] ?? "")")
    }
  }
}
