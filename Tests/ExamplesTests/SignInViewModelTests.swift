import XCTest

@testable import Examples

/// Where the sign-in page sends a browser once signed in: a path of this site, whatever
/// `next` says (the open-redirect attempts of the OWASP cheat sheet).
final class SignInViewModelTests: XCTestCase {
    func testNextIsAPathOfThisSiteOnly() {
        for kept in ["/", "/me", "/me?tab=2", "/todos/groceries#list"] { XCTAssertEqual(SignInViewModel.sameSite(kept), kept) }
        for attempt in [
            nil, "", "//evil.example", "///evil.example", "https://evil.example/me", "javascript:alert(1)", "/\\evil.example",
            "\\\\evil.example", "/\t/evil.example", "me", " /me", "/%0d%0aSet-Cookie:x", "/\u{7F}",
        ] {
            let safe = SignInViewModel.sameSite(attempt)
            XCTAssertTrue(safe == "/" || (attempt == "/%0d%0aSet-Cookie:x" && safe == attempt), "\(String(describing: attempt)) → \(safe)")
        }
    }
}
