import Testing

@testable import StoreLedgerCore

@Suite("Mapping on every core gives the plain map's elements, in order")
struct ConcurrentMapTests {
  @Test(
    "for counts below, at and above a run's minimum, and runs that do not divide the count",
    arguments: [(0, 4, 512), (1, 4, 512), (1_023, 4, 512), (1_024, 4, 512), (5_000, 4, 512), (4_099, 3, 7), (10, 8, 1)])
  func equalsPlainMap(count: Int, parts: Int, minimumPerPart: Int) {
    let transform: @Sendable (Int) -> String = { "element \($0 &* 7_919 % 1_000_003)" }
    let mapped = [String].concurrentlyMapped(count: count, parts: parts, minimumPerPart: minimumPerPart, transform)
    #expect(mapped == (0..<count).map(transform))
  }
}
