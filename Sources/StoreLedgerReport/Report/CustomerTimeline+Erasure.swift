extension CustomerTimeline {
  /// The HTML page with `note` (an erasure record in words: "erased on …") as a paragraph under
  /// the title, so a page printed or saved for a ticket says so too; the page as `html()` makes it
  /// when `note` is nil.
  package func html(erasureNote note: String?) -> String {
    let page = html()
    guard let note else { return page }
    // Under the title: `html()` always begins its body with the one `h1`.
    guard let title = page.firstRange(of: "</h1>\n") else { preconditionFailure("a timeline page without its title") }
    var withNote = page
    withNote.insert(contentsOf: "<p class=\"erased\"><strong>\(HTMLPage.escape(note))</strong></p>\n", at: title.upperBound)
    return withNote
  }
}
