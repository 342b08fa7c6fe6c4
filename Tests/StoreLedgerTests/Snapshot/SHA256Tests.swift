import Testing

@testable import StoreLedger

@Suite("SHA-256 digests")
struct SHA256Tests {
  /// A deterministic, non-repeating-looking message; mirrored in Python for the padding vectors.
  static func message(length: Int) -> [UInt8] {
    (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
  }

  @Test(
    "the FIPS 180-4 example messages hash to their published digests",
    arguments: [
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
      ),
      (
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
          + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
      ),
    ])
  func nistVectors(message: String, expected: String) {
    #expect(SHA256.hash(Array(message.utf8)).hex == expected)
    // String.UTF8View goes through the generic path; it must agree with the array.
    #expect(SHA256.hash(message.utf8).hex == expected)
  }

  @Test("one million repetitions of \"a\" hash to the published digest, whole or streamed")
  func millionAs() {
    let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
    #expect(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)).hex == expected)

    var hasher = SHA256()
    let thousand = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
    for _ in 0..<1000 { hasher.update(thousand) }
    #expect(hasher.finalize().hex == expected)
  }

  @Test(
    "messages around the padding boundaries match Python's hashlib",
    arguments: [
      (55, "8aa994584139d128848eeebc4e815639ba5ab6e6e39574195a63ac4f14f7c43b"),
      (56, "ad574708f75c044c9b85de64cb568ee7711ff4f36448c6242f053ba8f6cc2b63"),
      (63, "280ed3e8ff1df845b2e7dfe6ac6cee817bef20e783cc65abc41b818b4d2fe076"),
      (64, "c6ab9724ade5b6a7a1edfffb12f3aa9181351355af8fd08c919952ad211339dd"),
      (65, "788367c73c7ddf4c53f65e68cc0d943e6227ab55b0e78ba63ace822b1c6301c0"),
    ])
  func paddingEdges(length: Int, expected: String) {
    // Digests from: python3 -c 'import hashlib; print(hashlib.sha256(bytes((i*31+7)%256 for i
    // in range(N))).hexdigest())'
    #expect(SHA256.hash(Self.message(length: length)).hex == expected)
  }

  @Test("splitting a message in two at any byte gives the one-shot digest", arguments: 0...130)
  func everySplit(length: Int) {
    let message = Self.message(length: length)
    let expected = SHA256.hash(message)
    for split in 0...length {
      var hasher = SHA256()
      message.withUnsafeBytes { bytes in
        hasher.update(UnsafeRawBufferPointer(rebasing: bytes[..<split]))
        hasher.update(UnsafeRawBufferPointer(rebasing: bytes[split...]))
      }
      #expect(hasher.finalize() == expected, "length \(length) split at \(split)")
    }
  }

  @Test(
    "feeding fixed-size chunks gives the one-shot digest for lengths 0 through 130",
    arguments: [1, 2, 3, 5, 7, 13, 31, 55, 56, 63, 64, 65, 127, 128, 129])
  func chunked(chunkSize: Int) {
    for length in 0...130 {
      let message = Self.message(length: length)
      let expected = SHA256.hash(message)
      var hasher = SHA256()
      var start = 0
      while start < length {
        let end = min(start + chunkSize, length)
        hasher.update(message[start..<end])
        start = end
      }
      #expect(hasher.finalize() == expected, "length \(length) in chunks of \(chunkSize)")
    }
  }

  @Test("chunks of growing, irregular sizes give the one-shot digest")
  func irregularChunks() {
    let sizes = [0, 1, 0, 62, 1, 64, 3, 128, 9, 70, 2, 200]
    let message = Self.message(length: sizes.reduce(0, +))
    var hasher = SHA256()
    var start = 0
    for size in sizes {
      message.withUnsafeBytes { bytes in
        hasher.update(UnsafeRawBufferPointer(rebasing: bytes[start..<start + size]))
      }
      start += size
    }
    #expect(hasher.finalize() == SHA256.hash(message))
  }

  @Test(
    "a non-contiguous collection hashes like the same bytes in an array",
    arguments: [0, 1, 63, 64, 65, 130, 1000])
  func nonContiguous(length: Int) {
    let lazyBytes = (0..<length).lazy.map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    #expect(SHA256.hash(lazyBytes) == SHA256.hash(Self.message(length: length)))
  }

  @Test(
    "hex text round-trips through the digest in either case",
    arguments: [
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
      "0000000000000000000000000000000000000000000000000000000000000000",
      "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    ])
  func hexRoundTrip(hex: String) throws {
    let digest = try #require(SHA256Digest(hex: hex))
    #expect(digest.bytes.count == 32)
    #expect(digest.hex == hex)
    #expect(digest.description == hex)
    #expect(SHA256Digest(hex: hex.uppercased()) == digest)
  }

  @Test("a computed digest survives formatting and parsing")
  func computedRoundTrip() throws {
    let digest = SHA256.hash(Array("abc".utf8))
    #expect(digest.bytes.prefix(4) == [0xba, 0x78, 0x16, 0xbf])
    #expect(try #require(SHA256Digest(hex: digest.hex)) == digest)
  }

  @Test(
    "hex text of the wrong length or with non-hex characters is rejected",
    arguments: [
      "", "abc", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b85",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b8550",
      "g3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b85 ",
      "é3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b85",
    ])
  func rejectsBadHex(hex: String) {
    #expect(SHA256Digest(hex: hex) == nil)
  }
}
