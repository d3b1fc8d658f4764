import Bindery
import BinderyAccounts
import BinderyDatabase
import BinderyPostgres
import Foundation

/// Conduit, RealWorld's Medium clone, as Bindery ViewModels: register them with
/// an app's `Application`, and serve the pages of `Sources/conduit/Public` at the spec's
/// paths (the `conduit` executable does both).
public enum Conduit {
    /// Registers Conduit's ViewModels; they ask `services` for the `ConduitStore` and the `Accounts`.
    public static func register(in application: Application) {
        application.register("nav", summary: "Every page's header: who is signed in.") { context in
            NavViewModel(store: try store(context), reader: context.identity?.id)
        }
        application.register("home", summary: "The global feed, your feed, a tag's articles; popular tags.") { context in
            HomeViewModel(store: try store(context), reader: context.identity?.id)
        }
        application.register("login", summary: "Sign in with an email and a password.") { context in
            AuthViewModel(
                mode: .signIn, store: try store(context), accounts: try accounts(context), client: context.client,
                next: try context.parameters(as: AuthViewModel.Parameters.self).next)
        }
        application.register("register", summary: "Sign up: a username, an email and a password.") { context in
            AuthViewModel(
                mode: .register, store: try store(context), accounts: try accounts(context), client: context.client,
                next: try context.parameters(as: AuthViewModel.Parameters.self).next)
        }
        application.register("settings", summary: "Your picture, name, bio and password; sign out.") { context in
            SettingsViewModel(store: try store(context), accounts: try accounts(context), identity: try context.requireIdentity())
        }
        application.register("profile", summary: "A user, their articles or their favorites; follow them.") { context in
            ProfileViewModel(
                store: try store(context), reader: context.identity?.id, parameters: try context.parameters(as: ProfileViewModel.Parameters.self))
        }
        application.register("article", summary: "An article, its comments, its favorite and its author's follow.") { context in
            ArticleViewModel(
                store: try store(context), feeds: try context.services.get(CommentFeeds.self), reader: context.identity?.id,
                slug: try context.parameters(as: ArticleViewModel.Parameters.self).slug)
        }
        application.register("editor", summary: "Write an article, or change one of yours.") { context in
            EditorViewModel(
                store: try store(context), author: try context.requireIdentity().id, slug: try context.parameters(as: EditorViewModel.Parameters.self).slug)
        }
    }

    private static func store(_ context: ViewModelContext) throws -> any ConduitStore { try context.services.get((any ConduitStore).self) }
    private static func accounts(_ context: ViewModelContext) throws -> Accounts { try context.services.get(Accounts.self) }

    /// Opens (or makes) Conduit's tables in the app's SQLite `database` and registers its store and accounts with `services`.
    public static func open(database: any DatabaseWriter, in services: Services) throws -> (any ConduitStore, Accounts) {
        let store = try SQLiteConduitStore(database: database)
        let accounts = try Accounts(database: database)
        services.register(store, as: (any ConduitStore).self)
        services.register(CommentFeeds(store: store))
        services.register(accounts)
        services.register(database, as: (any DatabaseWriter).self)
        return (store, accounts)
    }

    /// Opens (or makes) Conduit's tables in a cluster's PostgreSQL database at
    /// `url`, following the cluster's change log, and registers its store and
    /// accounts with `services`.
    public static func open(postgres url: String, changes: ChangeLog, in services: Services) throws -> (any ConduitStore, Accounts) {
        let store = try PostgresConduitStore(url: url, changes: changes)
        let accounts = try Accounts(store: PostgresAccountStore(url: url))
        services.register(store, as: (any ConduitStore).self)
        services.register(CommentFeeds(store: store))
        services.register(accounts)
        return (store, accounts)
    }
}
