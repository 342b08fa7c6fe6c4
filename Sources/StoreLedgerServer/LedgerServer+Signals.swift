import Dispatch

extension LedgerServer {
  /// Serves until SIGTERM or SIGINT, then stops gracefully (`stop()`): what `storeledger serve`
  /// runs on its main thread after `start()`.
  /// - Returns: whether every connection ended within the grace period.
  package func serveUntilSignalled() -> Bool {
    PlatformSocket.takeOverSignals()
    let signalled = DispatchSemaphore(value: 0)
    let queue = DispatchQueue(label: "storeledger.serve.signals")
    let sources = [PlatformSocket.terminateSignal, PlatformSocket.interruptSignal].map { number in
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { signalled.signal() }
      source.resume()
      return source
    }
    signalled.wait()
    sources.forEach { $0.cancel() }
    return stop()
  }
}
