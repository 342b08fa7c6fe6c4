import StoreLedger
import StoreLedgerReport

/// Zone names for `--tz` (Europe/Paris), read from the system's time zone database (TZif files
/// under `TZDIR` or /usr/share/zoneinfo, on Linux and Apple platforms alike), not through
/// Foundation: the CLI stays free of Foundation, whose ICU alone maps more memory than the
/// tool's smallest supported address limit (Docs/decisions.md, "Replies to customers").
enum ZoneRules {
  /// The largest zone file read (the biggest in tzdata are under 4 KiB).
  static let fileBytesMax = 1 << 16

  /// The zone named `name`: `Z`, `UTC`, an offset such as `+02:00`, or a zone name with a slash; nil otherwise.
  static func zone(named name: String, directory: String = defaultDirectory) -> CustomerZone? {
    if let minutes = TimeInput.utcOffsetMinutes(name) { return CustomerZone(fixedMinutes: minutes) }
    // Names only: letters, digits, `_+-` and slashes between parts, never `..` (no path escapes the database).
    let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_+-/".unicodeScalars.contains($0)) }
    guard name.contains("/"), allowed, !name.hasPrefix("/"), !name.contains(".."),
      let bytes = try? LedgerLoader.readFile(directory + "/" + name, limit: fileBytesMax),
      let transitions = parse(bytes)
    else { return nil }
    return CustomerZone { time in offset(at: time.millisecondsSinceEpoch / 1000, in: transitions) }
  }

  /// `TZDIR` when set, else /usr/share/zoneinfo.
  static var defaultDirectory: String {
    PlatformFile.environment("TZDIR") ?? "/usr/share/zoneinfo"
  }

  /// A zone file's transitions (UTC seconds, offset seconds after it), and the offset before the first.
  struct Transitions {
    var times: [Int64]
    var offsets: [Int]
    var initial: Int
  }

  /// The offset at `seconds`: the last transition at or before it; after the file's last
  /// transition (2037 in the "fat" files tzdata installs), that transition's offset.
  static func offset(at seconds: Int64, in zone: Transitions) -> Int {
    var low = 0
    var high = zone.times.count
    while low < high {
      let middle = (low + high) / 2
      if zone.times[middle] <= seconds { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? zone.initial : zone.offsets[low - 1]
  }

  /// Parses a TZif file (RFC 8536), its 64-bit section when it has one; nil when it is not one.
  /// - Complexity: O(bytes).
  static func parse(_ bytes: [UInt8]) -> Transitions? {
    func count(_ at: Int, _ index: Int) -> Int? {
      let start = at + 20 + index * 4
      guard start + 4 <= bytes.count else { return nil }
      return Int(bytes[start]) << 24 | Int(bytes[start + 1]) << 16 | Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
    }
    func integer(_ at: Int, _ width: Int) -> Int64 {
      var value: Int64 = bytes[at] >= 0x80 ? -1 : 0
      for byte in bytes[at..<(at + width)] { value = value << 8 | Int64(byte) }
      return value
    }
    guard bytes.count >= 44, bytes[0..<4].elementsEqual("TZif".utf8) else { return nil }
    var header = 0
    var width = 4
    let counts = (0..<6).compactMap { count(0, $0) }
    guard counts.count == 6 else { return nil }
    let c = counts
    if bytes[4] >= UInt8(ascii: "2") {
      // Skip the 32-bit section: times, indices, types, names, leap seconds, two flag arrays.
      header = 44 + c[3] * 5 + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0]
      width = 8
      guard header + 44 <= bytes.count, bytes[header..<(header + 4)].elementsEqual("TZif".utf8) else { return nil }
    }
    guard let times = count(header, 3), let types = count(header, 4), types > 0 else { return nil }
    let timesStart = header + 44
    let indicesStart = timesStart + times * width
    let typesStart = indicesStart + times
    guard typesStart + types * 6 <= bytes.count else { return nil }
    let typeOffsets = (0..<types).map { Int(integer(typesStart + $0 * 6, 4)) }
    let isDaylight = (0..<types).map { bytes[typesStart + $0 * 6 + 4] != 0 }
    var result = Transitions(times: [], offsets: [], initial: typeOffsets[isDaylight.firstIndex(of: false) ?? 0])
    for index in 0..<times {
      let type = Int(bytes[indicesStart + index])
      guard type < types else { return nil }
      result.times.append(integer(timesStart + index * width, width))
      result.offsets.append(typeOffsets[type])
    }
    return result
  }
}
