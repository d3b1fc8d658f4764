import Bindery
import BinderyDatabase
import Foundation
import GRDB

/// Conduit's data in the app's SQLite database (tables `conduit_*`, by GRDB
/// migrations). Each call is one transaction on GRDB's threads, the caller
/// suspended; a write is on disk when it returns (an input holds its answer
/// until then), and then told to `changes`.
///
/// Thread safety: every method may be called from any thread.
public final class SQLiteConduitStore: ConduitStore {
    private let database: any DatabaseWriter
    /// What changed (on the writer's thread: subscribers must not block).
    public let changes = PublishRelay<ConduitChange>()

    public init(database: any DatabaseWriter) throws {
        self.database = database
        try Self.migrator.migrate(database)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("conduit-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE conduit_user (id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE COLLATE NOCASE, email TEXT NOT NULL,
                        bio TEXT NOT NULL DEFAULT '', image TEXT NOT NULL DEFAULT '');
                    CREATE TABLE conduit_article (id INTEGER PRIMARY KEY, slug TEXT NOT NULL UNIQUE, title TEXT NOT NULL,
                        description TEXT NOT NULL, body TEXT NOT NULL, author_id TEXT NOT NULL REFERENCES conduit_user(id),
                        created_at REAL NOT NULL, updated_at REAL NOT NULL);
                    CREATE INDEX conduit_article_by_author ON conduit_article (author_id, created_at);
                    CREATE TABLE conduit_tag (article_id INTEGER NOT NULL REFERENCES conduit_article(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (article_id, position));
                    CREATE INDEX conduit_tag_by_tag ON conduit_tag (tag);
                    CREATE TABLE conduit_favorite (user_id TEXT NOT NULL, article_id INTEGER NOT NULL REFERENCES conduit_article(id) ON DELETE CASCADE,
                        PRIMARY KEY (user_id, article_id));
                    CREATE INDEX conduit_favorite_by_article ON conduit_favorite (article_id);
                    CREATE TABLE conduit_follow (follower_id TEXT NOT NULL, followed_id TEXT NOT NULL, PRIMARY KEY (follower_id, followed_id));
                    CREATE TABLE conduit_comment (id INTEGER PRIMARY KEY, article_id INTEGER NOT NULL REFERENCES conduit_article(id) ON DELETE CASCADE,
                        author_id TEXT NOT NULL, body TEXT NOT NULL, created_at REAL NOT NULL);
                    CREATE INDEX conduit_comment_by_article ON conduit_comment (article_id);
                    """)
        }
        return migrator
    }

    // MARK: Users

    /// Whether `username` is free (any case).
    public func isFree(username: String) async throws -> Bool {
        try await database.readAnswerably { db in try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM conduit_user WHERE username = ?)", arguments: [username])! }
    }

    /// Adds the profile of the account `id`; a `ConduitError` if the username was taken meanwhile.
    public func addUser(id: String, username: String, email: String) async throws {
        do {
            try await database.writeAnswerably { db in
                try db.execute(sql: "INSERT INTO conduit_user (id, username, email) VALUES (?, ?, ?)", arguments: [id, username, email])
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw ConduitError("username", "has already been taken")
        }
    }

    public func settings(of id: String) async throws -> UserSettings? {
        try await database.readAnswerably { db in
            try Row.fetchOne(db, sql: "SELECT username, email, bio, image FROM conduit_user WHERE id = ?", arguments: [id]).map {
                UserSettings(username: $0["username"], email: $0["email"], bio: $0["bio"], image: $0["image"])
            }
        }
    }

    /// Changes the user `id`'s username, bio and image.
    public func update(user id: String, username: String, bio: String, image: String) async throws {
        let old = try await settings(of: id)?.username
        do {
            try await database.writeAnswerably { db in
                try db.execute(sql: "UPDATE conduit_user SET username = ?, bio = ?, image = ? WHERE id = ?", arguments: [username, bio, image, id])
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw ConduitError("username", "has already been taken")
        }
        for name in Set([old, username].compactMap { $0 }) { changes.accept(.user(username: name)) }
    }

    /// The profile of `username` as `reader` sees it.
    public func profile(_ username: String, reader: String?) async throws -> Profile? {
        try await database.readAnswerably { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT username, bio, image, EXISTS (SELECT 1 FROM conduit_follow WHERE follower_id = ? AND followed_id = u.id) AS following
                    FROM conduit_user u WHERE username = ?
                    """, arguments: [reader, username]
            ).map(Self.profile)
        }
    }

    /// `reader` follows `username` or stops.
    public func follow(_ username: String, by reader: String, _ following: Bool) async throws {
        try await database.writeAnswerably { db in
            guard let id = try String.fetchOne(db, sql: "SELECT id FROM conduit_user WHERE username = ?", arguments: [username]), id != reader else { return }
            if following {
                try db.execute(sql: "INSERT OR IGNORE INTO conduit_follow (follower_id, followed_id) VALUES (?, ?)", arguments: [reader, id])
            } else {
                try db.execute(sql: "DELETE FROM conduit_follow WHERE follower_id = ? AND followed_id = ?", arguments: [reader, id])
            }
        }
        changes.accept(.user(username: username))
    }

    // MARK: Articles

    /// A page (from 1) of the articles `filter` picks, newest first, as `reader` sees them.
    public func articles(_ filter: ArticleFilter, page: Int, reader: String?) async throws -> ArticlePage {
        let (condition, arguments): (String, StatementArguments) =
            switch filter {
            case .global: ("1", [])
            case .feed(let follower): ("a.author_id IN (SELECT followed_id FROM conduit_follow WHERE follower_id = ?)", [follower])
            case .tag(let tag): ("EXISTS (SELECT 1 FROM conduit_tag t WHERE t.article_id = a.id AND t.tag = ?)", [tag])
            case .author(let username): ("u.username = ?", [username])
            case .favoritedBy(let username):
                ("a.id IN (SELECT f.article_id FROM conduit_favorite f JOIN conduit_user fu ON fu.id = f.user_id WHERE fu.username = ?)", [username])
            }
        let page = max(1, page)
        return try await database.readAnswerably { db in
            let count = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM conduit_article a JOIN conduit_user u ON u.id = a.author_id WHERE \(condition)", arguments: arguments)!
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.articleColumns) FROM conduit_article a JOIN conduit_user u ON u.id = a.author_id
                    WHERE \(condition) ORDER BY a.created_at DESC, a.id DESC LIMIT ? OFFSET ?
                    """, arguments: [reader] + arguments + [pageSize, (page - 1) * pageSize])
            return ArticlePage(articles: rows.map(Self.preview), page: page, count: count)
        }
    }

    /// The article `slug` as `reader` sees it.
    public func article(_ slug: String, reader: String?) async throws -> Article? {
        try await database.readAnswerably { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT \(Self.articleColumns), a.body, u.bio, a.author_id,
                            EXISTS (SELECT 1 FROM conduit_follow WHERE follower_id = ? AND followed_id = a.author_id) AS following
                        FROM conduit_article a JOIN conduit_user u ON u.id = a.author_id WHERE a.slug = ?
                        """, arguments: [reader, reader, slug])
            else { return nil }
            return Article(Self.preview(row), body: row["body"], bio: row["bio"], following: row["following"], mine: reader != nil && row["author_id"] == reader)
        }
    }

    /// The tags most articles have, most first.
    public func popularTags(limit: Int) async throws -> [String] {
        try await database.readAnswerably { db in
            try String.fetchAll(db, sql: "SELECT tag FROM conduit_tag GROUP BY tag ORDER BY count(*) DESC, tag LIMIT ?", arguments: [limit])
        }
    }

    /// Writes a new article by `author`; its slug (from its title, made unique).
    public func create(by author: String, _ draft: ArticleDraft, at date: Date) async throws -> String {
        let draft = try draft.validated()
        let base = Slug.make(draft.title)
        let slug = try await database.writeAnswerably { db -> String in
            var slug = base
            var suffix = 1
            while try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM conduit_article WHERE slug = ?)", arguments: [slug])! {
                suffix += 1
                slug = "\(base)-\(suffix)"
            }
            try db.execute(
                sql: "INSERT INTO conduit_article (slug, title, description, body, author_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [slug, draft.title, draft.description, draft.body, author, date.timeIntervalSince1970, date.timeIntervalSince1970])
            try Self.setTags(draft.tags, of: db.lastInsertedRowID, in: db)
            return slug
        }
        changes.accept(.article(slug: slug))
        return slug
    }

    /// Changes the article `slug`, if `author` wrote it; false if there is no such article of theirs.
    public func update(_ slug: String, by author: String, _ draft: ArticleDraft) async throws -> Bool {
        let draft = try draft.validated()
        let updated = try await database.writeAnswerably { db -> Bool in
            guard
                let id = try Int64.fetchOne(db, sql: "SELECT id FROM conduit_article WHERE slug = ? AND author_id = ?", arguments: [slug, author])
            else { return false }
            try db.execute(
                sql: "UPDATE conduit_article SET title = ?, description = ?, body = ?, updated_at = ? WHERE id = ?",
                arguments: [draft.title, draft.description, draft.body, Date().timeIntervalSince1970, id])
            try Self.setTags(draft.tags, of: id, in: db)
            return true
        }
        if updated { changes.accept(.article(slug: slug)) }
        return updated
    }

    /// Deletes the article `slug` (with its tags, favorites and comments), if `author` wrote it.
    public func delete(_ slug: String, by author: String) async throws -> Bool {
        let deleted = try await database.writeAnswerably { db -> Bool in
            try db.execute(sql: "DELETE FROM conduit_article WHERE slug = ? AND author_id = ?", arguments: [slug, author])
            return db.changesCount > 0
        }
        if deleted { changes.accept(.article(slug: slug)) }
        return deleted
    }

    /// `reader` favorites the article `slug`, or takes it back.
    public func favorite(_ slug: String, by reader: String, _ favorite: Bool) async throws {
        try await database.writeAnswerably { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM conduit_article WHERE slug = ?", arguments: [slug]) else { return }
            if favorite {
                try db.execute(sql: "INSERT OR IGNORE INTO conduit_favorite (user_id, article_id) VALUES (?, ?)", arguments: [reader, id])
            } else {
                try db.execute(sql: "DELETE FROM conduit_favorite WHERE user_id = ? AND article_id = ?", arguments: [reader, id])
            }
        }
        changes.accept(.favorite(slug: slug))
    }

    // MARK: Comments

    /// The comments under `slug`, newest first.
    public func comments(on slug: String) async throws -> [StoredComment] {
        try await database.readAnswerably { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.id, c.body, c.created_at, c.author_id, u.username, u.image FROM conduit_comment c
                    JOIN conduit_article a ON a.id = c.article_id JOIN conduit_user u ON u.id = c.author_id
                    WHERE a.slug = ? ORDER BY c.id DESC
                    """, arguments: [slug]
            ).map { row in
                StoredComment(
                    id: row["id"], body: row["body"], createdAt: row["created_at"], username: row["username"], image: row["image"],
                    authorID: row["author_id"])
            }
        }
    }

    /// Adds `reader`'s comment under `slug`.
    public func comment(on slug: String, by reader: String, _ body: String, at date: Date) async throws {
        let body = try Shown.comment(body)
        let added = try await database.writeAnswerably { db -> Bool in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM conduit_article WHERE slug = ?", arguments: [slug]) else { return false }
            try db.execute(
                sql: "INSERT INTO conduit_comment (article_id, author_id, body, created_at) VALUES (?, ?, ?, ?)",
                arguments: [id, reader, body, date.timeIntervalSince1970])
            return true
        }
        guard added else { throw ConduitError("article", "is gone") }
        changes.accept(.comments(slug: slug))
    }

    /// Deletes the comment `id`, if `reader` wrote it.
    public func deleteComment(_ id: Int64, on slug: String, by reader: String) async throws {
        try await database.writeAnswerably { db in try db.execute(sql: "DELETE FROM conduit_comment WHERE id = ? AND author_id = ?", arguments: [id, reader]) }
        changes.accept(.comments(slug: slug))
    }

    // MARK: Rows

    /// An article's columns for a preview; its first argument is the reader (favorited).
    private static let articleColumns = """
        a.slug, a.title, a.description, a.created_at, u.username, u.image,
        (SELECT count(*) FROM conduit_favorite f WHERE f.article_id = a.id) AS favorites,
        EXISTS (SELECT 1 FROM conduit_favorite f WHERE f.article_id = a.id AND f.user_id = ?) AS favorited,
        (SELECT group_concat(tag, char(31)) FROM (SELECT tag FROM conduit_tag t WHERE t.article_id = a.id ORDER BY position)) AS tags
        """

    private static func preview(_ row: Row) -> ArticlePreview {
        ArticlePreview(
            slug: row["slug"], title: row["title"], description: row["description"], createdAt: row["created_at"], username: row["username"],
            image: row["image"], favorites: row["favorites"], favorited: row["favorited"],
            tags: (row["tags"] as String?)?.split(separator: "\u{1F}").map(String.init) ?? [])
    }

    private static func profile(_ row: Row) -> Profile {
        Profile(username: row["username"], bio: row["bio"], image: row["image"], following: row["following"])
    }

    private static func setTags(_ tags: [String], of article: Int64, in db: Database) throws {
        try db.execute(sql: "DELETE FROM conduit_tag WHERE article_id = ?", arguments: [article])
        for (position, tag) in tags.enumerated() {
            try db.execute(sql: "INSERT INTO conduit_tag (article_id, position, tag) VALUES (?, ?, ?)", arguments: [article, position, tag])
        }
    }

}

