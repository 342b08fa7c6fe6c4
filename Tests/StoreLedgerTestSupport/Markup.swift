import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Parses markup as XML; nil when it is not well-formed.
package func xmlError(_ markup: String) -> String? {
  let parser = XMLParser(data: Data(markup.utf8))
  return parser.parse() ? nil : "\(parser.parserError.map { "\($0)" } ?? "unknown") at line \(parser.lineNumber)"
}

/// Counts occurrences of a substring.
package func occurrences(of needle: String, in text: String) -> Int {
  text.components(separatedBy: needle).count - 1
}
