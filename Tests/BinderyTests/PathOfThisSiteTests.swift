import Bindery
import XCTest

/// Where a sign-in page sends a browser once signed in: a path of this site, whatever
/// `next` says (the open-redirect attempts of the OWASP cheat sheet). The example's and
/// Conduit's sign-in pages both take their `next` through `BrowserSignIn.pathOfThisSite`.
final class PathOfThisSiteTests: XCTestCase {
    func testNextIsAPathOfThisSiteOnly() {
        for kept in ["/", "/me", "/me?tab=2", "/todos/groceries#list"] { XCTAssertEqual(BrowserSignIn.pathOfThisSite(kept), kept) }
        for attempt in [
            nil, "", "//evil.example", "///evil.example", "https://evil.example/me", "javascript:alert(1)", "/\\evil.example",
            "\\\\evil.example", "/\t/evil.example", "me", " /me", "/a b", "/\u{7F}",
        ] {
            XCTAssertNil(BrowserSignIn.pathOfThisSite(attempt), "\(String(describing: attempt))")
        }
        // Percent-encoded bytes are the path's own: a browser does not decode them into a header.
        XCTAssertEqual(BrowserSignIn.pathOfThisSite("/%0d%0aSet-Cookie:x"), "/%0d%0aSet-Cookie:x")
    }
}
