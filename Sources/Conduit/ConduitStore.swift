import Bindery
import Foundation

/// Conduit's data: users' profiles (their passwords are `Accounts`'), articles
/// and their tags, favorites, follows and comments. `SQLiteConduitStore` keeps
/// it in the app's SQLite file; `PostgresConduitStore` in a cluster's
/// PostgreSQL, shared by every node.
///
/// Each call suspends its caller, never blocks it; a write is durable when it
/// returns (an input holds its answer until then) and is then told to
/// `changes` on every node, so that every page that shows what changed reads
/// it again. A failure of the database's throws as `BinderyError` says (503,
/// 507); what Conduit refuses throws a `ConduitError`, said at its field.
///
/// Thread safety: every method may be called from any thread.
public protocol ConduitStore: Sendable {
    /// What changed, for the pages open on it (subscribers must not block).
    var changes: PublishRelay<ConduitChange> { get }

    /// Whether `username` is free (any case).
    func isFree(username: String) async throws -> Bool
    /// Adds the profile of the account `id`; a `ConduitError` if the username was taken meanwhile.
    func addUser(id: String, username: String, email: String) async throws
    /// The signed-in user's own settings.
    func settings(of id: String) async throws -> UserSettings?
    /// Changes the user `id`'s username, bio and image.
    func update(user id: String, username: String, bio: String, image: String) async throws
    /// The profile of `username` (any case) as `reader` sees it.
    func profile(_ username: String, reader: String?) async throws -> Profile?
    /// `reader` follows `username` or stops.
    func follow(_ username: String, by reader: String, _ following: Bool) async throws

    /// A page (from 1) of the articles `filter` picks, newest first, as `reader` sees them.
    func articles(_ filter: ArticleFilter, page: Int, reader: String?) async throws -> ArticlePage
    /// The article `slug` as `reader` sees it.
    func article(_ slug: String, reader: String?) async throws -> Article?
    /// The tags most articles have, most first.
    func popularTags(limit: Int) async throws -> [String]
    /// Writes a new article by `author`; its slug (from its title, made unique).
    func create(by author: String, _ draft: ArticleDraft, at date: Date) async throws -> String
    /// Changes the article `slug`, if `author` wrote it; false if there is no such article of theirs.
    func update(_ slug: String, by author: String, _ draft: ArticleDraft) async throws -> Bool
    /// Deletes the article `slug` (with its tags, favorites and comments), if `author` wrote it.
    func delete(_ slug: String, by author: String) async throws -> Bool
    /// `reader` favorites the article `slug`, or takes it back.
    func favorite(_ slug: String, by reader: String, _ favorite: Bool) async throws

    /// The comments under `slug`, newest first.
    func comments(on slug: String) async throws -> [StoredComment]
    /// Adds `reader`'s comment under `slug`.
    func comment(on slug: String, by reader: String, _ body: String, at date: Date) async throws
    /// Deletes the comment `id`, if `reader` wrote it.
    func deleteComment(_ id: Int64, on slug: String, by reader: String) async throws
}

extension ConduitStore {
    public func popularTags() async throws -> [String] { try await popularTags(limit: 20) }
    public func create(by author: String, _ draft: ArticleDraft) async throws -> String { try await create(by: author, draft, at: Date()) }
    public func comment(on slug: String, by reader: String, _ body: String) async throws { try await comment(on: slug, by: reader, body, at: Date()) }

    /// The comments under `slug`, newest first, as `reader` sees them.
    public func comments(on slug: String, reader: String?) async throws -> [Comment] {
        try await comments(on: slug).map { $0.shown(to: reader) }
    }
}

/// A user's own settings.
public struct UserSettings: Equatable, Sendable {
    public let username: String
    public let email: String
    public let bio: String
    public let image: String
}

/// Articles a list's page shows.
let pageSize = 10

// MARK: What both stores show, from the columns they read

extension ArticlePreview {
    init(
        slug: String, title: String, description: String, createdAt: Double, username: String, image: String, favorites: Int, favorited: Bool,
        tags: [String]
    ) {
        self.init(
            slug: slug, title: title, description: description, tags: tags, date: Shown.date(createdAt), favorited: favorited,
            favoritesCount: favorites, author: username, authorImage: Shown.image(image), authorPath: Shown.profilePath(username),
            path: "/article/" + slug)
    }
}

extension Article {
    init(_ preview: ArticlePreview, body: String, bio: String, following: Bool, mine: Bool) {
        self.init(
            slug: preview.slug, title: preview.title, description: preview.description, body: body, html: Markdown.html(body), tags: preview.tags,
            date: preview.date, favorited: preview.favorited, favoritesCount: preview.favoritesCount,
            author: Profile(username: preview.author, bio: bio, image: preview.authorImage, following: following, path: preview.authorPath),
            mine: mine, editPath: "/editor/" + preview.slug)
    }
}

extension Profile {
    init(username: String, bio: String, image: String, following: Bool) {
        self.init(username: username, bio: bio, image: Shown.image(image), following: following, path: Shown.profilePath(username))
    }
}

extension StoredComment {
    init(id: Int64, body: String, createdAt: Double, username: String, image: String, authorID: String) {
        self.init(
            id: id, body: body, date: Shown.date(createdAt), author: username, authorImage: Shown.image(image),
            authorPath: Shown.profilePath(username), authorID: authorID)
    }
}

extension ArticlePage {
    /// Page `page` of `count` articles.
    init(articles: [ArticlePreview], page: Int, count: Int) {
        let pages = (count + pageSize - 1) / pageSize
        self.init(articles: articles, pages: pages > 1 ? (1...pages).map { PageLink(number: $0, active: $0 == page) } : [], count: count)
    }
}

enum Shown {
    /// The picture a user without one gets.
    static let defaultImage = "/smiley.svg"
    static func image(_ image: String) -> String { image.isEmpty ? defaultImage : image }
    static func profilePath(_ username: String) -> String { "/profile/" + Slug.pathSegment(username) }

    /// "January 20, 2026".
    static func date(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(.dateTime.month(.wide).day().year().locale(Locale(identifier: "en_US_POSIX")))
    }

    /// A comment as the store keeps it: trimmed, or what is wrong with it.
    static func comment(_ body: String) throws -> String {
        let body = body.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !body.isEmpty else { throw ConduitError("body", "can't be empty") }
        guard body.count <= 10_000 else { throw ConduitError("body", "is too long (10,000 characters at most)") }
        return body
    }
}

/// An article as its editor sends it.
public struct ArticleDraft: Codable, Equatable, Sendable {
    public var title: String
    public var description: String
    public var body: String
    /// Tags, separated by commas or spaces in the editor's field.
    public var tags: String

    public init(title: String, description: String, body: String, tags: String) {
        self.title = title
        self.description = description
        self.body = body
        self.tags = tags
    }

    /// The tags of an editor's field, separated by commas or spaces: lower-cased, once each, in order.
    static func tags(in text: String) -> [String] {
        var tags: [String] = []
        for tag in text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map({ $0.lowercased() }) where !tags.contains(tag) {
            tags.append(tag)
        }
        return tags
    }

    /// Trimmed and checked: what the store keeps, or the first field that is wrong.
    func validated() throws -> (title: String, description: String, body: String, tags: [String]) {
        func line(_ text: String, _ field: String, _ limit: Int) throws -> String {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw ConduitError(field, "can't be empty") }
            guard trimmed.count <= limit else { throw ConduitError(field, "is too long (\(limit) characters at most)") }
            guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw ConduitError(field, "is one line of text")
            }
            return trimmed
        }
        let body = body.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !body.isEmpty else { throw ConduitError("body", "can't be empty") }
        guard body.count <= 100_000 else { throw ConduitError("body", "is too long (100,000 characters at most)") }
        guard !body.contains("\u{0}") else { throw ConduitError("body", "has a NUL character") }
        let tags = try Self.tags(in: self.tags).map { try line($0, "tags", 40) }
        guard tags.count <= 10 else { throw ConduitError("tags", "are too many (10 at most)") }
        return (try line(title, "title", 200), try line(description, "description", 500), body, tags)
    }
}
