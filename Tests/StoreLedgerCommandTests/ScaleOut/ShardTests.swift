import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("The shard function")
struct ShardTests {
  /// The vectors of Docs/scale-out.md: any engine partitioning the same way must agree.
  @Test(
    "FNV-1a 64 of the subject's UTF-8 bytes gives the documented hash and shard",
    arguments: [
      ("a", 0xaf63_dc4c_8601_ec8c as UInt64, 12),
      ("ab", 0x089c_4407_b545_986a, 10),
      ("u1", 0x08c4_7b07_b567_47f3, 3),
      ("customer-000042", 0xa009_29d0_054a_d29e, 14),
      ("Zoë", 0x17a3_b76d_1a6f_5cbc, 12),
      ("家族", 0xc637_ff64_ae6a_9454, 4),
    ])
  func hashVectors(subject: String, hash: UInt64, shardOf16: Int) {
    var copy = subject
    #expect(copy.withUTF8 { Shard.fnv1a64($0) } == hash)
    #expect(Shard.index(ofSubject: subject, count: 16) == shardOf16)
  }

  @Test("the hash of no bytes is the FNV offset basis")
  func emptyHash() {
    #expect(Shard.fnv1a64(UnsafeBufferPointer(start: nil, count: 0)) == 0xcbf2_9ce4_8422_2325)
  }

  @Test(
    "a valid --shard value parses to its index and count",
    arguments: [("0/1", 0, 1), ("15/16", 15, 16), ("0/4096", 0, 4096), ("4095/4096", 4095, 4096), ("007/8", 7, 8)])
  func parsesValid(text: String, index: Int, count: Int) {
    #expect(Shard.parse(text) == .success(Shard(index: index, of: count)))
  }

  @Test(
    "an invalid --shard value is refused with the reason",
    arguments: [
      ("3/3", "i must be below n"), ("0/0", "n must be at least 1"), ("x/2", "expected i/n"),
      ("1/4097", "n must be at most 4096"), ("-1/2", "expected i/n"), ("1/", "expected i/n"), ("/2", "expected i/n"),
      ("1/2/3", "expected i/n"), (" 1/2", "expected i/n"), ("1.0/2", "expected i/n"), ("99999999999/2", "expected i/n"),
    ])
  func refusesInvalid(text: String, reason: String) {
    guard case .failure(let error) = Shard.parse(text) else {
      Issue.record("\(text) parsed")
      return
    }
    #expect(error.reason.contains(reason))
    #expect(error.message(option: "shard").hasPrefix("Invalid value for '--shard': '\(text)'"))
  }

  @Test("every subject falls in exactly one of n shards, and shards are not empty for many subjects")
  func partition() {
    var sizes = [Int](repeating: 0, count: 16)
    for n in 0..<4000 {
      let index = Shard.index(ofSubject: "u\(n)", count: 16)
      let members = (0..<16).filter { i in
        var subject = "u\(n)"
        return subject.withUTF8 { Shard(index: i, of: 16).contains(subject: $0) }
      }
      #expect(members == [index])
      sizes[index] += 1
    }
    // 250 expected per shard; a broken hash (all in one shard) fails.
    #expect(sizes.allSatisfy { $0 > 150 && $0 < 350 }, "\(sizes)")
  }
}

@Suite("Finding the subject of a line for split")
struct SubjectScanTests {
  static func scan(_ line: String) -> Result<String, SubjectScan.Failure> {
    var scratch: [UInt8] = []
    let bytes = Array(line.utf8)
    return bytes.withUnsafeBufferPointer { buffer in
      SubjectScan.subject(of: buffer, scratch: &scratch) { String(decoding: $0, as: UTF8.self) }
    }
  }

  @Test(
    "the subject is found and decoded wherever it is in the line",
    arguments: [
      (#"{"id":"e1","subject":"u1","type":"purchase"}"#, "u1"),
      (#"{"subject":"a\u0062"}"#, "ab"),
      (#" { "subj\u0065ct" : "u2" } "#, "u2"),
      (#"{"meta":{"a":[1,{"subject":"no"}],"b":"}\"{"},"subject":"u3"}"#, "u3"),
      (#"{"n":-1.5e3,"t":true,"z":null,"s":"x\\","subject":"Zo\u00eb"}"#, "Zoë"),
      (#"{"subjects":"no","subject":"u4"}"#, "u4"),
    ])
  func finds(line: String, subject: String) throws {
    #expect(try Self.scan(line).get() == subject)
  }

  @Test(
    "a line without a string subject names the problem",
    arguments: [
      (#"{"id":"e1","type":"purchase"}"#, "field 'subject': expected a non-empty string, found no subject field"),
      (#"{}"#, "field 'subject': expected a non-empty string, found no subject field"),
      (#"{"subject":42}"#, "field 'subject'"),
      (#"{"subject":""}"#, "field 'subject'"),
      (#"{"subject":null}"#, "field 'subject'"),
      (#"[1,2]"#, "invalid JSON"),
      (#"{"id":"e1" "subject":"u1"}"#, "invalid JSON"),
      (#"{"meta":{"a":1,"subject":"u1""#, "invalid JSON"),
      (#"{"subject":"u1"#, "invalid JSON"),
      ("not json", "invalid JSON"),
    ])
  func refuses(line: String, message: String) {
    guard case .failure(let failure) = Self.scan(line) else {
      Issue.record("found a subject in \(line)")
      return
    }
    let text = Diagnostic(file: "log.jsonl", line: 3, failure.problem).description
    #expect(text.hasPrefix("log.jsonl:3"), "\(text)")
    #expect(text.contains(message), "\(text)")
  }
}
