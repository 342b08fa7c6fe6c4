/// Reads catalogs and logs from disk into a `Ledger`.
public enum LedgerLoader {
  /// The default catalog path for a log: `catalog.json` beside it.
  public static func defaultCatalogPath(forLog logPath: String) -> String {
    guard let slash = logPath.lastIndex(of: "/") else { return "catalog.json" }
    return String(logPath[...slash]) + "catalog.json"
  }

  /// Reads a whole small file (catalogs, query files).
  public static func readFile(_ path: String, limit: Int = Int.max) throws(Diagnostic) -> [UInt8] {
    let file = try PlatformFile(path: path, mode: .read)
    var result: [UInt8] = []
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
    defer { chunk.deallocate() }
    while true {
      let n = try file.read(into: chunk)
      if n == 0 { break }
      result.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
      if result.count > limit {
        throw Diagnostic(file: path, .cannotRead(path: path, reason: "larger than \(limit) bytes"))
      }
    }
    return result
  }

  /// Loads and validates a catalog file.
  public static func loadCatalog(path: String) throws(DiagnosticList) -> Catalog {
    let bytes: [UInt8]
    do {
      bytes = try readFile(path, limit: Limits.catalogBytesMax)
    } catch {
      throw DiagnosticList([error])
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw DiagnosticList([Diagnostic(file: path, .badCatalog("not valid UTF-8"))])
    }
    return try Catalog.parse(text, file: path)
  }

  /// Streams every line of the log at `path` (from `offset`) into `builder`; returns the log's extent.
  ///
  /// Lines are parsed on a reader thread and admitted in order on this one. A torn
  /// last line is reported as a warning and not parsed.
  /// - Parameter end: where to stop reading; nil reads what is committed now (an unfinished
  ///   append's batch is left out, `AppendIntent`). An appender holding the lock passes its length.
  public static func feed(
    _ builder: inout LedgerBuilder, path: String, startingAt offset: Int64 = 0, firstLineNumber: Int = 1,
    endingAt end: Int64? = nil
  ) throws(Diagnostic) -> LogExtent {
    let extent = try PipelinedLogReader.feed(
      &builder, path: path, catalog: builder.catalog, startingAt: offset, firstLineNumber: firstLineNumber,
      endingAt: end)
    if extent.tornBytes > 0 {
      builder.record(
        Diagnostic(
          file: path, line: firstLineNumber + extent.lineCount, .tornLastLine(bytes: Int(extent.tornBytes)),
          severity: .warning))
    }
    return extent
  }

  /// Loads a log: every line checked, duplicates skipped, the result validated.
  /// - Complexity: O(n log k) for n events, k per subject; memory O(events), not O(file).
  public static func load(logPath: String, catalog: Catalog) throws(DiagnosticList) -> (
    ledger: Ledger, extent: LogExtent
  ) {
    var builder = LedgerBuilder(catalog: catalog, file: logPath)
    let extent: LogExtent
    do {
      extent = try feed(&builder, path: logPath)
    } catch {
      throw DiagnosticList([error])
    }
    switch builder.finish() {
    case .success(let ledger): return (ledger, extent)
    case .failure(let list): throw list
    }
  }
}
