internal import CStoreLedgerSupport

/// What tells a file from a later one that got its device and inode numbers (`rm LOG; cp NEW LOG`
/// on ext4 hands the copy the freed inode at once): when it was made, and the inode's generation.
///
/// Each part is nil where the filesystem keeps none (then only the digests of the bytes tell the
/// files apart); two values are equal only when both parts are.
package struct FileOrigin: Sendable, Equatable {
  /// A birth time: whole seconds since 1970 and nanoseconds.
  package struct Birth: Sendable, Equatable {
    /// Seconds since 1970-01-01T00:00:00Z.
    package var seconds: Int64
    /// Nanoseconds past `seconds`.
    package var nanoseconds: UInt32

    /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
    package init(seconds: Int64, nanoseconds: UInt32) {
      self.seconds = seconds
      self.nanoseconds = nanoseconds
    }
  }

  /// The file's birth time (statx `STATX_BTIME` on Linux, `st_birthtimespec` on Apple platforms).
  package var birth: Birth?
  /// The inode's generation number (`FS_IOC_GETVERSION` on Linux: ext4 and XFS draw it at random
  /// for every new inode, so a reused inode number gets another one).
  package var generation: UInt32?

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(birth: Birth?, generation: UInt32?) {
    self.birth = birth
    self.generation = generation
  }
}

extension PlatformFile {
  /// The birth time and inode generation of this open file, as far as its filesystem keeps them.
  package func origin() -> FileOrigin {
    var seconds: Int64 = 0
    var nanoseconds: UInt32 = 0
    var generation: UInt32 = 0
    let hasBirth = storeledger_file_birth(descriptor, &seconds, &nanoseconds) != 0
    let hasGeneration = storeledger_file_generation(descriptor, &generation) != 0
    return FileOrigin(
      birth: hasBirth ? FileOrigin.Birth(seconds: seconds, nanoseconds: nanoseconds) : nil,
      generation: hasGeneration ? generation : nil)
  }
}
