import Testing

@testable import StoreLedgerCore

@Suite("XXH64: the snapshots' checksum against the reference implementation")
struct XXH64Tests {
  /// The input xxHash's own sanity test hashes: bytes from a multiplicative generator.
  static let sanityBuffer: [UInt8] = {
    var bytes = [UInt8](repeating: 0, count: 4096 + 64 + 1)
    var generator: UInt64 = 2_654_435_761
    for index in bytes.indices {
      bytes[index] = UInt8(truncatingIfNeeded: generator >> 56)
      generator &*= 11_400_714_785_074_694_797
    }
    return bytes
  }()

  /// XXH64 with seed 0 of the sanity buffer's first bytes, from libxxhash 0.8.1 (the reference
  /// implementation, `XXH64(buffer, length, 0)`): every path of the algorithm (the empty input,
  /// single bytes, a 4-byte word, 8-byte words, whole 32-byte stripes, and their mixes).
  static let reference: [(length: Int, hex: String)] = [
    (0, "ef46db3751d8e999"), (1, "e934a84adb052768"), (3, "ff7e1959cb50794a"), (4, "9136a0dca57457ee"),
    (7, "6c83909a9f01ed25"), (8, "cdbcf538e71d1348"), (14, "8282dcc4994e35c8"), (31, "299b39a290e6d783"),
    (32, "18b216492bb44b70"), (33, "55c8dc3e578f5b59"), (63, "a9efbe0fa0f3f4e7"), (64, "ef558f8acac2b5cd"),
    (65, "de0f20dc2631af7a"), (100, "4bfe019cd91d9ea4"), (222, "b641ae8cb691c174"), (1000, "52bd1358f22e9ef7"),
    (4096, "ab77f4af85f4e70b"), (4161, "cd3d6df2db509a75"),
  ]

  @Test("the checksum of the sanity buffer's first bytes is the reference implementation's", arguments: reference)
  func knownAnswers(length: Int, hex: String) {
    #expect(XXH64.hash(Self.sanityBuffer[0..<length]).hex == hex)
  }

  @Test("the published checksums of short strings", arguments: [("", "ef46db3751d8e999"), ("a", "d24ec4f1a98c6e5b"), ("abc", "44bc2cf5ad770999")])
  func publishedStrings(text: String, hex: String) {
    #expect(XXH64.hash(Array(text.utf8)[...]).hex == hex)
  }

  @Test("fed in pieces of any size, the checksum is the one-call checksum", arguments: [1, 3, 7, 31, 32, 33, 100])
  func streaming(piece: Int) {
    for (length, hex) in Self.reference {
      var hasher = XXH64()
      var start = 0
      while start < length {
        let end = min(length, start + piece)
        Self.sanityBuffer[start..<end].withUnsafeBytes { hasher.update($0) }
        start = end
      }
      #expect(hasher.finalize().hex == hex, "length \(length) in pieces of \(piece)")
    }
  }

  @Test("a checksum reads back from its 16 hex digits, in either case, and nothing else does")
  func hexRoundTrip() {
    let checksum = Checksum64(value: 0x00AB_CDEF_0123_4567)
    #expect(checksum.hex == "00abcdef01234567")
    #expect(checksum.canonicalBytes == [0x00, 0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67])
    #expect(Checksum64(hex: "00ABCDEF01234567") == checksum)
    for wrong in ["", "abcdef0123456", "00abcdef012345678", "00abcdef0123456g", " 0abcdef01234567"] {
      #expect(Checksum64(hex: wrong) == nil, "\(wrong)")
    }
  }
}
