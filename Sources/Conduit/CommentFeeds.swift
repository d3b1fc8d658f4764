import Bindery
import Foundation
import Synchronization

/// The comments under each article that a page shows on this node, read once
/// per change and shared by every page open on it: a comment costs one read
/// here, however many readers, and each page is sent the one row that changed
/// (a `KeyedList`), not the list again.
///
/// A feed lives while a page holds it. It reads its article's comments again
/// when the store says they changed (`.comments`), when a user's name or
/// picture changed (`.user`), and when this node missed changes
/// (`.everything`); one read at a time, each published as the changes from
/// the list before it.
///
/// Thread safety: every method may be called from any thread.
public final class CommentFeeds: @unchecked Sendable {
    private let store: any ConduitStore
    private let feeds: Feeds
    /// The store's changes, heard until this is released (only `deinit` touches it).
    private let subscription: Disposable

    /// The live feeds, by article.
    private final class Feeds: Sendable {
        let bySlug = Mutex<[String: Weak]>([:])
    }

    private struct Weak { weak var feed: Feed? }

    public init(store: any ConduitStore) {
        self.store = store
        let feeds = Feeds()
        self.feeds = feeds
        subscription = store.changes.subscribe(onNext: { change in
            let stale: [Feed] =
                switch change {
                case .comments(let slug): feeds.bySlug.withLock { $0[slug]?.feed }.map { [$0] } ?? []
                case .user, .everything: feeds.bySlug.withLock { $0.values.compactMap(\.feed) }
                case .article, .favorite: []
                }
            for feed in stale { feed.ask() }
        })
    }

    deinit { subscription.dispose() }

    /// The feed of `slug`'s comments, shared with every page showing them here.
    func feed(_ slug: String) -> Feed {
        feeds.bySlug.withLock { feeds in
            if let feed = feeds[slug]?.feed { return feed }
            feeds = feeds.filter { $0.value.feed != nil }
            let feed = Feed(slug: slug, store: store)
            feeds[slug] = Weak(feed: feed)
            return feed
        }
    }

    /// One article's comments, newest first.
    final class Feed: Sendable {
        let relay = BehaviorRelay(value: KeyedList<StoredComment>())
        private let slug: String
        private let store: any ConduitStore
        /// The reads asked for: the last (the next waits for it), the one that has not
        /// begun its query yet (a refresh asked for meanwhile joins it: its query comes
        /// after that ask), and whether one has ended.
        private let reads = Mutex(Reads())

        private struct Reads {
            var last: Task<Void, Error>?
            var waiting: (number: Int, read: Task<Void, Error>)?
            var count = 0
            var loaded = false
        }

        init(slug: String, store: any ConduitStore) {
            self.slug = slug
            self.store = store
        }

        /// Reads the comments again, after any read asked for before, and
        /// publishes what changed; returns once they are published. Two asks
        /// before a read begins are one read (the writer's own refresh and the
        /// store's word of the same write, say).
        func refresh() async throws {
            try await ask().value
            reads.withLock { $0.loaded = true }
        }

        /// Asks for a read, as `refresh` does, without waiting for it: the read, to await.
        @discardableResult
        func ask() -> Task<Void, Error> {
            reads.withLock { reads -> Task<Void, Error> in
                if let waiting = reads.waiting { return waiting.read }
                reads.count += 1
                let number = reads.count
                let read = Task { [previous = reads.last, slug, store, relay] in
                    _ = await previous?.result
                    self.reads.withLock { if $0.waiting?.number == number { $0.waiting = nil } }
                    let comments = try await store.comments(on: slug)
                    if let changed = Self.changing(relay.value, to: comments) { relay.accept(changed) }
                }
                reads.last = read
                reads.waiting = (number, read)
                return read
            }
        }

        /// Reads the comments if no read has ended yet.
        func load() async throws {
            if !reads.withLock({ $0.loaded }) { try await refresh() }
        }

        /// `list` made into `comments` by removals, moves, insertions and
        /// updates, so that it is sent as them; nil if they are the same.
        static func changing(_ list: KeyedList<StoredComment>, to comments: [StoredComment]) -> KeyedList<StoredComment>? {
            guard !list.isEmpty else { return comments.isEmpty ? nil : KeyedList(comments) }
            let wanted = Set(comments.map(\.id))
            var items = Array(list)
            var changes: [ListChange<StoredComment>] = []
            for index in items.indices.reversed() where !wanted.contains(items[index].id) {
                changes.append(.remove(id: items[index].id, at: index))
                items.remove(at: index)
            }
            for (index, comment) in comments.enumerated() {
                if index < items.count, items[index].id == comment.id {
                    if items[index] != comment {
                        changes.append(.update(comment, at: index))
                        items[index] = comment
                    }
                } else if let from = items.firstIndex(where: { $0.id == comment.id }) {
                    changes.append(.move(id: comment.id, from: from, to: index))
                    items.insert(items.remove(at: from), at: index)
                    if items[index] != comment {
                        changes.append(.update(comment, at: index))
                        items[index] = comment
                    }
                } else {
                    changes.append(.insert(comment, at: index))
                    items.insert(comment, at: index)
                }
            }
            return changes.isEmpty ? nil : list.applying(changes)
        }
    }
}

extension KeyedList where Item == StoredComment {
    /// As `reader` sees them, sent as the changes that made this list if `previous` is what they were made from.
    func shown(to reader: String?, after previous: (stored: KeyedList<StoredComment>, shown: KeyedList<Comment>)?) -> KeyedList<Comment> {
        guard let previous, let changes, previous.stored.count == count - changes.netInsertions else {
            return KeyedList<Comment>(map { $0.shown(to: reader) })
        }
        return previous.shown.applying(
            changes.map { change in
                switch change {
                case .insert(let item, let at): .insert(item.shown(to: reader), at: at)
                case .update(let item, let at): .update(item.shown(to: reader), at: at)
                case .remove(let id, let at): .remove(id: id, at: at)
                case .move(let id, let from, let to): .move(id: id, from: from, to: to)
                }
            })
    }
}

extension [ListChange<StoredComment>] {
    /// Insertions less removals.
    var netInsertions: Int {
        reduce(0) { count, change in
            switch change {
            case .insert: count + 1
            case .remove: count - 1
            case .update, .move: count
            }
        }
    }
}
