import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerGenerate

@Suite("SHA-256 digests")
struct SHA256Tests {
  /// The compression functions this machine runs: the Swift rounds always, and the CPU's SHA
  /// instructions when it has them. Every digest test below runs once per engine.
  static let engines = SHA256.availableEngines

  /// A deterministic, non-repeating-looking message; mirrored in Python for the padding vectors.
  static func message(length: Int) -> [UInt8] {
    (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
  }

  /// `SHA256.hash` pinned to one engine.
  static func hash(_ bytes: some Collection<UInt8>, engine: SHA256.Engine) -> SHA256Digest {
    var hasher = SHA256(engine: engine)
    hasher.update(bytes)
    return hasher.finalize()
  }

  @Test("the default hasher uses the SHA instructions exactly when the CPU has them")
  func engineChoice() {
    // Printed so a test log shows which paths the digest tests below exercised.
    testLog(
      "SHA-256 engines under test: \(Self.engines.map(\.description).joined(separator: ", "))"
        + (SHA256.hardwareAvailable ? "" : " (this CPU has no SHA-256 instructions)"))
    #expect(SHA256().engine == (SHA256.hardwareAvailable ? .hardware : .software))
    #expect(SHA256(engine: .software).engine == .software)
    #expect(Self.engines.contains(.software))
    #expect(Self.engines.contains(.hardware) == SHA256.hardwareAvailable)
  }

  @Test(
    "the FIPS 180-4 example messages hash to their published digests",
    arguments: engines,
    [
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
  func nistVectors(engine: SHA256.Engine, vector: (message: String, expected: String)) {
    #expect(Self.hash(Array(vector.message.utf8), engine: engine).hex == vector.expected)
    // String.UTF8View goes through the generic path; it must agree with the array.
    #expect(Self.hash(vector.message.utf8, engine: engine).hex == vector.expected)
  }

  @Test(
    "one million repetitions of \"a\" hash to the published digest, whole or streamed",
    arguments: engines)
  func millionAs(engine: SHA256.Engine) {
    let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
    let whole = Self.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000), engine: engine)
    #expect(whole.hex == expected)

    var hasher = SHA256(engine: engine)
    let thousand = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
    for _ in 0..<1000 { hasher.update(thousand) }
    #expect(hasher.finalize().hex == expected)
  }

  @Test(
    "messages around the padding boundaries match Python's hashlib",
    arguments: engines,
    [
      (55, "8aa994584139d128848eeebc4e815639ba5ab6e6e39574195a63ac4f14f7c43b"),
      (56, "ad574708f75c044c9b85de64cb568ee7711ff4f36448c6242f053ba8f6cc2b63"),
      (63, "280ed3e8ff1df845b2e7dfe6ac6cee817bef20e783cc65abc41b818b4d2fe076"),
      (64, "c6ab9724ade5b6a7a1edfffb12f3aa9181351355af8fd08c919952ad211339dd"),
      (65, "788367c73c7ddf4c53f65e68cc0d943e6227ab55b0e78ba63ace822b1c6301c0"),
    ])
  func paddingEdges(engine: SHA256.Engine, vector: (length: Int, expected: String)) {
    // Digests from: python3 -c 'import hashlib; testLog(hashlib.sha256(bytes((i*31+7)%256 for i
    // in range(N))).hexdigest())'
    #expect(Self.hash(Self.message(length: vector.length), engine: engine).hex == vector.expected)
  }

  @Test(
    "splitting a message in two at any byte gives the one-shot digest",
    arguments: engines, 0...130)
  func everySplit(engine: SHA256.Engine, length: Int) {
    let message = Self.message(length: length)
    let expected = Self.hash(message, engine: engine)
    for split in 0...length {
      var hasher = SHA256(engine: engine)
      message.withUnsafeBytes { bytes in
        hasher.update(UnsafeRawBufferPointer(rebasing: bytes[..<split]))
        hasher.update(UnsafeRawBufferPointer(rebasing: bytes[split...]))
      }
      #expect(hasher.finalize() == expected, "length \(length) split at \(split)")
    }
  }

  @Test(
    "feeding fixed-size chunks gives the one-shot digest for lengths 0 through 130",
    arguments: engines, [1, 2, 3, 5, 7, 13, 31, 55, 56, 63, 64, 65, 127, 128, 129])
  func chunked(engine: SHA256.Engine, chunkSize: Int) {
    for length in 0...130 {
      let message = Self.message(length: length)
      let expected = Self.hash(message, engine: engine)
      var hasher = SHA256(engine: engine)
      var start = 0
      while start < length {
        let end = min(start + chunkSize, length)
        hasher.update(message[start..<end])
        start = end
      }
      #expect(hasher.finalize() == expected, "length \(length) in chunks of \(chunkSize)")
    }
  }

  @Test("chunks of growing, irregular sizes give the one-shot digest", arguments: engines)
  func irregularChunks(engine: SHA256.Engine) {
    let sizes = [0, 1, 0, 62, 1, 64, 3, 128, 9, 70, 2, 200]
    let message = Self.message(length: sizes.reduce(0, +))
    var hasher = SHA256(engine: engine)
    var start = 0
    for size in sizes {
      message.withUnsafeBytes { bytes in
        hasher.update(UnsafeRawBufferPointer(rebasing: bytes[start..<start + size]))
      }
      start += size
    }
    #expect(hasher.finalize() == Self.hash(message, engine: engine))
  }

  @Test(
    "a non-contiguous collection hashes like the same bytes in an array",
    arguments: engines, [0, 1, 63, 64, 65, 130, 1000])
  func nonContiguous(engine: SHA256.Engine, length: Int) {
    let lazyBytes = (0..<length).lazy.map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    let array = Self.message(length: length)
    #expect(Self.hash(lazyBytes, engine: engine) == Self.hash(array, engine: engine))
  }

  @Test(
    "random messages give the same digest through the SHA instructions and the Swift rounds",
    .enabled(if: SHA256.hardwareAvailable, "this CPU has no SHA-256 instructions"))
  func hardwareMatchesSoftware() {
    // Seeded, so a failure names a message that can be rebuilt; the offsets into the pool make
    // the C side read from every alignment, and the random chunking crosses block boundaries.
    var random = Xoshiro256StarStar(seed: 0x5348_4132_3536)
    let pool = (0..<5016).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    pool.withUnsafeBytes { pool in
      for index in 0..<200 {
        let length = Int(random.below(5001))
        let offset = Int(random.below(16))
        let message = UnsafeRawBufferPointer(rebasing: pool[offset..<offset + length])

        var software = SHA256(engine: .software)
        software.update(message)
        var hardware = SHA256(engine: .hardware)
        hardware.update(message)
        let expected = software.finalize()
        #expect(
          hardware.finalize() == expected,
          "message \(index): \(length) bytes at offset \(offset)")

        var streamed = SHA256(engine: .hardware)
        var start = 0
        while start < length {
          let end = min(length, start + 1 + Int(random.below(200)))
          streamed.update(UnsafeRawBufferPointer(rebasing: message[start..<end]))
          start = end
        }
        #expect(
          streamed.finalize() == expected,
          "message \(index) streamed: \(length) bytes at offset \(offset)")
      }
    }
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
