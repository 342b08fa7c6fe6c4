extension SubjectFinder {
  /// Notes the lines of `block` (whole lines; the first is line `firstLine`) that hold the term or
  /// a token. Only those lines are parsed: the rest cost a SIMD search for the needle's first byte.
  /// Returns the number of lines in the block, so the caller can number the next one.
  /// - Complexity: O(block), plus a JSON parse per line holding a needle.
  package mutating func scan(block: UnsafeBufferPointer<UInt8>, firstLine: Int) -> Int {
    var starts: [Int] = []
    for needle in [Array(term.utf8)] + tokens.map({ Array($0.utf8) }) {
      var from = 0
      while let hit = Self.firstOccurrence(of: needle, in: block, from: from) {
        var start = hit
        while start > 0 && block[start - 1] != 10 { start -= 1 }
        starts.append(start)
        from = ByteScan.first(10, in: block, from: hit, end: block.count) + 1
        if from >= block.count { break }
      }
    }
    starts = Array(Set(starts)).sorted()
    var line = firstLine
    var counted = 0
    for start in starts where !isFull {
      line += ByteScan.count(10, in: block, from: counted, end: start)
      counted = start
      let end = ByteScan.first(10, in: block, from: start, end: block.count)
      note(line: ArraySlice(UnsafeBufferPointer(rebasing: block[start..<end])), number: line)
    }
    return ByteScan.count(10, in: block, from: 0, end: block.count)
  }

  /// The offset of the first `needle` in `bytes[from...]`, or nil.
  /// - Complexity: O(bytes · needle) at worst, O(bytes) typically.
  static func firstOccurrence(of needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
    guard let head = needle.first else { return nil }
    var position = from
    while position + needle.count <= bytes.count {
      position = ByteScan.first(head, in: bytes, from: position, end: bytes.count - needle.count + 1)
      guard position + needle.count <= bytes.count else { return nil }
      var index = 1
      while index < needle.count && bytes[position + index] == needle[index] { index += 1 }
      if index == needle.count { return position }
      position += 1
    }
    return nil
  }
}
