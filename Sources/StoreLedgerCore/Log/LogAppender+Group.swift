// Group commit: the batches of several callers (a server's concurrent requests) written as one
// batch under one lock with one fsync, each caller's batch still all or nothing on its own.

extension LogAppender {
  /// One caller's batch in a group commit.
  package struct GroupMember: Sendable {
    /// Its JSON lines, parsed once by the caller (before the lock, on its own thread).
    package var batch: AppendBatch
    /// The input's name in this caller's diagnostics (`<lines>`, `<payload>`).
    package var inputName: String
    /// The knowledge time stamped on its events without `recorded`; nil stamps nothing.
    package var now: Timestamp?

    /// A member appending `batch`.
    package init(batch: AppendBatch, inputName: String, now: Timestamp?) {
      self.batch = batch
      self.inputName = inputName
      self.now = now
    }
  }

  /// What a group commit did.
  package struct GroupOutcome {
    /// What the written batch leaves behind for an open ledger; nil when no member was admitted.
    package var outcome: Outcome?
    /// Each member's report, or every problem that refused it, in the members' order.
    package var results: [Result<AppendReport, DiagnosticList>]
  }

  /// Appends the members' batches as one write and one fsync, under one lock.
  ///
  /// Each member is decided on its own (`GroupAdmission`): a member whose lines are refused
  /// writes nothing and does not keep the others out; the admitted ones are written together,
  /// so each is durable when this returns, and none is interleaved with another's lines.
  /// `prepare` gets every member's batch, so its builder holds whatever any of them involves. A problem of the whole group (the lock held past `wait`, a torn log, a failed
  /// write) is thrown: then nothing was written.
  /// - Complexity: O(members' input + events of the subjects involved) when every member is
  ///   admitted at once; each member set aside costs one more admission of the group.
  package static func appendGroup(
    _ members: [GroupMember], logPath: String, catalog: Catalog, wait: LogLock.Wait,
    prepare: (_ log: borrowing PlatformFile, _ size: Int64, _ batches: [AppendBatch]) throws(DiagnosticList) -> (LedgerBuilder, Int),
    afterCommit: (_ log: borrowing PlatformFile, _ committed: Int64, _ written: WrittenLines) -> [Diagnostic]
  ) throws(DiagnosticList) -> GroupOutcome {
    try DiagnosticList.collecting(path: logPath, writing: true) {
      try withLockedLog(logPath: logPath, command: "append", wait: wait, waitNotice: nil) { log in
        let (size, missingNewline) = try writableEnd(of: log, logPath: logPath, catalog: catalog)
        var group = GroupAdmission(members: members, logPath: logPath, logBytes: size)
        let (builder, existingLines) = try prepare(log, size, members.map(\.batch))
        guard var admitted = group.decide(builder: builder, existingLines: existingLines) else {
          return GroupOutcome(outcome: nil, results: group.results(nil, laterWarnings: []))
        }
        if let failure = admitted.outcome.ledger.symbols.readFailure { throw DiagnosticList([failure]) }
        var laterWarnings: [Diagnostic] = []
        if !admitted.batch.isEmpty {
          if missingNewline { admitted.batch.insert(10, at: 0) }
          try write(admitted.batch, to: log, logPath: logPath, committed: size)
          admitted.outcome.logBytes = size + Int64(admitted.batch.count)
          admitted.outcome.logLines = existingLines + admitted.outcome.report.linesWritten
          admitted.outcome.written.logOffset = size + (missingNewline ? 1 : 0)
          laterWarnings = afterCommit(log, admitted.outcome.logBytes, admitted.outcome.written)
        }
        let results = group.results(admitted, laterWarnings: laterWarnings)
        admitted.outcome.report.warnings += laterWarnings
        return GroupOutcome(outcome: admitted.outcome, results: results)
      }
    }
  }
}

/// Decides which members of a group commit are admitted, each on its own.
///
/// First all together: when they pass, that is the batch (the common case, one admission).
/// When they do not, the members the errors point at are set aside, and the rest tried again;
/// then each member set aside is tried after those admitted, and kept if it passes. An error
/// that points at no member's line (a line of the log itself) makes every member try alone, in
/// order, after those admitted before it. So the batch written always passes as a whole, and a
/// member is refused only with errors found against the log plus other members' admitted lines.
struct GroupAdmission {
  let members: [LogAppender.GroupMember]
  /// Input lines of each member, as `LogAppender.forEachInputLine` counts them.
  let lineCounts: [Int]
  let logPath: String
  let logBytes: Int64
  /// Members refused, with their problems in their own words and line numbers.
  private(set) var refused: [Int: DiagnosticList] = [:]
  /// Members admitted, in the order their lines are written.
  private(set) var admitted: [Int] = []

  /// The joined input's name in diagnostics, replaced by each member's own before it is shown.
  static let joinedName = "<group>"

  init(members: [LogAppender.GroupMember], logPath: String, logBytes: Int64) {
    self.members = members
    self.logPath = logPath
    self.logBytes = logBytes
    lineCounts = members.map(\.batch.lines.count)
  }

  /// Admits the lines of `indices`, numbered on from member to member as if joined, against a
  /// copy of `builder`: each try reuses the members' parsed batches.
  private func admit(_ indices: [Int], ownLinesFrom: Int, builder: LedgerBuilder, existingLines: Int)
    -> Result<LogAppender.Admitted, DiagnosticList>
  {
    let segments = indices.map { LogAppender.Segment(batch: members[$0].batch, now: members[$0].now) }
    return Result { () throws(DiagnosticList) in
      try LogAppender.admit(
        segments, inputName: Self.joinedName, ownLinesFrom: ownLinesFrom, logPath: logPath, into: builder,
        existingLines: existingLines, logBytes: logBytes)
    }
  }

  /// Decides every member; returns the admission of those admitted (nil: none was).
  /// - Complexity: one admission of the group when all pass; at most two per member otherwise.
  mutating func decide(builder: LedgerBuilder, existingLines: Int) -> LogAppender.Admitted? {
    var candidates = Array(members.indices)
    var setAside: [Int] = []
    var pointsAtNoMember = false
    while !candidates.isEmpty {
      switch admit(candidates, ownLinesFrom: 1, builder: builder, existingLines: existingLines) {
      case .success(let together):
        guard !setAside.isEmpty else {
          admitted = candidates
          return together
        }
      case .failure(let list):
        if let blamed = blamed(by: list, among: candidates) {
          setAside += blamed
          candidates.removeAll { blamed.contains($0) }
          continue
        }
        pointsAtNoMember = true
      }
      break
    }
    if pointsAtNoMember {
      setAside = Array(members.indices)
      candidates = []
    }
    for member in setAside.sorted() {
      let ownLinesFrom = candidates.reduce(1) { $0 + lineCounts[$1] }
      switch admit(candidates + [member], ownLinesFrom: ownLinesFrom, builder: builder, existingLines: existingLines) {
      case .success: candidates.append(member)
      case .failure(let list): refused[member] = renamed(list, member: member, shift: 0)
      }
    }
    guard !candidates.isEmpty else { return nil }
    switch admit(candidates, ownLinesFrom: 1, builder: builder, existingLines: existingLines) {
    case .success(let together):
      admitted = candidates
      return together
    case .failure(let list):
      // Not expected: these lines passed in this order just now. Refuse them rather than guess.
      for member in candidates { refused[member] = renamed(list, member: member, shift: 0) }
      return nil
    }
  }

  /// The members whose lines the errors point at, or nil when an error points at none of them.
  private func blamed(by list: DiagnosticList, among candidates: [Int]) -> [Int]? {
    var blamed = Set<Int>()
    for diagnostic in list.diagnostics where diagnostic.severity == .error {
      guard diagnostic.file == Self.joinedName, let line = diagnostic.line,
        let member = member(atLine: line, among: candidates)
      else { return nil }
      blamed.insert(member)
    }
    return blamed.isEmpty ? nil : blamed.sorted()
  }

  /// The member of `candidates` (joined in that order) whose lines hold input line `line`, and
  /// the input line before its first.
  private func member(atLine line: Int, among candidates: [Int]) -> Int? {
    var before = 0
    for candidate in candidates {
      if line > before && line <= before + lineCounts[candidate] { return candidate }
      before += lineCounts[candidate]
    }
    return nil
  }

  /// Each member's result: its counts and the warnings about its own lines (and those about no
  /// member's line, and `laterWarnings`, for every admitted member), or its problems.
  func results(_ together: LogAppender.Admitted?, laterWarnings: [Diagnostic]) -> [Result<AppendReport, DiagnosticList>] {
    var reports: [Int: AppendReport] = [:]
    if let together {
      var before = 0
      for (position, member) in admitted.enumerated() {
        var report = together.reports[position]
        for warning in together.outcome.report.warnings {
          guard warning.file == Self.joinedName, let line = warning.line else {
            report.warnings.append(warning)
            continue
          }
          if line > before && line <= before + lineCounts[member] {
            report.warnings += renamed(DiagnosticList([warning]), member: member, shift: before).diagnostics
          }
        }
        report.warnings += laterWarnings
        reports[member] = report
        before += lineCounts[member]
      }
    }
    return members.indices.map { member in
      if let report = reports[member] { return .success(report) }
      return .failure(refused[member] ?? DiagnosticList([]))
    }
  }

  /// `list` in the member's words: its input's name, and its line numbers less `shift`.
  private func renamed(_ list: DiagnosticList, member: Int, shift: Int) -> DiagnosticList {
    let name = members[member].inputName
    return DiagnosticList(
      list.diagnostics.map { diagnostic in
        var moved = diagnostic
        if moved.file == Self.joinedName {
          moved.file = name
          moved.line = moved.line.map { $0 - shift }
        }
        switch moved.problem {
        case .idConflict(let id, let firstLine, .some(Self.joinedName), let differing):
          moved.problem = .idConflict(id: id, firstLine: firstLine - shift, firstFile: name, differing: differing)
        case .transactionReused(let transaction, let firstLine, .some(Self.joinedName)):
          moved.problem = .transactionReused(transaction: transaction, firstLine: firstLine - shift, firstFile: name)
        default: break
        }
        return moved
      })
  }
}
