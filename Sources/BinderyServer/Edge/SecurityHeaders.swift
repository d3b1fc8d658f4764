/// The headers that keep the browser on the page's side: no response is
/// sniffed into another type, and a page runs only the server's own scripts,
/// is framed by no other site, and tells other sites nothing of its URL (a
/// page's URL names its session).
enum SecurityHeaders {
    /// On every response: a JSON answer or a file is never read as HTML.
    /// Static text, handed to libmicrohttpd as it is.
    static let everyResponse: (name: StaticString, value: StaticString) = ("X-Content-Type-Options", "nosniff")

    /// The default Content-Security-Policy of pages: scripts, styles and
    /// connections to this origin only, no inline script, no framing. The
    /// client and the example pages live with it (they bind declaratively);
    /// `--content-security-policy` changes it, "" leaves it out.
    static let defaultContentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
        "worker-src 'self'", "object-src 'none'", "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// On every HTML page, under `policy`.
    static func page(policy: String) -> [(String, String)] {
        (policy.isEmpty ? [] : [("Content-Security-Policy", policy)])
            + [("X-Frame-Options", "DENY"), ("Referrer-Policy", "same-origin")]
    }
}
