import StoreLedgerCore

/// A ledger of a few subjects, read through the index: their covered lines, then the log's
/// unindexed tail (every line of it, and every subject those lines involve).
///
/// What the builder gets is exactly the full log restricted to those subjects, in log order,
/// plus the whole tail, so every rule decides as it would on a full read: a subject's rules
/// see all its events; an event id or charged transaction in the tail is checked against the
/// subject whose covered line holds it (found through the sorted fingerprint tables); the
/// covered prefix held no error when it was indexed.
package enum IndexedLedger {
  /// What a reader got.
  package enum Outcome {
    /// The ledger holding the subjects asked for (and those the tail involves), and the log's extent.
    case loaded(Ledger, LogExtent)
    /// The index was not used: none beside the log (nil), or the warning saying why.
    case notUsed(Diagnostic?)
  }

  /// A builder fed through the index, and the log's extent.
  struct Prepared {
    var builder: LedgerBuilder
    var extent: LogExtent
  }

  /// Loads the subjects named in `subjects` through the index beside `logPath`, if it is usable.
  /// Errors of the log (in its tail) are thrown as a full read throws them.
  /// - Complexity: O(segments × log(index) + lines of the subjects involved + tail).
  package static func load(logPath: String, catalog: Catalog, subjects: [String]) throws(DiagnosticList) -> Outcome {
    func warning(_ issue: IndexIssue) -> Outcome { .notUsed(Diagnostic(file: logPath, .indexNotUsed(issue), severity: .warning)) }
    let prepared: Prepared
    do {
      let log = try PlatformFile(path: logPath, mode: .read)
      var length = try AppendIntent.visibleLength(of: log, logPath: logPath).length
      var index = LogIndex.open(logPath: logPath, log: log, length: length, catalog: catalog)
      // An append may have committed, and extended the index, after the length was read:
      // measure again (a few times at most); a log that stays shorter was truncated.
      for _ in 0..<3 {
        guard case .unusable(.logShorter) = index else { break }
        length = try AppendIntent.visibleLength(of: log, logPath: logPath).length
        index = LogIndex.open(logPath: logPath, log: log, length: length, catalog: catalog)
      }
      switch index {
      case .absent: return .notUsed(nil)
      case .unusable(let issue): return warning(issue)
      case .usable(let opened):
        prepared = try prepare(opened, log: log, logPath: logPath, length: length, catalog: catalog, subjects: subjects, batch: nil)
      }
    } catch let damage as IndexDamage {
      return warning(.damaged(damage.reason))
    } catch let issue as IndexIssue {
      return warning(issue)
    } catch let list as DiagnosticList {
      throw list
    } catch let diagnostic as Diagnostic {
      throw DiagnosticList([diagnostic])
    } catch {
      throw DiagnosticList([Diagnostic(.cannotRead(path: logPath, reason: "\(error)"))])
    }
    var builder = prepared.builder
    switch builder.finish() {
    case .success(let ledger): return .loaded(ledger, prepared.extent)
    case .failure(let list): throw list
    }
  }

  /// A builder for an append of `batch` through a usable index whose catalog is `catalog`'s;
  /// nil when there is none (the appender then reads the whole log).
  /// Returns the builder and the number of lines in the log, as `LogAppender` wants them.
  static func appendBuilder(
    batch: AppendBatch, log: borrowing PlatformFile, size: Int64, catalog: Catalog, logPath: String
  ) throws(DiagnosticList) -> (LedgerBuilder, Int)? {
    guard case .usable(let opened) = LogIndex.open(logPath: logPath, log: log, length: size, catalog: catalog) else {
      return nil
    }
    do {
      let prepared = try prepare(opened, log: log, logPath: logPath, length: size, catalog: catalog, subjects: [], batch: batch)
      return (prepared.builder, prepared.extent.lineCount)
    } catch is IndexDamage {
      return nil
    } catch is IndexIssue {
      return nil
    } catch let list as DiagnosticList {
      throw list
    } catch let diagnostic as Diagnostic {
      throw DiagnosticList([diagnostic])
    } catch {
      throw DiagnosticList([Diagnostic(.cannotRead(path: logPath, reason: "\(error)"))])
    }
  }

  /// Feeds a builder with the covered lines of `subjects` and of every subject the tail and
  /// `batch` involve, then the whole tail `[covered, length)`. The batch's lines are not parsed
  /// again: its typed events name what they involve.
  static func prepare(
    _ opened: LogIndex.Opened, log: borrowing PlatformFile, logPath: String, length: Int64, catalog: Catalog,
    subjects: [String], batch: AppendBatch?
  ) throws -> Prepared {
    let manifest = opened.manifest
    let tailBytes = length - manifest.coveredBytes
    guard tailBytes <= LogIndex.tailBytesMax else { throw IndexIssue.tailTooLong(bytes: tailBytes, limit: LogIndex.tailBytesMax) }
    let tail = try log.readBytes(count: Int(tailBytes), at: manifest.coveredBytes)
    var involved = Set(subjects.map { IndexHash.fingerprint($0) })
    var parser = EventLineParser(catalog: catalog)
    var scratch = LedgerSymbols()
    var lookupFailure: IndexDamage? = nil
    func note(_ event: Event, _ symbols: LedgerSymbols) {
      involved.insert(symbols.subjects.withBytes(event.loadingSubject) { IndexHash.fingerprint($0) })
      do {
        let id = symbols.ids.withBytes(event.id) { IndexHash.fingerprint($0) }
        involved.formUnion(try opened.owners(.ids, key: id))
        if event.kind.isCharge {
          let charge = symbols.transactions.withBytes(event.transaction) { IndexHash.fingerprint($0) }
          involved.formUnion(try opened.owners(.charges, key: charge))
        }
        if event.kind == .transfer {
          involved.insert(symbols.transactions.withBytes(event.transferRecipient) { IndexHash.fingerprint($0) })
        }
      } catch {
        lookupFailure = error
      }
    }
    LogAppender.forEachInputLine(tail) { line in
      let parsed = line.withUnsafeBufferPointer { parser.parse($0, lineNumber: 1, symbols: &scratch) }
      if case .success(let event) = parsed { note(event, scratch) }  // a failure is reported when the line is fed
    }
    if let batch {
      for event in batch.events { note(event, batch.symbols) }
    }
    if let lookupFailure { throw lookupFailure }
    involved = try groupsClosed(involved, opened)
    var builder = LedgerBuilder(catalog: catalog, file: logPath)
    try feedCovered(try opened.records(ofSubjects: involved), into: &builder, log: log, manifest: manifest)
    // A subject asked for that the log does not hold: every subject's id goes into the name table
    // (no events), so the warning suggests near matches as a full read does.
    let absent = subjects.contains { name in
      !involvedHolds(builder: &builder, name: name)
    }
    if absent {
      try opened.forEachSubjectName { name in
        builder.withSymbols { symbols in _ = name.withUnsafeBufferPointer { symbols.subjects.intern($0) } }
      }
    }
    let tailExtent = try LedgerLoader.feed(
      &builder, path: logPath, startingAt: manifest.coveredBytes, firstLineNumber: Int(manifest.coveredLines) + 1,
      endingAt: length)
    let extent = LogExtent(
      completeBytes: tailExtent.completeBytes, tornBytes: tailExtent.tornBytes,
      lineCount: Int(manifest.coveredLines) + tailExtent.lineCount)
    return Prepared(builder: builder, extent: extent)
  }

  /// `involved` with every subject joined to one of them by covered transfers, group by group
  /// (contract v1.3, section 9: a unit's events are read under every subject it moved to).
  /// - Complexity: O(subjects of the groups × log(index)); none without transfers.
  private static func groupsClosed(_ involved: Set<UInt64>, _ opened: LogIndex.Opened) throws -> Set<UInt64> {
    var closed = involved
    var frontier = Array(involved)
    while let subject = frontier.popLast() {
      for joined in try opened.owners(.charges, key: IndexHash.groupKey(ofSubject: subject)) where closed.insert(joined).inserted {
        frontier.append(joined)
      }
    }
    return closed
  }

  /// Whether the builder holds a line of subject `name` (covered lines are fed by now).
  private static func involvedHolds(builder: inout LedgerBuilder, name: String) -> Bool {
    builder.withSymbols { $0.subjects.lookup(name) != nil }
  }

  /// Reads each covered line a record points at, checking that it is a whole line of the covered
  /// prefix, and adds it with its number.
  private static func feedCovered(
    _ records: [LineRecord], into builder: inout LedgerBuilder, log: borrowing PlatformFile, manifest: IndexManifest
  ) throws {
    var previousLine: UInt32 = 0
    for record in records {
      let before: Int64 = record.offset > 0 ? 1 : 0
      let start = record.offset - before
      let count = Int(before) + Int(record.length) + 1
      guard record.line > previousLine, Int64(record.line) <= manifest.coveredLines, record.offset >= 0,
        record.offset + Int64(record.length) < manifest.coveredBytes, record.length <= UInt32(Limits.lineBytesMax)
      else { throw IndexDamage("a line record outside the covered prefix") }
      previousLine = record.line
      let bytes = try log.readBytes(count: count, at: start)
      guard bytes.count == count, bytes.last == 10, before == 0 || bytes.first == 10 else {
        throw IndexDamage("a line record that is not a whole line of the log")
      }
      bytes[Int(before)..<(count - 1)].withUnsafeBufferPointer {
        _ = builder.add(line: $0, lineNumber: Int(record.line))
      }
    }
  }
}
