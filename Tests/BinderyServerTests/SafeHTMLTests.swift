import Foundation
import XCTest

@testable import BinderyServer

/// `data-html`'s sanitizer on the server (the first paint), by the client's own table
/// (`Client/sanitize.js`): what Markdown makes stays, every way in for a script goes.
/// The browser suite holds the client's sanitizer to the same results in Chromium.
final class SafeHTMLTests: XCTestCase {
    private let safe: SafeHTML = {
        let client = ClientFiles(
            directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Sources/BinderyServer/Client"))
        return try! SafeHTML(script: client.data(named: "sanitize.js")!)
    }()

    private func clean(_ html: String) -> String { HTMLTree.serialize(safe.nodes(html)) }

    func testWhatMarkdownMakesStays() {
        let markdown =
            #"<h1>Title</h1><p>Some <em>text</em> &amp; <strong>more</strong>, <code>a &lt; b</code></p><ul><li>one</li><li>two</li></ul>"#
            + #"<blockquote><p>q</p></blockquote><pre><code>let x = 1</code></pre><p><img src="/pic.png" alt="pic"></p><hr>"#
        XCTAssertEqual(clean(markdown), markdown)
        XCTAssertEqual(
            clean(#"<a href="https://example.org/a?b=1&amp;c=2" title="t">link</a>"#),
            #"<a href="https://example.org/a?b=1&amp;c=2" title="t" rel="nofollow noopener noreferrer">link</a>"#)
    }

    func testEveryWayInForAScriptGoes() {
        let attacks: [(String, String)] = [
            ("<script>alert(1)</script>after", "after"),
            (#"<img src=x onerror="alert(1)">"#, #"<img src="x">"#),
            (#"<a href="javascript:alert(1)">x</a>"#, "<a>x</a>"),
            (#"<a href="jav&#x09;ascript:alert(1)">x</a>"#, "<a>x</a>"),
            (#"<a href=" JaVaScRiPt:alert(1)">x</a>"#, "<a>x</a>"),
            (#"<a href="java&#0;script:alert(1)">x</a>"#, "<a>x</a>"),
            (#"<img src="data:text/html;base64,PHNjcmlwdD4=">"#, "<img>"),
            (#"<a href="vbscript:msgbox(1)">x</a>"#, "<a>x</a>"),
            ("<svg><script>alert(1)</script></svg>after", "after"),
            ("<math><mi>x</mi></math>", ""),
            ("<style>body{}</style>after", "after"),
            (#"<iframe src="https://x.test"></iframe>"#, ""),
            (#"<p onclick="x()" id="clobber" style="color:red">p</p>"#, "<p>p</p>"),
            ("<!-- a comment --><b>kept</b>", "<b>kept</b>"),
            (#"<form action="https://x.test"><input name=x></form>kept"#, "kept"),
            ("<details open ontoggle=alert(1)>x</details>", "x"),
            ("<template><script>alert(1)</script></template>", ""),
            ("<noscript><p>n</p></noscript>", ""),
            ("</textarea><img src=x>", #"<img src="x">"#),
            ("a < b & c", "a &lt; b &amp; c"),
        ]
        for (attack, expected) in attacks { XCTAssertEqual(clean(attack), expected, attack) }
    }

    func testURLsAreRelativeOrOfTheListedSchemes() {
        for url in ["/a", "a/b", "#top", "?q=1", "https://x.test", "HTTP://x.test", "mailto:a@x.test", "//x.test/a", "./a:b"] {
            XCTAssertTrue(safe.isSafeURL(url), url)
        }
        for url in ["javascript:x", " javascript:x", "java\nscript:x", "JAVASCRIPT:x", "data:x", "vbscript:x", "file:///etc/passwd", "a:b"] {
            XCTAssertFalse(safe.isSafeURL(url), url)
        }
    }
}
