import Bindery

/// The cookie that binds a page's sessions to the browser that made them: a
/// random token the server sets on every HTML page the browser loads without
/// one (HttpOnly, SameSite=Lax, for a year), which the page's requests then
/// carry. A session created with it answers only requests that carry it: a
/// page's URL pasted into another browser finds no session (404), and that
/// page starts its own. A session created without it (curl, a script) is
/// reachable by its id alone.
enum BrowserCookie {
    static let name = "bindery_browser"

    /// A new browser's token: 128 random bits, like a session id.
    static func makeToken() -> String { SessionID.make() }

    /// Whether `token` is one the server could have made (a proxy's session id form is not).
    static func isValid(_ token: String) -> Bool { SessionID.isMadeHere(token) }

    /// The `Set-Cookie` header for `token`; `Secure` over https.
    static func header(token: String, secure: Bool) -> (String, String) {
        ("Set-Cookie", "\(name)=\(token); Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : ""))
    }
}
