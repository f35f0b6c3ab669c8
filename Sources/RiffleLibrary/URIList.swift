/// The files of a `text/uri-list` (RFC 2483, https://www.rfc-editor.org/rfc/rfc2483#section-5),
/// what a file manager's drag offers: one URI a line, lines ended by CRLF (a bare LF is taken
/// too), "#" lines comments.
package enum URIList {
    /// The local paths of the list's `file://` URIs (`FileURI.path(fromURI:)`), in order; other
    /// URIs (http:, a file on another host) and comments are skipped.
    package static func paths(in list: String) -> [String] {
        list.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .compactMap { FileURI.path(fromURI: $0) }
    }
}

private extension Substring {
    func trimmingWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
