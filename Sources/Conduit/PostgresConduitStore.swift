import Bindery
import BinderyPostgres
import Foundation

/// Conduit's data in a cluster's PostgreSQL database (tables `conduit_*`),
/// shared by every node. A write is one transaction; what it changed is
/// appended, in the same transaction, to the change log's topic `conduit`,
/// and every node (this one once it has committed) tells its `changes`, so a
/// comment made through one node shows on the pages open on every other. A
/// node cut off longer than the log keeps changes is told `.everything`.
///
/// Reads and writes each have a connection of their own (two per node), so a
/// page's reads never queue behind another's write.
///
/// Thread safety: every method may be called from any thread.
public final class PostgresConduitStore: ConduitStore {
    public let changes = PublishRelay<ConduitChange>()
    private let reader: PostgresDatabase
    private let writer: PostgresDatabase
    private let log: ChangeLog
    private static let topic = "conduit"

    /// The store in the database at `url`, its tables made if missing, following the cluster's `log`.
    public init(url: String, changes log: ChangeLog) throws {
        reader = PostgresDatabase(url: url, name: "conduit.read")
        writer = PostgresDatabase(url: url, name: "conduit.write")
        self.log = log
        try writer.createSchema(
            """
            CREATE TABLE IF NOT EXISTS conduit_user (id text PRIMARY KEY, username text NOT NULL, email text NOT NULL,
                bio text NOT NULL DEFAULT '', image text NOT NULL DEFAULT '')
            """,
            "CREATE UNIQUE INDEX IF NOT EXISTS conduit_user_by_name ON conduit_user (lower(username))",
            """
            CREATE TABLE IF NOT EXISTS conduit_article (id bigserial PRIMARY KEY, slug text NOT NULL UNIQUE, title text NOT NULL,
                description text NOT NULL, body text NOT NULL, author_id text NOT NULL REFERENCES conduit_user(id),
                created_at double precision NOT NULL, updated_at double precision NOT NULL)
            """,
            "CREATE INDEX IF NOT EXISTS conduit_article_by_author ON conduit_article (author_id, created_at)",
            "CREATE INDEX IF NOT EXISTS conduit_article_by_date ON conduit_article (created_at DESC, id DESC)",
            """
            CREATE TABLE IF NOT EXISTS conduit_tag (article_id bigint NOT NULL REFERENCES conduit_article(id) ON DELETE CASCADE,
                position integer NOT NULL, tag text NOT NULL, PRIMARY KEY (article_id, position))
            """,
            "CREATE INDEX IF NOT EXISTS conduit_tag_by_tag ON conduit_tag (tag)",
            """
            CREATE TABLE IF NOT EXISTS conduit_favorite (user_id text NOT NULL,
                article_id bigint NOT NULL REFERENCES conduit_article(id) ON DELETE CASCADE, PRIMARY KEY (user_id, article_id))
            """,
            "CREATE INDEX IF NOT EXISTS conduit_favorite_by_article ON conduit_favorite (article_id)",
            "CREATE TABLE IF NOT EXISTS conduit_follow (follower_id text NOT NULL, followed_id text NOT NULL, PRIMARY KEY (follower_id, followed_id))",
            """
            CREATE TABLE IF NOT EXISTS conduit_comment (id bigserial PRIMARY KEY,
                article_id bigint NOT NULL REFERENCES conduit_article(id) ON DELETE CASCADE,
                author_id text NOT NULL, body text NOT NULL, created_at double precision NOT NULL)
            """,
            "CREATE INDEX IF NOT EXISTS conduit_comment_by_article ON conduit_comment (article_id)")
        let offset = try reader.sync { try ChangeLog.lastOffset(of: Self.topic, in: $0) }
        log.follow(
            Self.topic, after: offset,
            deliver: { [changes] _, payload in
                for change in (try? JSONDecoder().decode([ConduitChange].self, from: payload)) ?? [] { changes.accept(change) }
            },
            behind: { [weak self] in self?.catchUp() })
    }

    /// After changes this node missed: goes on from the log's last offset, and tells every page to read again.
    private func catchUp() {
        reader.async { [self] connection in
            guard let offset = try? ChangeLog.lastOffset(of: Self.topic, in: connection.get()) else {
                // The database is away: try again shortly.
                return DispatchQueue.global().asyncAfter(deadline: .now() + 1) { [weak self] in self?.catchUp() }
            }
            log.resume(Self.topic, after: offset)
            changes.accept(.everything)
        }
    }

    // MARK: Users

    public func isFree(username: String) async throws -> Bool {
        try await read { db in
            try db.execute("SELECT 1 FROM conduit_user WHERE lower(username) = lower($1)", [.text(username)]).isEmpty
        }
    }

    public func addUser(id: String, username: String, email: String) async throws {
        try await takingUsername {
            try await write { db -> ConduitChange? in
                try db.execute("INSERT INTO conduit_user (id, username, email) VALUES ($1, $2, $3)", [.text(id), .text(username), .text(email)])
                return nil
            }
        }
    }

    public func settings(of id: String) async throws -> UserSettings? {
        try await read { db in
            try db.execute("SELECT username, email, bio, image FROM conduit_user WHERE id = $1", [.text(id)]).first.map {
                UserSettings(username: $0[0].text ?? "", email: $0[1].text ?? "", bio: $0[2].text ?? "", image: $0[3].text ?? "")
            }
        }
    }

    public func update(user id: String, username: String, bio: String, image: String) async throws {
        try await takingUsername {
            try await write { db -> ((), [ConduitChange]) in
                guard
                    let old = try db.execute("SELECT username FROM conduit_user WHERE id = $1 FOR UPDATE", [.text(id)]).first?[0].text
                else { return ((), []) }
                try db.execute(
                    "UPDATE conduit_user SET username = $1, bio = $2, image = $3 WHERE id = $4", [.text(username), .text(bio), .text(image), .text(id)])
                return ((), Set([old, username]).sorted().map { .user(username: $0) })
            }
        }
    }

    public func profile(_ username: String, reader: String?) async throws -> Profile? {
        try await read { db in
            try db.execute(
                """
                SELECT username, bio, image, EXISTS (SELECT 1 FROM conduit_follow WHERE follower_id = $1 AND followed_id = u.id)
                FROM conduit_user u WHERE lower(username) = lower($2)
                """, [Self.value(reader), .text(username)]
            ).first.map { Profile(username: $0[0].text ?? "", bio: $0[1].text ?? "", image: $0[2].text ?? "", following: $0[3].bool ?? false) }
        }
    }

    public func follow(_ username: String, by reader: String, _ following: Bool) async throws {
        try await write { db in
            guard
                let id = try db.execute("SELECT id FROM conduit_user WHERE lower(username) = lower($1)", [.text(username)]).first?[0].text,
                id != reader
            else { return nil }
            if following {
                try db.execute("INSERT INTO conduit_follow (follower_id, followed_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [.text(reader), .text(id)])
            } else {
                try db.execute("DELETE FROM conduit_follow WHERE follower_id = $1 AND followed_id = $2", [.text(reader), .text(id)])
            }
            return .user(username: username)
        }
    }

    // MARK: Articles

    public func articles(_ filter: ArticleFilter, page: Int, reader: String?) async throws -> ArticlePage {
        // `$F` is the filter's one argument, if it has one.
        let (condition, argument): (String, String?) =
            switch filter {
            case .global: ("true", nil)
            case .feed(let follower): ("a.author_id IN (SELECT followed_id FROM conduit_follow WHERE follower_id = $F)", follower)
            case .tag(let tag): ("EXISTS (SELECT 1 FROM conduit_tag t WHERE t.article_id = a.id AND t.tag = $F)", tag)
            case .author(let username): ("lower(u.username) = lower($F)", username)
            case .favoritedBy(let username):
                ("a.id IN (SELECT f.article_id FROM conduit_favorite f JOIN conduit_user fu ON fu.id = f.user_id WHERE lower(fu.username) = lower($F))", username)
            }
        let page = max(1, page)
        let filtered: [PostgresValue] = argument.map { [.text($0)] } ?? []
        return try await read { db in
            let count = try db.execute(
                "SELECT count(*) FROM conduit_article a JOIN conduit_user u ON u.id = a.author_id WHERE \(condition.replacingOccurrences(of: "$F", with: "$1"))",
                filtered
            ).first?[0].int ?? 0
            let rows = try db.execute(
                """
                SELECT \(Self.articleColumns) FROM conduit_article a JOIN conduit_user u ON u.id = a.author_id
                WHERE \(condition.replacingOccurrences(of: "$F", with: "$4")) ORDER BY a.created_at DESC, a.id DESC LIMIT $2 OFFSET $3
                """, [Self.value(reader), .int(Int64(pageSize)), .int(Int64((page - 1) * pageSize))] + filtered)
            return ArticlePage(articles: rows.map(Self.preview), page: page, count: Int(count))
        }
    }

    public func article(_ slug: String, reader: String?) async throws -> Article? {
        try await read { db in
            guard
                let row = try db.execute(
                    """
                    SELECT \(Self.articleColumns), a.body, u.bio, a.author_id,
                        EXISTS (SELECT 1 FROM conduit_follow WHERE follower_id = $1 AND followed_id = a.author_id)
                    FROM conduit_article a JOIN conduit_user u ON u.id = a.author_id WHERE a.slug = $2
                    """, [Self.value(reader), .text(slug)]
                ).first
            else { return nil }
            return Article(
                Self.preview(row), body: row[9].text ?? "", bio: row[10].text ?? "", following: row[12].bool ?? false,
                mine: reader != nil && row[11].text == reader)
        }
    }

    public func popularTags(limit: Int) async throws -> [String] {
        try await read { db in
            try db.execute("SELECT tag FROM conduit_tag GROUP BY tag ORDER BY count(*) DESC, tag LIMIT $1", [.int(Int64(limit))]).compactMap { $0[0].text }
        }
    }

    public func create(by author: String, _ draft: ArticleDraft, at date: Date) async throws -> String {
        let draft = try draft.validated()
        let base = Slug.make(draft.title)
        return try await write { db -> (String, ConduitChange?) in
            // The first of base, base-2, base-3… that is free, even against another node's writer.
            var suffix = 0
            while true {
                suffix += 1
                let slug = suffix == 1 ? base : "\(base)-\(suffix)"
                guard
                    let id = try db.execute(
                        """
                        INSERT INTO conduit_article (slug, title, description, body, author_id, created_at, updated_at)
                        VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (slug) DO NOTHING RETURNING id
                        """,
                        [.text(slug), .text(draft.title), .text(draft.description), .text(draft.body), .text(author), .double(date.timeIntervalSince1970)]
                    ).first?[0].int
                else { continue }
                try Self.setTags(draft.tags, of: id, in: db)
                return (slug, .article(slug: slug))
            }
        }
    }

    public func update(_ slug: String, by author: String, _ draft: ArticleDraft) async throws -> Bool {
        let draft = try draft.validated()
        return try await write { db -> (Bool, ConduitChange?) in
            guard
                let id = try db.execute(
                    """
                    UPDATE conduit_article SET title = $1, description = $2, body = $3, updated_at = $4 WHERE slug = $5 AND author_id = $6 RETURNING id
                    """,
                    [.text(draft.title), .text(draft.description), .text(draft.body), .double(Date().timeIntervalSince1970), .text(slug), .text(author)]
                ).first?[0].int
            else { return (false, nil) }
            try Self.setTags(draft.tags, of: id, in: db)
            return (true, .article(slug: slug))
        }
    }

    public func delete(_ slug: String, by author: String) async throws -> Bool {
        try await write { db -> (Bool, ConduitChange?) in
            let deleted = try !db.execute(
                "DELETE FROM conduit_article WHERE slug = $1 AND author_id = $2 RETURNING id", [.text(slug), .text(author)]
            ).isEmpty
            return (deleted, deleted ? .article(slug: slug) : nil)
        }
    }

    public func favorite(_ slug: String, by reader: String, _ favorite: Bool) async throws {
        try await write { db in
            guard let id = try db.execute("SELECT id FROM conduit_article WHERE slug = $1", [.text(slug)]).first?[0].int else { return nil }
            if favorite {
                try db.execute("INSERT INTO conduit_favorite (user_id, article_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [.text(reader), .int(id)])
            } else {
                try db.execute("DELETE FROM conduit_favorite WHERE user_id = $1 AND article_id = $2", [.text(reader), .int(id)])
            }
            return .favorite(slug: slug)
        }
    }

    // MARK: Comments

    public func comments(on slug: String) async throws -> [StoredComment] {
        try await read { db in
            try db.execute(
                """
                SELECT c.id, c.body, c.created_at, c.author_id, u.username, u.image FROM conduit_comment c
                JOIN conduit_article a ON a.id = c.article_id JOIN conduit_user u ON u.id = c.author_id
                WHERE a.slug = $1 ORDER BY c.id DESC
                """, [.text(slug)]
            ).map { row in
                StoredComment(
                    id: row[0].int ?? 0, body: row[1].text ?? "", createdAt: row[2].double ?? 0, username: row[4].text ?? "", image: row[5].text ?? "",
                    authorID: row[3].text ?? "")
            }
        }
    }

    public func comment(on slug: String, by reader: String, _ body: String, at date: Date) async throws {
        let body = try Shown.comment(body)
        let added = try await write { db -> (Bool, ConduitChange?) in
            let added = try !db.execute(
                """
                INSERT INTO conduit_comment (article_id, author_id, body, created_at)
                SELECT id, $2, $3, $4 FROM conduit_article WHERE slug = $1 RETURNING id
                """, [.text(slug), .text(reader), .text(body), .double(date.timeIntervalSince1970)]
            ).isEmpty
            return (added, added ? .comments(slug: slug) : nil)
        }
        guard added else { throw ConduitError("article", "is gone") }
    }

    public func deleteComment(_ id: Int64, on slug: String, by reader: String) async throws {
        try await write { db in
            try db.execute("DELETE FROM conduit_comment WHERE id = $1 AND author_id = $2", [.int(id), .text(reader)])
            return .comments(slug: slug)
        }
    }

    // MARK: Rows

    /// An article's columns for a preview (0–8); `$1` is the reader (favorited).
    private static let articleColumns = """
        a.slug, a.title, a.description, a.created_at, u.username, u.image,
        (SELECT count(*) FROM conduit_favorite f WHERE f.article_id = a.id),
        EXISTS (SELECT 1 FROM conduit_favorite f WHERE f.article_id = a.id AND f.user_id = $1),
        (SELECT string_agg(tag, chr(31) ORDER BY position) FROM conduit_tag t WHERE t.article_id = a.id)
        """

    private static func preview(_ row: [PostgresValue]) -> ArticlePreview {
        ArticlePreview(
            slug: row[0].text ?? "", title: row[1].text ?? "", description: row[2].text ?? "", createdAt: row[3].double ?? 0,
            username: row[4].text ?? "", image: row[5].text ?? "", favorites: Int(row[6].int ?? 0), favorited: row[7].bool ?? false,
            tags: row[8].text?.split(separator: "\u{1F}").map(String.init) ?? [])
    }

    private static func setTags(_ tags: [String], of article: Int64, in db: PostgresConnection) throws {
        try db.execute("DELETE FROM conduit_tag WHERE article_id = $1", [.int(article)])
        for (position, tag) in tags.enumerated() {
            try db.execute("INSERT INTO conduit_tag (article_id, position, tag) VALUES ($1, $2, $3)", [.int(article), .int(Int64(position)), .text(tag)])
        }
    }

    private static func value(_ text: String?) -> PostgresValue { text.map(PostgresValue.text) ?? .null }

    // MARK: Transactions

    /// A unique index's refusal (the username's, the only one a caller can hit) as Conduit says it.
    private func takingUsername(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as PostgresError where error.sqlState == "23505" {
            throw ConduitError("username", "has already been taken")
        }
    }

    /// Runs `body` in one transaction on the writer's connection; what it says
    /// changed is appended to the log in that transaction (as one change of
    /// the topic), and handed to this node's delivery once committed.
    @discardableResult
    private func write<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> (T, [ConduitChange])) async throws -> T {
        let (value, appended) = try await writer.inTransaction { [log] db -> (T, (Int64, Data)?) in
            let (value, changes) = try body(db)
            guard !changes.isEmpty else { return (value, nil) }
            let payload = try JSONEncoder().encode(changes)
            let offset = try ChangeLog.lock(Self.topic, in: db)
            try log.append(payload, to: Self.topic, at: offset, in: db)
            return (value, (offset, payload))
        }
        if let (offset, payload) = appended { log.committed(payload, to: Self.topic, at: offset) }
        return value
    }

    @discardableResult
    private func write<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> (T, ConduitChange?)) async throws -> T {
        try await write { db -> (T, [ConduitChange]) in
            let (value, change) = try body(db)
            return (value, change.map { [$0] } ?? [])
        }
    }

    private func write(_ body: @escaping @Sendable (PostgresConnection) throws -> ConduitChange?) async throws {
        try await write { db -> ((), ConduitChange?) in ((), try body(db)) }
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await reader.inTransaction(body)
    }
}
