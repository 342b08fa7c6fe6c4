import StoreLedgerCore

extension SectionDecoder {
  /// The first string among `range` of the table whose ends start at `endsAt` and whose strings
  /// are `arena` (both checked by `layout`) that is not strictly after the one before it in
  /// `TableOrder`, or nil: read in place in the section, so ranges run at once on every core.
  /// - Complexity: O(bytes of the range's strings).
  func firstOutOfOrder(endsAt: Int, arena: Range<Int>, in range: Range<Int>) -> Int? {
    guard let base = bytes.baseAddress?.advanced(by: arena.lowerBound).assumingMemoryBound(to: UInt8.self) else {
      return range.isEmpty ? nil : range.lowerBound
    }
    return TableOrder.firstOutOfOrder(in: range) { k in
      let start = k == 0 ? 0 : Int(load(endsAt + 4 * (k - 1), as: UInt32.self))
      return UnsafeBufferPointer(start: base + start, count: Int(load(endsAt + 4 * k, as: UInt32.self)) - start)
    }
  }

  /// The refusal of a table whose string `index` is not after the one before it: a string
  /// repeated, or out of place.
  func outOfOrder(_ table: String, at index: Int) -> Diagnostic {
    fail("string \(index) of table '\(table)' does not follow string \(index - 1) in the section's order (by hash, then bytes): a string repeated or out of place")
  }
}
