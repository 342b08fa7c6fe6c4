#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import StoreLedger

/// The only file of the server that calls the C library: TCP sockets, `poll`, threads and
/// signals, whose types and constants differ between Glibc, Musl and Darwin.
package enum PlatformSocket {
  /// Opens a TCP socket listening on `host:port` (an IPv4 address; port 0 picks a free one).
  /// - Returns: the socket and the port it listens on.
  /// - Throws: `cannot_read` naming the address and the system's reason.
  package static func listen(host: String, port: UInt16, backlog: Int32) throws(Diagnostic) -> (socket: Int32, port: UInt16) {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
      throw Diagnostic(.usage("'\(host)' is not an IPv4 address to listen on (such as 127.0.0.1 or 0.0.0.0)"))
    }
    let socket = openStreamSocket()
    guard socket >= 0 else { throw failure("\(host):\(port)") }
    var yes: Int32 = 1
    _ = setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    let bound = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, cListen(socket, backlog) == 0 else {
      let error = failure("\(host):\(port)")
      close(socket)
      throw error
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    return (socket, UInt16(bigEndian: address.sin_port))
  }

  /// Connects to `host:port` over TCP (the tests' and the benchmark's client); -1 on failure.
  package static func connect(host: String, port: UInt16) -> Int32 {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return -1 }
    let socket = openStreamSocket()
    guard socket >= 0 else { return -1 }
    let connected = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        cConnect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(socket)
      return -1
    }
    configureConnection(socket)
    return socket
  }

  /// Small answers go out at once (no Nagle delay); a write to a closed peer is an error, not SIGPIPE.
  private static func configureConnection(_ socket: Int32) {
    var yes: Int32 = 1
    _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    #if canImport(Darwin)
      _ = setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  /// Accepts one connection; nil when the listening socket was closed or failed.
  package static func accept(_ socket: Int32) -> Int32? {
    while true {
      let connection = cAccept(socket, nil, nil)
      if connection >= 0 {
        configureConnection(connection)
        return connection
      }
      // A connection reset before it was accepted, or a signal: try again; anything else ends.
      if errno == EINTR || errno == ECONNABORTED { continue }
      return nil
    }
  }

  /// Waits until `socket` has bytes to read (or its peer closed) for at most `milliseconds`.
  package static func waitReadable(_ socket: Int32, milliseconds: Int32) -> Bool {
    var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, milliseconds) > 0
  }

  /// Reads what has arrived into `buffer` (after waiting with `waitReadable`): the byte
  /// count, 0 at the end of the stream, -1 on an error.
  package static func receive(_ socket: Int32, into buffer: inout [UInt8]) -> Int {
    buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
  }

  /// Writes all of `bytes`, waiting at most `timeoutMilliseconds` whenever the peer reads
  /// nothing; false when the peer is gone or too slow.
  /// - Complexity: O(bytes).
  package static func send(_ socket: Int32, _ bytes: [UInt8], timeoutMilliseconds: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      var entry = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
      guard poll(&entry, 1, timeoutMilliseconds) > 0 else { return false }
      let written = bytes.withUnsafeBytes { raw in
        cSend(socket, raw.baseAddress! + offset, raw.count - offset, sendFlags)
      }
      if written < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  /// Closes a socket.
  package static func close(_ socket: Int32) {
    _ = cClose(socket)
  }

  /// Runs `body` on a new detached thread (one per connection: a blocked client holds only its own).
  package static func detachThread(_ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Darwin)
      var thread: pthread_t? = nil
      let started = pthread_create(&thread, nil, { raw in
        Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().run()
        return nil
      }, box)
      precondition(started == 0, "pthread_create failed: \(started)")
      pthread_detach(thread!)
    #else
      var thread = pthread_t()
      let started = pthread_create(&thread, nil, { raw in
        Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().run()
        return nil
      }, box)
      precondition(started == 0, "pthread_create failed: \(started)")
      pthread_detach(thread)
    #endif
  }

  /// Ignores SIGPIPE (a write to a closed connection is an error value, not the process's
  /// end) and SIGTERM/SIGINT (which the server handles through a Dispatch signal source).
  package static func takeOverSignals() {
    _ = signal(SIGPIPE, SIG_IGN)
    _ = signal(SIGTERM, SIG_IGN)
    _ = signal(SIGINT, SIG_IGN)
  }

  /// SIGTERM's number.
  package static let terminateSignal = SIGTERM
  /// SIGINT's number.
  package static let interruptSignal = SIGINT

  private static func openStreamSocket() -> Int32 {
    #if canImport(Darwin)
      return socket(AF_INET, SOCK_STREAM, 0)
    #else
      return socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
  }

  #if canImport(Darwin)
    private static let sendFlags: Int32 = 0
  #else
    private static let sendFlags = Int32(MSG_NOSIGNAL)
  #endif

  private static func failure(_ address: String) -> Diagnostic {
    Diagnostic(.cannotRead(path: address, reason: String(cString: strerror(errno))))
  }
}

/// A thread's closure, passed through `pthread_create`'s context pointer.
private final class ThreadBody {
  let run: @Sendable () -> Void
  init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

// The C functions whose names the enum's own methods shadow.
private func cListen(_ socket: Int32, _ backlog: Int32) -> Int32 { listen(socket, backlog) }
private func cAccept(_ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?) -> Int32 {
  accept(socket, address, length)
}
private func cConnect(_ socket: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
  connect(socket, address, length)
}
private func cSend(_ socket: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
  send(socket, bytes, count, flags)
}
private func cClose(_ socket: Int32) -> Int32 { close(socket) }
