import Bindery
import Foundation

/// The home page (`/`): the global feed, your feed (signed in), a tag's articles,
/// ten a page, the popular tags; a favorite from a preview. Live: an article
/// written, changed or favorited anywhere is shown at once.
final class HomeViewModel: ViewModelBinding {
    /// Which list the page shows, kept with the session (a restart finds the reader where they were).
    struct Place: Codable, Equatable, Sendable {
        var tab = "global"
        var tag = ""
        var page = 1
    }

    /// A popular tag, keyed by itself (a click sends it).
    struct Tag: Codable, Equatable, Sendable {
        let tag: String
    }

    struct Input: Decodable {
        let load: Observable<Void>
        let global: Observable<Void>
        let feed: Observable<Void>
        let tag: Observable<String>
        let page: Observable<Int>
        let favorite: Observable<String>
    }

    struct Output {
        let signedIn: Driver<Bool>
        let feedActive: Driver<Bool>
        let globalActive: Driver<Bool>
        let tagActive: Driver<Bool>
        let tag: Driver<String>
        let articles: Driver<[ArticlePreview]>
        let pages: Driver<[PageLink]>
        let empty: Driver<Bool>
        let popularTags: Driver<[Tag]>
        let goTo: Signal<String>
        let disposable: Disposable
    }

    let store: any ConduitStore
    let reader: String?

    init(store: any ConduitStore, reader: String?) {
        self.store = store
        self.reader = reader
    }

    func bind(_ input: Input) -> Output {
        let work = Work()
        let place = SessionRelay(value: Place())
        let list = work.loaded(ArticlePage?.none)
        let tags = work.loaded([String]())
        let goTo = PublishRelay<String>()
        let (store, reader) = (store, reader)
        func load() {
            let place = place.value
            list.load {
                let filter: ArticleFilter =
                    switch place.tab {
                    case "feed" where reader != nil: .feed(reader: reader!)
                    case "tag": .tag(place.tag)
                    default: .global
                    }
                return try await store.articles(filter, page: place.page, reader: reader)
            }
        }
        func loadAll() {
            load()
            tags.load { try await store.popularTags() }
        }
        loadAll()
        func show(_ new: Place) {
            place.accept(new)
            load()
        }
        let shown = list.relay.map { $0?.articles.map(\.slug) ?? [] }
        let disposable = Disposables.create(
            input.load.subscribe(onNext: loadAll),
            input.global.subscribe(onNext: { show(Place(tab: "global")) }),
            input.feed.subscribe(onNext: { reader == nil ? goTo.accept("/login") : show(Place(tab: "feed")) }),
            input.tag.subscribe(onNext: { show(Place(tab: "tag", tag: $0)) }),
            input.page.subscribe(onNext: { page in show(Place(tab: place.value.tab, tag: place.value.tag, page: max(1, page))) }),
            input.favorite.withLatestFrom(list.relay) { ($0, $1) }.subscribe(onNext: { slug, page in
                guard let reader else { return goTo.accept("/register") }
                let favorited = page?.articles.first { $0.slug == slug }?.favorited ?? false
                work.run { try await store.favorite(slug, by: reader, !favorited) }
            }),
            store.changes.withLatestFrom(shown) { ($0, $1) }.subscribe(onNext: { change, slugs in
                switch change {
                case .article, .everything: loadAll()
                case .favorite(let slug) where slugs.contains(slug): load()
                default: break
                }
            }))
        let page = list.relay.asDriver()
        return Output(
            signedIn: .just(reader != nil), feedActive: place.asDriver().map { $0.tab == "feed" },
            globalActive: place.asDriver().map { $0.tab == "global" }, tagActive: place.asDriver().map { $0.tab == "tag" },
            tag: place.asDriver().map { "#" + $0.tag }, articles: page.map { $0?.articles ?? [] }, pages: page.map { $0?.pages ?? [] },
            empty: page.map { $0 != nil && $0!.articles.isEmpty }, popularTags: tags.driver.map { $0.map(Tag.init) }, goTo: goTo.asSignal(),
            disposable: disposable)
    }
}

/// A profile (`/profile/:username`, and `/profile/:username/favorites`): who they
/// are, follow them, their articles or those they favorited, ten a page.
final class ProfileViewModel: ViewModelBinding {
    struct Parameters: Decodable {
        let username: String
        var favorites: Bool?
    }

    struct Input: Decodable {
        let load: Observable<Void>
        let follow: Observable<Void>
        let page: Observable<Int>
        let favorite: Observable<String>
    }

    struct Output {
        let profile: Driver<Profile?>
        let found: Driver<Bool>
        let mine: Driver<Bool>
        let followLabel: Driver<String>
        let articles: Driver<[ArticlePreview]>
        let pages: Driver<[PageLink]>
        let empty: Driver<Bool>
        let myArticlesPath: Driver<String>
        let favoritesPath: Driver<String>
        let favoritesShown: Driver<Bool>
        let articlesShown: Driver<Bool>
        let goTo: Signal<String>
        let disposable: Disposable
    }

    let store: any ConduitStore
    let reader: String?
    let username: String
    let favorites: Bool

    init(store: any ConduitStore, reader: String?, parameters: Parameters) {
        self.store = store
        self.reader = reader
        username = parameters.username
        favorites = parameters.favorites ?? false
    }

    func bind(_ input: Input) -> Output {
        let work = Work()
        let profile = work.loaded(Profile?.none)
        let mine = work.loaded(false)
        let list = work.loaded(ArticlePage?.none)
        let page = SessionRelay(value: 1)
        let goTo = PublishRelay<String>()
        let (store, reader, username, favorites) = (store, reader, username, favorites)
        func loadList() {
            let number = page.value
            list.load {
                try await store.articles(favorites ? .favoritedBy(username: username) : .author(username: username), page: number, reader: reader)
            }
        }
        func load() {
            profile.load { try await store.profile(username, reader: reader) }
            mine.load { if let reader { try await store.settings(of: reader)?.username == username } else { false } }
            loadList()
        }
        load()
        let shown = list.relay.map { $0?.articles.map(\.slug) ?? [] }
        let disposable = Disposables.create(
            input.load.subscribe(onNext: load),
            input.page.subscribe(onNext: {
                page.accept(max(1, $0))
                loadList()
            }),
            input.follow.withLatestFrom(profile.relay).subscribe(onNext: { shown in
                guard let reader else { return goTo.accept("/register") }
                work.run { try await store.follow(username, by: reader, !(shown?.following ?? false)) }
            }),
            input.favorite.withLatestFrom(list.relay) { ($0, $1) }.subscribe(onNext: { slug, page in
                guard let reader else { return goTo.accept("/register") }
                let favorited = page?.articles.first { $0.slug == slug }?.favorited ?? false
                work.run { try await store.favorite(slug, by: reader, !favorited) }
            }),
            store.changes.withLatestFrom(shown) { ($0, $1) }.subscribe(onNext: { change, slugs in
                switch change {
                case .user(let name) where name == username: profile.load { try await store.profile(username, reader: reader) }
                case .article, .favorite: loadList()
                case .everything:
                    profile.load { try await store.profile(username, reader: reader) }
                    loadList()
                default: _ = slugs
                }
            }))
        let path = "/profile/" + Slug.pathSegment(username)
        let listed = list.relay.asDriver()
        return Output(
            profile: profile.driver, found: profile.driver.map { $0 != nil }, mine: mine.driver,
            followLabel: profile.driver.map { ($0?.following ?? false ? "Unfollow " : "Follow ") + ($0?.username ?? "") },
            articles: listed.map { $0?.articles ?? [] }, pages: listed.map { $0?.pages ?? [] },
            empty: listed.map { $0 != nil && $0!.articles.isEmpty }, myArticlesPath: .just(path), favoritesPath: .just(path + "/favorites"),
            favoritesShown: .just(favorites), articlesShown: .just(!favorites), goTo: goTo.asSignal(), disposable: disposable)
    }
}

/// An article's page (`/article/:slug`): its body from Markdown, its author's
/// follow and its favorite, edit and delete for its author, and its comments,
/// live: a comment or a favorite anywhere shows at once.
final class ArticleViewModel: ViewModelBinding {
    struct Parameters: Decodable {
        let slug: String
    }

    struct Input: Decodable {
        let load: Observable<Void>
        let favorite: Observable<Void>
        let follow: Observable<Void>
        let delete: Observable<Void>
        let comment: Observable<String>
        let deleteComment: Observable<Int64>
    }

    struct Output {
        let article: Driver<Article?>
        let found: Driver<Bool>
        let favoriteLabel: Driver<String>
        let followLabel: Driver<String>
        let comments: Driver<KeyedList<Comment>>
        let signedIn: Driver<Bool>
        let readerImage: Driver<String>
        let errors: Driver<[String]>
        let goTo: Signal<String>
        let disposable: Disposable
    }

    let store: any ConduitStore
    let feeds: CommentFeeds
    let reader: String?
    let slug: String

    init(store: any ConduitStore, feeds: CommentFeeds, reader: String?, slug: String) {
        self.store = store
        self.feeds = feeds
        self.reader = reader
        self.slug = slug
    }

    func bind(_ input: Input) -> Output {
        let work = Work()
        let article = work.loaded(Article?.none)
        let readerImage = work.loaded("")
        let problems = BehaviorRelay<[String: String]>(value: [:])
        let goTo = PublishRelay<String>()
        let (store, feeds, reader, slug) = (store, feeds, reader, slug)
        func loadArticle() { article.load { try await store.article(slug, reader: reader) } }
        // Shared with every page of this article on this node, each reader's own rows derived.
        let feed = feeds.feed(slug)
        let comments = feed.relay.scan(nil) { (previous: (stored: KeyedList<StoredComment>, shown: KeyedList<Comment>)?, stored) in
            (stored, stored.shown(to: reader, after: previous))
        }.compactMap { $0?.shown }
        func loadComments() { work.run { try await feed.load() } }
        func load() {
            loadArticle()
            loadComments()
            if let reader {
                readerImage.load {
                    guard let name = try await store.settings(of: reader)?.username else { return "" }
                    return try await store.profile(name, reader: nil)?.image ?? ""
                }
            }
        }
        load()
        let disposable = Disposables.create(
            input.load.subscribe(onNext: load),
            input.favorite.withLatestFrom(article.relay).subscribe(onNext: { shown in
                guard let reader else { return goTo.accept("/register") }
                work.run { try await store.favorite(slug, by: reader, !(shown?.favorited ?? false)) }
            }),
            input.follow.withLatestFrom(article.relay).subscribe(onNext: { shown in
                guard let reader else { return goTo.accept("/register") }
                guard let author = shown?.author else { return }
                work.run { try await store.follow(author.username, by: reader, !author.following) }
            }),
            input.delete.subscribe(onNext: {
                guard let reader else { return goTo.accept("/login") }
                let browser = BrowserSignIn.take()
                work.run {
                    guard try await store.delete(slug, by: reader) else { throw BinderyError(.forbidden, "only its author deletes an article") }
                    browser?.go(to: "/")
                }
            }),
            input.comment.subscribe(onNext: { body in
                guard let reader else { return goTo.accept("/login") }
                work.run(problems) {
                    try await store.comment(on: slug, by: reader, body)
                    // Answered with the comment shown (other nodes' pages hear of it from the store).
                    try await feed.refresh()
                }
            }),
            input.deleteComment.subscribe(onNext: { id in
                guard let reader else { return goTo.accept("/login") }
                work.run {
                    try await store.deleteComment(id, on: slug, by: reader)
                    try await feed.refresh()
                }
            }),
            store.changes.subscribe(onNext: { change in
                switch change {
                case .article(let changed) where changed == slug: loadArticle()
                case .favorite(let changed) where changed == slug: loadArticle()
                case .user(let name) where name == article.relay.value?.author.username: loadArticle()
                case .everything: loadArticle()
                default: break
                }
            }))
        return Output(
            article: article.driver, found: article.driver.map { $0 != nil },
            favoriteLabel: article.driver.map { ($0?.favorited ?? false ? "Unfavorite Article" : "Favorite Article") },
            followLabel: article.driver.map { ($0?.author.following ?? false ? "Unfollow " : "Follow ") + ($0?.author.username ?? "") },
            comments: comments.asDriver(onErrorJustReturn: KeyedList()), signedIn: .just(reader != nil), readerImage: readerImage.driver,
            errors: problems.map { $0.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" } }.asDriver(onErrorJustReturn: []),
            goTo: goTo.asSignal(), disposable: disposable)
    }
}

/// The editor (`/editor`, `/editor/:slug`; signed in only): a new article, or
/// one of yours changed; published, the page goes to the article. The draft is
/// the session's, sent as it is typed and kept: a restart of the server in the
/// middle of writing finds it where it was.
final class EditorViewModel: ViewModelBinding {
    struct Parameters: Decodable {
        var slug: String?
    }

    /// What is being written, kept with the session; `loaded` once an article being edited was read in.
    struct Draft: Codable, Equatable, Sendable {
        var title = "", description = "", body = "", tags = ""
        var loaded = false
    }

    struct Input: Decodable {
        let load: Observable<Void>
        let title: Observable<String>
        let description: Observable<String>
        let body: Observable<String>
        let tags: Observable<String>
        /// A pill's ✕: the tag goes from the field.
        let removeTag: Observable<String>
        let publish: Observable<ArticleDraft>
    }

    /// A tag as a pill under the field.
    struct Pill: Codable, Equatable, Identifiable, Sendable {
        let tag: String
        var id: String { tag }
    }

    struct Output {
        let title: Driver<String>
        let description: Driver<String>
        let body: Driver<String>
        let tags: Driver<String>
        /// The field's tags as the article will have them.
        let tagList: Driver<[Pill]>
        let errors: Driver<[String]>
        let goTo: Signal<String>
        let disposable: Disposable
    }

    let store: any ConduitStore
    let author: String
    let slug: String?

    init(store: any ConduitStore, author: String, slug: String?) {
        self.store = store
        self.author = author
        self.slug = slug
    }

    func bind(_ input: Input) -> Output {
        let work = Work()
        let draft = SessionRelay(value: Draft())
        let problems = BehaviorRelay<[String: String]>(value: [:])
        let goTo = PublishRelay<String>()
        let (store, author, slug) = (store, author, slug)
        /// The article being edited, read in once (a kept draft is not read over).
        func load() {
            guard let slug, !draft.value.loaded else { return }
            work.run {
                guard let article = try await store.article(slug, reader: author), article.mine else {
                    throw BinderyError(.forbidden, "only its author edits an article")
                }
                draft.accept(
                    Draft(title: article.title, description: article.description, body: article.body, tags: article.tags.joined(separator: " "), loaded: true))
            }
        }
        load()
        func edit(_ change: @escaping (inout Draft, String) -> Void) -> (String) -> Void {
            { text in
                var next = draft.value
                change(&next, text)
                draft.accept(next)
            }
        }
        let disposable = Disposables.create(
            input.load.subscribe(onNext: load),
            input.title.subscribe(onNext: edit { $0.title = $1 }),
            input.description.subscribe(onNext: edit { $0.description = $1 }),
            input.body.subscribe(onNext: edit { $0.body = $1 }),
            input.tags.subscribe(onNext: edit { $0.tags = $1 }),
            input.removeTag.subscribe(onNext: edit { draft, removed in
                draft.tags = ArticleDraft.tags(in: draft.tags).filter { $0 != removed.lowercased() }.joined(separator: " ")
            }),
            input.publish.subscribe(onNext: { form in
                // The page goes to the article with the answer (not a signal that could race it).
                let browser = BrowserSignIn.take()
                work.run(problems) {
                    if let slug {
                        guard try await store.update(slug, by: author, form) else { throw BinderyError(.forbidden, "only its author edits an article") }
                        browser?.go(to: "/article/" + slug)
                    } else {
                        // Written first: `browser` is nil for a client that is not a browser (curl, a script).
                        let created = try await store.create(by: author, form)
                        browser?.go(to: "/article/" + created)
                    }
                    draft.accept(Draft(loaded: true))
                }
            }))
        let shown = draft.asDriver()
        return Output(
            title: shown.map(\.title), description: shown.map(\.description), body: shown.map(\.body), tags: shown.map(\.tags),
            tagList: shown.map { ArticleDraft.tags(in: $0.tags).map(Pill.init) },
            errors: problems.map { $0.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" } }.asDriver(onErrorJustReturn: []),
            goTo: goTo.asSignal(), disposable: disposable)
    }
}
