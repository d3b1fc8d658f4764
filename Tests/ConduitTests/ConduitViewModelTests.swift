import Bindery
import BinderyAccounts
import BinderyTest
import Foundation
import GRDB
import Synchronization
import XCTest
import BinderyLoopback

@testable import Conduit

/// Every Conduit ViewModel on `ViewModelTestStore`, over a real (in-memory)
/// SQLite store: what each page shows once made, what each input does, in
/// order, and what another reader's write (through the store) shows live.
final class ConduitViewModelTests: XCTestCase {
    private var store: (any ConduitStore)!
    private var feeds: CommentFeeds!
    private var accounts: Accounts!
    private var ada = "", grace = ""

    override func setUpWithError() throws {
        let database = try DatabaseQueue()
        let store = try SQLiteConduitStore(database: database), accounts = try Accounts(database: database)
        (self.store, self.accounts) = (store, accounts)
        feeds = CommentFeeds(store: store)
        (ada, grace) = try wait {
            var ids: [String] = []
            for name in ["ada", "grace"] {
                let identity = try await accounts.register(login: "\(name)@x.test", password: "correct horse")
                try await store.addUser(id: identity.id, username: name, email: "\(name)@x.test")
                ids.append(identity.id)
            }
            for index in 0..<12 {
                _ = try await store.create(
                    by: ids[index % 2], ArticleDraft(title: "Post \(index)", description: "d\(index)", body: "*\(index)*", tags: index % 3 == 0 ? "swift" : "web"),
                    at: Date(timeIntervalSince1970: 1_800_000_000 + Double(index)))
            }
            return (ids[0], ids[1])
        }
    }

    /// Runs `body` to its end on another thread, this one waiting (the tests' store calls from a synchronous test).
    private func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let result = Mutex<Result<T, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let outcome: Result<T, Error>
            do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    private func page(_ filter: ArticleFilter, _ number: Int = 1, reader: String?) throws -> ArticlePage {
        let store = store!
        return try wait { try await store.articles(filter, page: number, reader: reader) }
    }

    // MARK: nav

    func testTheHeaderShowsWhoIsSignedInAndTheirNewNameAtOnce() throws {
        let store = store!, ada = ada
        let nav = try ViewModelTestStore { _ in NavViewModel(store: store, reader: ada) }
        nav.receive("signedIn", true)
        nav.receive("username", "ada")
        nav.receive("image", "/smiley.svg")
        nav.receive("profilePath", "/profile/ada")
        // Renamed from the settings page (another session): the header follows.
        try wait { try await store.update(user: ada, username: "countess", bio: "", image: "https://example.org/a.png") }
        nav.receive("username", "countess")
        nav.receive("image", "https://example.org/a.png")
        nav.receive("profilePath", "/profile/countess")
        // Saved again as it is: read again, and nothing new to say. The next rename comes next.
        try wait { try await store.update(user: ada, username: "countess", bio: "", image: "https://example.org/a.png") }
        try wait { try await store.update(user: ada, username: "ada", bio: "", image: "https://example.org/a.png") }
        nav.receive("username", "ada")
        nav.receive("profilePath", "/profile/ada")

        let stranger = try ViewModelTestStore { _ in NavViewModel(store: store, reader: nil) }
        stranger.receive("signedIn", false)
        stranger.receive("username", "")
        stranger.receive("image", "")
        stranger.receive("profilePath", "")
        stranger.send("load")
        stranger.finish()
    }

    // MARK: login, register

    func testSignUpSaysWhatIsWrongAtItsFieldThenMakesTheAccountAndProfile() throws {
        let (store, accounts) = (store!, accounts!)
        let register = try ViewModelTestStore { _ in AuthViewModel(mode: .register, store: store, accounts: accounts, client: nil, next: nil) }
        register.receive("errors", [String]())
        register.send("submit", ["username": "ADA", "email": "new@x.test", "password": "correct horse"])
        register.receive("errors", ["username has already been taken"])
        register.send("submit", ["username": "has space", "email": "new@x.test", "password": "correct horse"])
        register.receive("errors", ["username is 1 to 40 characters, without spaces or /"])
        register.send("submit", ["username": "linus", "email": "ada@x.test", "password": "correct horse"])
        register.receive("errors", ["email has already been taken"])
        register.send("submit", ["username": "linus", "email": "linus@x.test", "password": "short"])
        register.receive("errors", ["password a password is at least 8 characters"])
        register.send("submit", ["username": "linus", "email": "linus@x.test", "password": "correct horse"])
        register.receive("errors", [String]())
        let profile = try wait { try await store.profile("linus", reader: nil) }
        XCTAssertEqual(profile?.path, "/profile/linus")
        let signedIn = try wait { try await accounts.signIn(login: "linus@x.test", password: "correct horse", client: nil) }
        XCTAssertFalse(signedIn.id.isEmpty)
    }

    func testSignInWithAWrongPasswordSaysSoOnceForBoth() throws {
        let (store, accounts) = (store!, accounts!)
        let login = try ViewModelTestStore { _ in AuthViewModel(mode: .signIn, store: store, accounts: accounts, client: nil, next: "//evil.example") }
        login.receive("errors", [String]())
        login.send("submit", ["email": "ada@x.test", "password": "wrong horse"])
        login.receive("errors", ["email or password is invalid"])
        login.send("submit", ["email": "ada@x.test", "password": "correct horse"])
        login.receive("errors", [String]())
    }

    // MARK: home

    func testHomeShowsTheGlobalFeedThenATagAPageAndYourFeed() throws {
        let store = store!, ada = ada
        let home = try ViewModelTestStore { _ in HomeViewModel(store: store, reader: ada) }
        home.receive("signedIn", true)
        home.receive("feedActive", false)
        home.receive("globalActive", true)
        home.receive("tagActive", false)
        home.receive("tag", "#")
        let global = try page(.global, reader: ada)
        home.receive("articles", global.articles)
        home.receive("pages", [PageLink(number: 1, active: true), PageLink(number: 2, active: false)])
        home.receive("empty", false)
        home.receive("popularTags", [HomeViewModel.Tag(tag: "web"), HomeViewModel.Tag(tag: "swift")])

        home.send("tag", "swift")
        home.receive("feedActive", false)
        home.receive("globalActive", false)
        home.receive("tagActive", true)
        home.receive("tag", "#swift")
        home.receive("articles", try page(.tag("swift"), reader: ada).articles)
        home.receive("pages", [PageLink]())
        home.receive("empty", false)

        home.send("global")
        home.skipReceived()
        home.send("page", 2)
        home.receive("feedActive", false)
        home.receive("globalActive", true)
        home.receive("tagActive", false)
        home.receive("tag", "#")
        home.receive("articles", try page(.global, 2, reader: ada).articles)
        home.receive("pages", [PageLink(number: 1, active: false), PageLink(number: 2, active: true)])
        home.receive("empty", false)

        // Nobody followed yet: your feed is empty.
        home.send("feed")
        home.receive("feedActive", true)
        home.receive("globalActive", false)
        home.receive("tagActive", false)
        home.receive("tag", "#")
        home.receive("articles", [ArticlePreview]())
        home.receive("pages", [PageLink]())
        home.receive("empty", true)
    }

    func testAFavoriteFromAPreviewIsShownInItsAnswerAndAStrangerIsSentToSignUp() throws {
        let store = store!, ada = ada
        let home = try ViewModelTestStore { _ in HomeViewModel(store: store, reader: ada) }
        home.skipReceived()
        let first = try page(.global, reader: ada).articles[0]
        XCTAssertFalse(first.favorited)
        home.send("favorite", first.slug)
        // Read again within the favorite's answer: the page shows its own write when answered.
        let after = try page(.global, reader: ada)
        XCTAssertTrue(after.articles[0].favorited)
        XCTAssertEqual(after.articles[0].favoritesCount, 1)
        home.receive("articles", after.articles)
        home.receive("pages", after.pages)
        home.receive("empty", false)
        home.finish()
        home.send("favorite", first.slug)
        home.receive("articles", try page(.global, reader: ada).articles)
        home.receive("pages", after.pages)
        home.receive("empty", false)
        XCTAssertFalse(try page(.global, reader: ada).articles[0].favorited, "a second click takes it back")

        let stranger = try ViewModelTestStore { _ in HomeViewModel(store: store, reader: nil) }
        stranger.skipReceived()
        stranger.send("favorite", first.slug)
        stranger.receive("goTo", "/register")
        stranger.send("feed")
        stranger.receive("goTo", "/login")
    }

    func testAnArticleWrittenElsewhereTopsTheOpenGlobalFeed() throws {
        let store = store!, grace = grace
        let home = try ViewModelTestStore { _ in HomeViewModel(store: store, reader: nil) }
        home.skipReceived()
        let slug = try wait {
            try await store.create(by: grace, ArticleDraft(title: "Breaking", description: "d", body: "b", tags: "news"), at: Date(timeIntervalSince1970: 1_900_000_000))
        }
        let global = try page(.global, reader: nil)
        XCTAssertEqual(global.articles[0].slug, slug)
        home.receive("articles", global.articles)
        home.receive("pages", global.pages)
        home.receive("empty", false)
        home.receive("popularTags", [HomeViewModel.Tag(tag: "web"), HomeViewModel.Tag(tag: "swift"), HomeViewModel.Tag(tag: "news")])
    }

    // MARK: profile

    func testAProfileFollowedAndItsFavoritesList() throws {
        let store = store!, ada = ada, grace = grace
        let profile = try ViewModelTestStore { _ in
            ProfileViewModel(store: store, reader: ada, parameters: ProfileViewModel.Parameters(username: "grace", favorites: nil))
        }
        let grace0 = Profile(username: "grace", bio: "", image: "/smiley.svg", following: false, path: "/profile/grace")
        profile.receive("profile", grace0)
        profile.receive("found", true)
        profile.receive("mine", false)
        profile.receive("followLabel", "Follow grace")
        let byGrace = try page(.author(username: "grace"), reader: ada)
        XCTAssertEqual(byGrace.count, 6)
        profile.receive("articles", byGrace.articles)
        profile.receive("pages", [PageLink]())
        profile.receive("empty", false)
        profile.receive("myArticlesPath", "/profile/grace")
        profile.receive("favoritesPath", "/profile/grace/favorites")
        profile.receive("favoritesShown", false)
        profile.receive("articlesShown", true)

        profile.send("follow")
        let followed = Profile(username: "grace", bio: "", image: "/smiley.svg", following: true, path: "/profile/grace")
        profile.receive("profile", followed)
        profile.receive("found", true)
        profile.receive("followLabel", "Unfollow grace")
        XCTAssertEqual(try page(.feed(reader: ada), reader: ada).count, 6, "ada's feed is grace's articles now")

        let favorites = try ViewModelTestStore { _ in
            ProfileViewModel(store: store, reader: grace, parameters: ProfileViewModel.Parameters(username: "grace", favorites: true))
        }
        favorites.skipReceived()
        let slug = byGrace.articles[0].slug
        try wait { try await store.favorite(slug, by: grace, true) }
        let favorited = try page(.favoritedBy(username: "grace"), reader: grace)
        XCTAssertEqual(favorited.articles.map(\.slug), [slug])
        favorites.receive("articles", favorited.articles)
        favorites.receive("pages", [PageLink]())
        favorites.receive("empty", false)
        // Ada's open page of grace's articles shows the new count.
        let counted = try page(.author(username: "grace"), reader: ada)
        XCTAssertEqual(counted.articles[0].favoritesCount, 1)
        profile.receive("articles", counted.articles)
        profile.receive("pages", [PageLink]())
        profile.receive("empty", false)
    }

    // MARK: article

    func testAnArticlesCommentsWrittenSaidWrongDeletedAndOthersArrivingLive() throws {
        let store = store!, feeds = feeds!, ada = ada, grace = grace
        let slug = try page(.author(username: "ada"), reader: nil).articles[0].slug
        let article = try ViewModelTestStore { _ in ArticleViewModel(store: store, feeds: feeds, reader: grace, slug: slug) }
        let shown = try XCTUnwrap(try wait { try await store.article(slug, reader: grace) })
        XCTAssertEqual(shown.html, "<p><em>10</em></p>")
        XCTAssertFalse(shown.mine)
        article.receive("article", shown)
        article.receive("found", true)
        article.receive("favoriteLabel", "Favorite Article")
        article.receive("followLabel", "Follow ada")
        article.receive("comments", [Comment]())
        article.receive("signedIn", true)
        article.receive("readerImage", "/smiley.svg")
        article.receive("errors", [String]())

        article.send("comment", "   ")
        article.receive("errors", ["body can't be empty"])
        article.send("comment", "Nice one")
        let mine = try wait { try await store.comments(on: slug, reader: grace) }
        XCTAssertEqual(mine.map(\.body), ["Nice one"])
        XCTAssertEqual(mine.map(\.mine), [true])
        article.receive("comments", mine)
        article.receive("errors", [String]())

        // Ada comments from her own page: it arrives here, not marked as grace's.
        try wait { try await store.comment(on: slug, by: ada, "Thanks!") }
        let both = try wait { try await store.comments(on: slug, reader: grace) }
        XCTAssertEqual(both.map(\.body), ["Thanks!", "Nice one"])
        XCTAssertEqual(both.map(\.mine), [false, true])
        article.receive("comments", both)

        article.send("deleteComment", both[0].id)  // not hers: nothing changes, nothing is sent
        article.finish()
        article.send("deleteComment", both[1].id)
        article.receive("comments", [both[0]])

        article.send("favorite")
        article.receive("article", try wait { try await store.article(slug, reader: grace) })
        article.receive("found", true)
        article.receive("favoriteLabel", "Unfavorite Article")
        article.receive("followLabel", "Follow ada")

        // A stranger's page of it shares the list the store read once: the same rows, none theirs.
        let stranger = try ViewModelTestStore { _ in ArticleViewModel(store: store, feeds: feeds, reader: nil, slug: slug) }
        XCTAssertTrue(feeds.feed(slug) === feeds.feed(slug))
        stranger.skipReceived()
        try wait { try await store.comment(on: slug, by: ada, "For everyone") }
        let three = try wait { try await store.comments(on: slug, reader: nil) }
        stranger.receive("comments", three)
        article.receive("comments", try wait { try await store.comments(on: slug, reader: grace) })
        stranger.send("comment", "hi")
        stranger.receive("goTo", "/login")
        stranger.send("favorite")
        stranger.receive("goTo", "/register")
    }

    func testAMissingArticleIsNotFound() throws {
        let store = store!, feeds = feeds!
        let article = try ViewModelTestStore { _ in ArticleViewModel(store: store, feeds: feeds, reader: nil, slug: "no-such-article") }
        article.receive("article", Article?.none)
        article.receive("found", false)
        article.receive("favoriteLabel", "Favorite Article")
        article.receive("followLabel", "Follow ")
        article.receive("comments", [Comment]())
        article.receive("signedIn", false)
        article.receive("readerImage", "")
        article.receive("errors", [String]())
    }

    // MARK: editor

    func testTheEditorKeepsTheDraftSaysWhatIsMissingAndPublishes() throws {
        let store = store!, ada = ada
        let editor = try ViewModelTestStore { _ in EditorViewModel(store: store, author: ada, slug: nil) }
        let empty = EditorViewModel.Draft()
        editor.receive("title", empty.title)
        editor.receive("description", "")
        editor.receive("body", "")
        editor.receive("tags", "")
        editor.receive("tagList", [EditorViewModel.Pill]())
        editor.receive("errors", [String]())
        // Tags as pills, as the article will have them; a pill's ✕ takes its tag from the field.
        editor.send("tags", "Swift, web  swift")
        editor.receive("title", "")
        editor.receive("description", "")
        editor.receive("body", "")
        editor.receive("tags", "Swift, web  swift")
        editor.receive("tagList", [EditorViewModel.Pill(tag: "swift"), EditorViewModel.Pill(tag: "web")])
        editor.send("removeTag", "swift")
        editor.receive("title", "")
        editor.receive("description", "")
        editor.receive("body", "")
        editor.receive("tags", "web")
        editor.receive("tagList", [EditorViewModel.Pill(tag: "web")])
        editor.send("tags", "")
        editor.skipReceived()
        editor.send("title", "Fresh")
        editor.receive("title", "Fresh")
        editor.receive("description", "")
        editor.receive("body", "")
        editor.receive("tags", "")
        editor.receive("tagList", [EditorViewModel.Pill]())
        editor.send("publish", ArticleDraft(title: "Fresh", description: "", body: "b", tags: ""))
        editor.receive("errors", ["description can't be empty"])
        editor.send("publish", ArticleDraft(title: "Fresh", description: "new", body: "**b**", tags: "one, two"))
        // Published: the draft is cleared for the next one.
        editor.receive("title", "")
        editor.receive("description", "")
        editor.receive("body", "")
        editor.receive("tags", "")
        editor.receive("tagList", [EditorViewModel.Pill]())
        editor.receive("errors", [String]())
        let written = try wait { try await store.article("fresh", reader: ada) }
        XCTAssertEqual(written?.tags, ["one", "two"])
        XCTAssertEqual(written?.mine, true)
    }

    func testEditingReadsTheArticleInOnceAndOnlyItsAuthorMay() throws {
        let store = store!, ada = ada, grace = grace
        let slug = try page(.author(username: "ada"), reader: nil).articles[0].slug
        let editor = try ViewModelTestStore { _ in EditorViewModel(store: store, author: ada, slug: slug) }
        editor.receive("title", "Post 10")
        editor.receive("description", "d10")
        editor.receive("body", "*10*")
        editor.receive("tags", "web")
        editor.receive("tagList", [EditorViewModel.Pill(tag: "web")])
        editor.receive("errors", [String]())
        editor.send("load")  // the page's start: read in already, the draft is not read over
        editor.finish()
        editor.send("publish", ArticleDraft(title: "Post 10, revised", description: "d10", body: "*10*", tags: "web"))
        editor.skipReceived()
        XCTAssertEqual(try wait { try await store.article(slug, reader: nil) }?.title, "Post 10, revised")

        // Grace's editor on ada's article: the read-in is refused (the page's start input answered 403).
        let refused = try ViewModelTestStore { _ in EditorViewModel(store: store, author: grace, slug: slug) }
        refused.skipReceived()
        refused.send("publish", ArticleDraft(title: "Mine now", description: "d", body: "b", tags: ""))
        refused.skipReceived()
        XCTAssertEqual(try wait { try await store.article(slug, reader: nil) }?.title, "Post 10, revised", "only its author changes it")
    }

    // MARK: settings

    func testSettingsShowTheUserAndSaveWhatIsValid() throws {
        let (store, accounts) = (store!, accounts!)
        let identity = Identity(ada)
        let settings = try ViewModelTestStore { _ in SettingsViewModel(store: store, accounts: accounts, identity: identity) }
        settings.receive("image", "")
        settings.receive("username", "ada")
        settings.receive("bio", "")
        settings.receive("email", "ada@x.test")
        settings.receive("errors", [String]())
        settings.send("update", ["image": "javascript:alert(1)", "username": "ada", "bio": "", "email": "ada@x.test"])
        settings.receive("errors", ["image is a URL (https://…)"])
        settings.send("update", ["image": "", "username": "grace", "bio": "", "email": "ada@x.test"])
        settings.receive("errors", ["username has already been taken"])
        settings.send(
            "update", ["image": "https://example.org/ada.png", "username": "ada", "bio": "Analyst.", "email": "ada@x.test", "password": "a new password"])
        settings.receive("errors", [String]())
        let saved = try wait { try await store.settings(of: identity.id) }
        XCTAssertEqual(saved, UserSettings(username: "ada", email: "ada@x.test", bio: "Analyst.", image: "https://example.org/ada.png"))
        let signedIn = try wait { try await accounts.signIn(login: "ada@x.test", password: "a new password", client: nil) }
        XCTAssertEqual(signedIn.id, ada)
    }
}

/// The comments every page of an article shares: one read per change, published as what changed.
final class CommentFeedTests: XCTestCase {
    private func comment(_ id: Int64, _ body: String, by author: String = "ada") -> StoredComment {
        StoredComment(id: id, body: body, date: "d", author: author, authorImage: "/i", authorPath: "/profile/\(author)", authorID: author + "-id")
    }

    func testANewCommentIsOneInsertionAndADeletedOneARemovalEachReadersRowsFollowing() throws {
        let first = try XCTUnwrap(CommentFeeds.Feed.changing(KeyedList(), to: [comment(2, "b"), comment(1, "a")]))
        XCTAssertNil(first.changes, "the first read is sent whole")
        let added = try XCTUnwrap(CommentFeeds.Feed.changing(first, to: [comment(3, "c", by: "grace"), comment(2, "b"), comment(1, "a")]))
        XCTAssertEqual(added.changes?.count, 1)
        XCTAssertEqual(Array(added).map(\.id), [3, 2, 1])
        XCTAssertNil(CommentFeeds.Feed.changing(added, to: Array(added)), "the same comments: nothing to send")
        let changed = try XCTUnwrap(CommentFeeds.Feed.changing(added, to: [comment(3, "c", by: "grace"), comment(1, "a, renamed")]))
        XCTAssertEqual(changed.changes?.count, 2, "one removal, one update")
        XCTAssertEqual(Array(changed).map(\.body), ["c", "a, renamed"])

        // Grace's rows: hers marked, derived from the changes, so sent as them.
        let shownFirst = first.shown(to: "grace-id", after: nil)
        let shownAdded = added.shown(to: "grace-id", after: (first, shownFirst))
        XCTAssertEqual(shownAdded.changes?.count, 1)
        XCTAssertEqual(Array(shownAdded).map(\.mine), [true, false, false])
        let shownChanged = changed.shown(to: "grace-id", after: (added, shownAdded))
        XCTAssertEqual(Array(shownChanged), Array(changed).map { $0.shown(to: "grace-id") })
        XCTAssertEqual(shownChanged.changes?.count, 2)
    }
}

/// A refresh asked for while another waits to begin joins it: the writer's own
/// refresh and the store's word of its write are one read, not two.
final class CommentFeedReadTests: XCTestCase {
    /// The real store, its comment reads counted, and the first held until `open`.
    private final class CountedStore: ConduitStore, @unchecked Sendable {
        let base: any ConduitStore
        let reads = Mutex(0)
        private let gate = Mutex<(open: Bool, waiting: CheckedContinuation<Void, Never>?)>((false, nil))
        init(_ base: any ConduitStore) { self.base = base }
        var changes: PublishRelay<ConduitChange> { base.changes }

        func open() {
            gate.withLock { gate in
                gate.open = true
                gate.waiting?.resume()
                gate.waiting = nil
            }
        }

        func comments(on slug: String) async throws -> [StoredComment] {
            reads.withLock { $0 += 1 }
            await withCheckedContinuation { continuation in
                gate.withLock { gate in if gate.open { continuation.resume() } else { gate.waiting = continuation } }
            }
            return try await base.comments(on: slug)
        }

        func isFree(username: String) async throws -> Bool { try await base.isFree(username: username) }
        func addUser(id: String, username: String, email: String) async throws { try await base.addUser(id: id, username: username, email: email) }
        func settings(of id: String) async throws -> UserSettings? { try await base.settings(of: id) }
        func update(user id: String, username: String, bio: String, image: String) async throws {
            try await base.update(user: id, username: username, bio: bio, image: image)
        }
        func profile(_ username: String, reader: String?) async throws -> Profile? { try await base.profile(username, reader: reader) }
        func follow(_ username: String, by reader: String, _ following: Bool) async throws { try await base.follow(username, by: reader, following) }
        func articles(_ filter: ArticleFilter, page: Int, reader: String?) async throws -> ArticlePage {
            try await base.articles(filter, page: page, reader: reader)
        }
        func article(_ slug: String, reader: String?) async throws -> Article? { try await base.article(slug, reader: reader) }
        func popularTags(limit: Int) async throws -> [String] { try await base.popularTags(limit: limit) }
        func create(by author: String, _ draft: ArticleDraft, at date: Date) async throws -> String { try await base.create(by: author, draft, at: date) }
        func update(_ slug: String, by author: String, _ draft: ArticleDraft) async throws -> Bool { try await base.update(slug, by: author, draft) }
        func delete(_ slug: String, by author: String) async throws -> Bool { try await base.delete(slug, by: author) }
        func favorite(_ slug: String, by reader: String, _ favorite: Bool) async throws { try await base.favorite(slug, by: reader, favorite) }
        func comment(on slug: String, by reader: String, _ body: String, at date: Date) async throws {
            try await base.comment(on: slug, by: reader, body, at: date)
        }
        func deleteComment(_ id: Int64, on slug: String, by reader: String) async throws { try await base.deleteComment(id, on: slug, by: reader) }
    }

    func testRefreshesAskedForBeforeAReadBeginsAreThatOneRead() async throws {
        let store = CountedStore(try SQLiteConduitStore(database: try DatabaseQueue()))
        let feed = CommentFeeds.Feed(slug: "nothing-here", store: store)
        // The first read begins and is held; two more asks meanwhile: one read after it, not two.
        let first = feed.ask()
        let begun = await eventually { store.reads.withLock { $0 } == 1 }
        XCTAssertTrue(begun)
        let second = feed.ask(), third = feed.ask()
        store.open()
        for read in [first, second, third] { try await read.value }
        XCTAssertEqual(store.reads.withLock { $0 }, 2)
        // Once it has begun, a new ask is a new read.
        try await feed.refresh()
        XCTAssertEqual(store.reads.withLock { $0 }, 3)
    }
}
