#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Memory hints to the kernel: the only place outside file I/O that calls the C library.
package enum PageAdvice {
  /// Bytes from which a buffer asks for huge pages: smaller ones gain nothing.
  package static let hugePageMinimumBytes = 4 << 20

  /// Asks for transparent huge pages on a large buffer that has not been touched yet.
  ///
  /// Randomly probed tables of many megabytes otherwise miss the TLB on nearly every probe,
  /// and a page walk under virtualisation costs more than the probe. Only the 2 MiB-aligned
  /// interior is advised; where the kernel does not support it (or on other systems) this does
  /// nothing, which changes speed, never results.
  package static func preferHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
    #if os(Linux) && (canImport(Glibc) || canImport(Musl))
      guard buffer.count >= hugePageMinimumBytes, let base = buffer.baseAddress else { return }
      let hugePage = 2 << 20
      let start = (Int(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
      let end = (Int(bitPattern: base) + buffer.count) & ~(hugePage - 1)
      guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
      _ = madvise(aligned, end - start, MADV_HUGEPAGE)
    #endif
  }

  /// A zero-filled array of `count` words, on huge pages where the kernel allows.
  /// - Complexity: O(count).
  package static func zeroedWords(count: Int) -> [UInt64] {
    // Not through `unsafeUninitializedCapacity` when empty: it would write the shared empty storage.
    guard count > 0 else { return [] }
    return [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
      preferHugePages(UnsafeMutableRawBufferPointer(buffer))
      buffer.initialize(repeating: 0)
      initialized = count
    }
  }
}
