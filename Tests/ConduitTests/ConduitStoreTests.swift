import Bindery
import BinderyAccounts
import BinderyLoopback
import BinderyPostgres
import Foundation
import GRDB
import Logging
import Synchronization
import XCTest

@testable import Conduit

/// Conduit's store on a real SQLite database: the spec's lists (global, feed, tag,
/// author, favorited), ten a page, newest first; favorites, follows and comments as
/// each reader sees them; slugs; and what a draft may not be. The same tests
/// on PostgreSQL, as a cluster keeps it, in `PostgresConduitStoreTests`.
class ConduitStoreTests: XCTestCase {
    var store: (any ConduitStore)!
    var accounts: Accounts!
    var ids: [String: String] = [:]

    /// A new, empty store and its accounts.
    func makeStore() throws -> (any ConduitStore, Accounts) {
        let database = try DatabaseQueue()
        return (try SQLiteConduitStore(database: database), try Accounts(database: database))
    }

    override func setUp() async throws {
        (store, accounts) = try makeStore()
        for name in ["ada", "grace", "linus"] {
            let identity = try await accounts.register(login: "\(name)@x.test", password: "correct horse")
            try await store.addUser(id: identity.id, username: name, email: "\(name)@x.test")
            ids[name] = identity.id
        }
    }

    func write(_ title: String, by name: String, tags: String = "", at seconds: Double) async throws -> String {
        try await store.create(
            by: ids[name]!, ArticleDraft(title: title, description: "about \(title)", body: "# \(title)", tags: tags),
            at: Date(timeIntervalSince1970: 1_800_000_000 + seconds))
    }

    func testListsAreNewestFirstTenAPageAndFilteredAsTheSpecSays() async throws {
        for index in 0..<23 { _ = try await write("Post \(index)", by: index % 2 == 0 ? "ada" : "grace", tags: index % 3 == 0 ? "swift web" : "web", at: Double(index)) }
        let first = try await store.articles(.global, page: 1, reader: nil)
        XCTAssertEqual(first.count, 23)
        XCTAssertEqual(first.articles.map(\.title), (13...22).reversed().map { "Post \($0)" })
        XCTAssertEqual(first.pages.map(\.number), [1, 2, 3])
        XCTAssertEqual(first.pages.filter(\.active).map(\.number), [1])
        let last = try await store.articles(.global, page: 3, reader: nil)
        XCTAssertEqual(last.articles.map(\.title), ["Post 2", "Post 1", "Post 0"])
        let tagged = try await store.articles(.tag("swift"), page: 1, reader: nil)
        XCTAssertEqual(tagged.count, 8)
        XCTAssertEqual(tagged.articles.first?.tags, ["swift", "web"], "tags in the order written")
        let byGrace = try await store.articles(.author(username: "grace"), page: 1, reader: nil)
        XCTAssertEqual(byGrace.count, 11)
        XCTAssertTrue(byGrace.articles.allSatisfy { $0.author == "grace" && $0.authorPath == "/profile/grace" })

        let feed = try await store.articles(.feed(reader: ids["linus"]!), page: 1, reader: ids["linus"])
        XCTAssertEqual(feed.count, 0, "linus follows nobody yet")
        try await store.follow("ada", by: ids["linus"]!, true)
        let followed = try await store.articles(.feed(reader: ids["linus"]!), page: 1, reader: ids["linus"])
        XCTAssertEqual(followed.count, 12)
        XCTAssertTrue(followed.articles.allSatisfy { $0.author == "ada" })
    }

    func testAFavoriteIsCountedForEveryoneAndMarkedForItsGiver() async throws {
        let slug = try await write("Liked", by: "ada", at: 0)
        try await store.favorite(slug, by: ids["grace"]!, true)
        try await store.favorite(slug, by: ids["grace"]!, true)
        try await store.favorite(slug, by: ids["linus"]!, true)
        let asGrace = try await store.articles(.global, page: 1, reader: ids["grace"]).articles[0]
        XCTAssertEqual(asGrace.favoritesCount, 2)
        XCTAssertTrue(asGrace.favorited)
        let asAda = try await store.article(slug, reader: ids["ada"])
        XCTAssertEqual(asAda?.favorited, false)
        XCTAssertEqual(asAda?.mine, true)
        let favorites = try await store.articles(.favoritedBy(username: "grace"), page: 1, reader: nil)
        XCTAssertEqual(favorites.articles.map(\.slug), [slug])
        try await store.favorite(slug, by: ids["grace"]!, false)
        let after = try await store.article(slug, reader: ids["grace"])
        XCTAssertEqual(after?.favoritesCount, 1)
    }

    func testSlugsAreMadeFromTitlesAndKeptUnique() async throws {
        let first = try await write("How to Train Your Dragon!", by: "ada", at: 0)
        let second = try await write("How to train your dragon", by: "grace", at: 1)
        XCTAssertEqual(first, "how-to-train-your-dragon")
        XCTAssertEqual(second, "how-to-train-your-dragon-2")
        XCTAssertEqual(Slug.make("Ünïcödé ünd Émoji 😀"), "unicode-und-emoji")
        XCTAssertEqual(Slug.make("!!!"), "article")
    }

    func testOnlyItsAuthorChangesOrDeletesAnArticleAndItsCommentsGoWithIt() async throws {
        let slug = try await write("Mine", by: "ada", at: 0)
        let draft = ArticleDraft(title: "Mine, changed", description: "d", body: "b", tags: "x")
        let byGrace = try await store.update(slug, by: ids["grace"]!, draft)
        XCTAssertFalse(byGrace)
        let byAda = try await store.update(slug, by: ids["ada"]!, draft)
        XCTAssertTrue(byAda)
        let changed = try await store.article(slug, reader: nil)
        XCTAssertEqual(changed?.title, "Mine, changed")
        XCTAssertEqual(changed?.slug, slug, "a slug stays what links to it")

        try await store.comment(on: slug, by: ids["grace"]!, "first!")
        try await store.comment(on: slug, by: ids["linus"]!, "second")
        let comments = try await store.comments(on: slug, reader: ids["grace"])
        XCTAssertEqual(comments.map(\.body), ["second", "first!"], "newest first")
        XCTAssertEqual(comments.map(\.mine), [false, true])
        try await store.deleteComment(comments[1].id, on: slug, by: ids["linus"]!)
        let kept = try await store.comments(on: slug, reader: nil)
        XCTAssertEqual(kept.count, 2, "only its author deletes a comment")
        try await store.deleteComment(comments[1].id, on: slug, by: ids["grace"]!)
        let left = try await store.comments(on: slug, reader: nil)
        XCTAssertEqual(left.map(\.body), ["second"])

        let deletedByGrace = try await store.delete(slug, by: ids["grace"]!)
        XCTAssertFalse(deletedByGrace)
        let deleted = try await store.delete(slug, by: ids["ada"]!)
        XCTAssertTrue(deleted)
        let gone = try await store.article(slug, reader: nil)
        XCTAssertNil(gone)
    }

    func testADraftThatIsNotOneIsRefusedAtItsField() async throws {
        func refusal(_ draft: ArticleDraft) async -> ConduitError? {
            do {
                _ = try await store.create(by: ids["ada"]!, draft)
                return nil
            } catch {
                return error as? ConduitError
            }
        }
        let cases: [(ArticleDraft, String)] = [
            (ArticleDraft(title: "  ", description: "d", body: "b", tags: ""), "title"),
            (ArticleDraft(title: "t", description: "", body: "b", tags: ""), "description"),
            (ArticleDraft(title: "t", description: "d", body: " \n ", tags: ""), "body"),
            (ArticleDraft(title: "t\u{7}", description: "d", body: "b", tags: ""), "title"),
            (ArticleDraft(title: String(repeating: "x", count: 201), description: "d", body: "b", tags: ""), "title"),
            (ArticleDraft(title: "t", description: "d", body: "b", tags: (0..<11).map { "t\($0)" }.joined(separator: ",")), "tags"),
        ]
        for (draft, field) in cases {
            let refused = await refusal(draft)
            XCTAssertEqual(refused?.field, field, "\(draft)")
        }
        let slug = try await store.create(by: ids["ada"]!, ArticleDraft(title: "t", description: "d", body: "b", tags: "Swift, swift  web"))
        let tags = try await store.article(slug, reader: nil)?.tags
        XCTAssertEqual(tags, ["swift", "web"], "tags lower-cased, once each")
    }

    func testAUsernameIsOneAnyCaseAndMarkdownBecomesHTML() async throws {
        let free = try await store.isFree(username: "ADA")
        XCTAssertFalse(free)
        do {
            try await store.addUser(id: "other", username: "Grace", email: "g2@x.test")
            XCTFail("a username taken in another case")
        } catch {
            XCTAssertEqual(error as? ConduitError, ConduitError("username", "has already been taken"))
        }
        XCTAssertEqual(Markdown.html("**bold** and <script>x</script>"), "<p><strong>bold</strong> and <script>x</script></p>", "raw HTML passes Ink: the page's data-html is what stops it")
    }

    func testTheSeedIsTheSameEachTimeAndOnlyOnce() async throws {
        let (store, accounts) = try makeStore()
        let written = try await Seed.run(store: store, accounts: accounts, articles: 12)
        XCTAssertEqual(written, 12)
        let again = try await Seed.run(store: store, accounts: accounts, articles: 12)
        XCTAssertEqual(again, 0)
        let page = try await store.articles(.global, page: 1, reader: nil)
        XCTAssertEqual(page.count, 12)
        let tags = try await store.popularTags()
        XCTAssertFalse(tags.isEmpty)
        let signedIn = try await accounts.signIn(login: "ada-lovelace@conduit.example", password: Seed.password, client: nil)
        XCTAssertFalse(signedIn.id.isEmpty)
    }
}

/// The same, in PostgreSQL, as a cluster's nodes share it; and a change made
/// through one node is told on another.
final class PostgresConduitStoreTests: ConduitStoreTests {
    private var url = ""
    private var logs: [ChangeLog] = []

    override func makeStore() throws -> (any ConduitStore, Accounts) {
        url = try TestPostgres.freshDatabase()
        return try node()
    }

    /// A node on the test's database: its change log listening, its store and accounts.
    private func node() throws -> (any ConduitStore, Accounts) {
        let log = try ChangeLog(url: url, pollInterval: .milliseconds(200), logger: Logger(label: "test"))
        log.start()
        logs.append(log)
        return (try PostgresConduitStore(url: url, changes: log), try Accounts(store: PostgresAccountStore(url: url)))
    }

    override func tearDown() async throws {
        for log in logs { log.stop() }
        logs = []
    }

    func testAChangeThroughOneNodeIsToldOnEveryNodeOnceInOrder() async throws {
        let (other, otherAccounts) = try node()
        let heard = Mutex<[ConduitChange]>([]), mine = Mutex<[ConduitChange]>([])
        let subscriptions = [
            other.changes.subscribe(onNext: { change in heard.withLock { $0.append(change) } }),
            store.changes.subscribe(onNext: { change in mine.withLock { $0.append(change) } }),
        ]
        defer { subscriptions.forEach { $0.dispose() } }
        let slug = try await write("Across", by: "ada", at: 0)
        try await store.comment(on: slug, by: ids["grace"]!, "seen from the other node")
        try await store.favorite(slug, by: ids["linus"]!, true)
        try await store.update(user: ids["ada"]!, username: "ada-l", bio: "", image: "")
        let expected: [ConduitChange] = [
            .article(slug: slug), .comments(slug: slug), .favorite(slug: slug), .user(username: "ada"), .user(username: "ada-l"),
        ]
        // Each node's log delivers on its own queue: the writer's own as soon as its commit is
        // done, the other's once notified; neither is ahead of the other by rule.
        _ = eventually { heard.withLock { $0 } == expected && mine.withLock { $0 } == expected }
        XCTAssertEqual(heard.withLock { $0 }, expected, "the other node is told each change once, in order")
        XCTAssertEqual(mine.withLock { $0 }, expected, "the writer's own node is told once too")
        // What one node wrote, the other reads; an account made on one signs in on the other.
        let comments = try await other.comments(on: slug, reader: nil)
        XCTAssertEqual(comments.map(\.body), ["seen from the other node"])
        let signedIn = try await otherAccounts.signIn(login: "grace@x.test", password: "correct horse", client: nil)
        XCTAssertEqual(signedIn.id, ids["grace"])
    }

    func testTwoNodesWritingOneTitleAtOnceGetTwoSlugs() async throws {
        let (other, _) = try node()
        let draft = ArticleDraft(title: "Same title", description: "d", body: "b", tags: "")
        let store: any ConduitStore = store, ada = ids["ada"]!, grace = ids["grace"]!
        async let first = store.create(by: ada, draft)
        async let second = other.create(by: grace, draft)
        let slugs = try await Set([first, second])
        XCTAssertEqual(slugs, ["same-title", "same-title-2"])
    }

    // Linux's test discovery finds only the methods a class declares itself.
    override func testListsAreNewestFirstTenAPageAndFilteredAsTheSpecSays() async throws {
        try await super.testListsAreNewestFirstTenAPageAndFilteredAsTheSpecSays()
    }
    override func testAFavoriteIsCountedForEveryoneAndMarkedForItsGiver() async throws {
        try await super.testAFavoriteIsCountedForEveryoneAndMarkedForItsGiver()
    }
    override func testSlugsAreMadeFromTitlesAndKeptUnique() async throws { try await super.testSlugsAreMadeFromTitlesAndKeptUnique() }
    override func testOnlyItsAuthorChangesOrDeletesAnArticleAndItsCommentsGoWithIt() async throws {
        try await super.testOnlyItsAuthorChangesOrDeletesAnArticleAndItsCommentsGoWithIt()
    }
    override func testADraftThatIsNotOneIsRefusedAtItsField() async throws { try await super.testADraftThatIsNotOneIsRefusedAtItsField() }
    override func testAUsernameIsOneAnyCaseAndMarkdownBecomesHTML() async throws { try await super.testAUsernameIsOneAnyCaseAndMarkdownBecomesHTML() }
    override func testTheSeedIsTheSameEachTimeAndOnlyOnce() async throws { try await super.testTheSeedIsTheSameEachTimeAndOnlyOnce() }
}
