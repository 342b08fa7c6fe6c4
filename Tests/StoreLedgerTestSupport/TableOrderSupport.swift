@testable import StoreLedgerCore
@testable import StoreLedgerStorage

/// `strings` as a table holds them: back to back, with their `count + 1` boundaries.
package func tableArena(_ strings: [[UInt8]]) -> (arena: [UInt8], starts: [UInt32]) {
  var starts: [UInt32] = [0]
  for string in strings { starts.append(starts.last! + UInt32(string.count)) }
  return (strings.flatMap { $0 }, starts)
}

/// `strings` laid out in a snapshot's order of the ids and transactions (`TableOrder.placement`).
package func tableOrderPlaced(_ strings: [[UInt8]]) -> [[UInt8]] {
  let (arena, starts) = tableArena(strings)
  return TableOrder.placement(of: SymbolTable.unindexed(arena: arena, starts: starts)).symbols.map { strings[Int($0)] }
}

/// The restore's check of `strings` as a table in that order, over `range` (or the whole): the
/// first string not strictly after the one before it, or nil.
package func tableOrderCheck(_ strings: [[UInt8]], in range: Range<Int>? = nil) -> Int? {
  let (arena, starts) = tableArena(strings)
  return arena.withUnsafeBufferPointer { all in
    TableOrder.firstOutOfOrder(in: range ?? 0..<strings.count) { k in
      UnsafeBufferPointer(rebasing: all[Int(starts[k])..<Int(starts[k + 1])])
    }
  }
}
