import Bindery
import Foundation

/// A user as others see them: the spec's profile.
public struct Profile: Codable, Equatable, Sendable {
    public let username: String
    public let bio: String
    public let image: String
    /// Whether the reader follows them.
    public let following: Bool
    /// Their page: `/profile/<username>`.
    public let path: String
}

/// An article in a list (a feed, a profile's): what its preview shows, with the paths its links go to.
public struct ArticlePreview: Codable, Equatable, Sendable {
    public let slug: String
    public let title: String
    public let description: String
    public let tags: [String]
    /// "January 20, 2026".
    public let date: String
    public let favorited: Bool
    public let favoritesCount: Int
    public let author: String
    public let authorImage: String
    public let authorPath: String
    public let path: String
}

/// An article as its page shows it: its body rendered from Markdown (as `data-html` binds it, made safe there).
public struct Article: Codable, Equatable, Sendable {
    public let slug: String
    public let title: String
    public let description: String
    /// The Markdown as written (the editor's).
    public let body: String
    public let html: String
    public let tags: [String]
    public let date: String
    public let favorited: Bool
    public let favoritesCount: Int
    public let author: Profile
    /// Whether the reader wrote it (its edit and delete buttons).
    public let mine: Bool
    public let editPath: String
}

/// A comment under an article, as one reader sees it.
public struct Comment: Codable, Equatable, Identifiable, Sendable {
    public let id: Int64
    public let body: String
    public let date: String
    public let author: String
    public let authorImage: String
    public let authorPath: String
    /// Whether the reader wrote it (its delete button).
    public let mine: Bool
}

/// A comment as the store keeps it, the same for every reader: what every
/// open page of its article shares (`CommentFeeds`).
public struct StoredComment: Codable, Equatable, Identifiable, Sendable {
    public let id: Int64
    public let body: String
    public let date: String
    public let author: String
    public let authorImage: String
    public let authorPath: String
    /// The account that wrote it.
    public let authorID: String

    /// As `reader` sees it.
    public func shown(to reader: String?) -> Comment {
        Comment(id: id, body: body, date: date, author: author, authorImage: authorImage, authorPath: authorPath, mine: reader != nil && authorID == reader)
    }
}

/// A page of a list of articles: its items, and the pages' numbers with the one shown.
public struct ArticlePage: Codable, Equatable, Sendable {
    public let articles: [ArticlePreview]
    public let pages: [PageLink]
    public let count: Int
}

/// One link of a list's pagination.
public struct PageLink: Codable, Equatable, Sendable {
    public let number: Int
    public let active: Bool
}

/// Which articles a list shows.
public enum ArticleFilter: Equatable, Sendable {
    /// Every article, newest first.
    case global
    /// Those of the authors `reader` follows.
    case feed(reader: String)
    case tag(String)
    case author(username: String)
    case favoritedBy(username: String)
}

/// Something the readers of a page may need to see again, as it happens.
public enum ConduitChange: Codable, Equatable, Sendable {
    /// An article was written, changed or deleted (lists and its page).
    case article(slug: String)
    /// A favorite was given or taken back (counts).
    case favorite(slug: String)
    case comments(slug: String)
    /// A user's profile or who they follow changed.
    case user(username: String)
    /// Anything may have changed: this node missed changes (it was cut off
    /// from the cluster's database longer than the change log keeps them).
    case everything
}

/// What Conduit refuses, in words a page shows at a field.
public struct ConduitError: Error, Equatable, Sendable, CustomStringConvertible {
    public let field: String
    public let message: String
    public init(_ field: String, _ message: String) {
        self.field = field
        self.message = message
    }
    public var description: String { "\(field) \(message)" }
}
