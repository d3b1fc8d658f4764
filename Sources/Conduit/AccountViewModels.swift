import Bindery
import BinderyAccounts
import Foundation

/// The header of every page (`nav`): who is signed in, and their links.
final class NavViewModel: ViewModelBinding {
    struct Input: Decodable {
        let load: Observable<Void>
    }

    struct Output {
        let signedIn: Driver<Bool>
        let username: Driver<String>
        let image: Driver<String>
        let profilePath: Driver<String>
        let disposable: Disposable
    }

    struct Me: Codable, Equatable, Sendable {
        var username = "", image = "", path = ""
    }

    let store: any ConduitStore
    let reader: String?

    init(store: any ConduitStore, reader: String?) {
        self.store = store
        self.reader = reader
    }

    func bind(_ input: Input) -> Output {
        let work = Work()
        let me = work.loaded(Me())
        let (store, reader) = (store, reader)
        func load() {
            guard let reader else { return }
            me.load {
                guard let settings = try await store.settings(of: reader) else { return Me() }
                let profile = try await store.profile(settings.username, reader: reader)
                return Me(username: settings.username, image: profile?.image ?? "", path: profile?.path ?? "")
            }
        }
        load()
        let loads = input.load.subscribe(onNext: load)
        let changes = store.changes.subscribe(onNext: { change in
            switch change {
            case .user(let name) where name == me.relay.value.username: load()
            case .everything: load()
            default: break
            }
        })
        // Each says only what changed: a rename is told twice (the old name, the new), and a reload
        // that reads the same again says nothing.
        func shown(_ field: KeyPath<Me, String>) -> Driver<String> { me.driver.map { $0[keyPath: field] }.distinctUntilChanged() }
        return Output(
            signedIn: .just(reader != nil), username: shown(\.username), image: shown(\.image), profilePath: shown(\.path),
            disposable: Disposables.create(loads, changes))
    }
}

/// The sign-in page (`/login`) and the sign-up page (`/register`): an account of
/// `BinderyAccounts` (its login the email) and a profile of the store's; the
/// browser signed in, then home.
final class AuthViewModel: ViewModelBinding {
    enum Mode: Sendable { case signIn, register }

    struct Parameters: Decodable {
        var next: String?
    }

    struct Form: Decodable, Sendable {
        var username: String?
        let email: String
        let password: String
    }

    struct Input: Decodable {
        let submit: Observable<Form>
    }

    struct Output {
        /// The spec's `.error-messages`: "email or password is invalid".
        let errors: Driver<[String]>
        let disposable: Disposable
    }

    let mode: Mode
    let store: any ConduitStore
    let accounts: Accounts
    let client: String?
    /// Where the page goes once signed in: a path of this site, else home.
    let next: String

    init(mode: Mode, store: any ConduitStore, accounts: Accounts, client: String?, next: String?) {
        self.next = BrowserSignIn.pathOfThisSite(next) ?? "/"
        self.mode = mode
        self.store = store
        self.accounts = accounts
        self.client = client
    }

    func bind(_ input: Input) -> Output {
        let work = Work()
        let problems = BehaviorRelay<[String: String]>(value: [:])
        let (mode, store, accounts, client, next) = (mode, store, accounts, client, next)
        let submitted = input.submit.subscribe(onNext: { form in
            let browser = BrowserSignIn.take()
            work.run(problems) {
                let identity: Identity
                switch mode {
                case .signIn:
                    do {
                        identity = try await accounts.signIn(login: form.email, password: form.password, client: client)
                    } catch AccountError.wrongLoginOrPassword {
                        throw ConduitError("email or password", "is invalid")
                    }
                case .register:
                    let username = (form.username ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                    guard (1...40).contains(username.count), !username.contains(where: { $0.isWhitespace || $0 == "/" }) else {
                        throw ConduitError("username", "is 1 to 40 characters, without spaces or /")
                    }
                    guard try await store.isFree(username: username) else { throw ConduitError("username", "has already been taken") }
                    do {
                        identity = try await accounts.register(login: form.email, password: form.password)
                    } catch AccountError.loginTaken {
                        throw ConduitError("email", "has already been taken")
                    } catch AccountError.invalidLogin {
                        throw ConduitError("email", "is 3 to 64 characters")
                    }
                    try await store.addUser(id: identity.id, username: username, email: Accounts.normalized(form.email))
                }
                browser?.signIn(as: identity)
                browser?.go(to: next)
            }
        })
        return Output(
            errors: problems.map { $0.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" } }.asDriver(onErrorJustReturn: []),
            disposable: submitted)
    }
}

/// Your settings (`/settings`, signed in only): picture, username, bio, a new
/// password; and signing out.
final class SettingsViewModel: ViewModelBinding {
    struct Form: Decodable, Sendable {
        let image: String
        let username: String
        let bio: String
        let email: String?
        let password: String?
    }

    struct Input: Decodable {
        let load: Observable<Void>
        let update: Observable<Form>
        let signOut: Observable<Void>
    }

    struct Output {
        let image: Driver<String>
        let username: Driver<String>
        let bio: Driver<String>
        let email: Driver<String>
        let errors: Driver<[String]>
        let goTo: Signal<String>
        let disposable: Disposable
    }

    struct Settings: Codable, Equatable, Sendable {
        var image = "", username = "", bio = "", email = ""
    }

    let store: any ConduitStore
    let accounts: Accounts
    let identity: Identity

    init(store: any ConduitStore, accounts: Accounts, identity: Identity) {
        self.store = store
        self.accounts = accounts
        self.identity = identity
    }

    func bind(_ input: Input) -> Output {
        let work = Work()
        let settings = work.loaded(Settings())
        let problems = BehaviorRelay<[String: String]>(value: [:])
        let goTo = PublishRelay<String>()
        let (store, accounts, identity) = (store, accounts, identity)
        func load() {
            settings.load {
                guard let found = try await store.settings(of: identity.id) else { return Settings() }
                return Settings(image: found.image, username: found.username, bio: found.bio, email: found.email)
            }
        }
        load()
        let loads = input.load.subscribe(onNext: load)
        let updates = input.update.subscribe(onNext: { form in
            let browser = BrowserSignIn.take()
            work.run(problems) {
                let username = form.username.trimmingCharacters(in: .whitespacesAndNewlines)
                guard (1...40).contains(username.count), !username.contains(where: { $0.isWhitespace || $0 == "/" }) else {
                    throw ConduitError("username", "is 1 to 40 characters, without spaces or /")
                }
                let image = form.image.trimmingCharacters(in: .whitespacesAndNewlines)
                guard image.isEmpty || image.hasPrefix("https://") || image.hasPrefix("http://") || image.hasPrefix("/") else {
                    throw ConduitError("image", "is a URL (https://…)")
                }
                guard form.bio.count <= 2_000, image.count <= 2_000 else { throw ConduitError("bio", "is too long") }
                if let password = form.password, !password.isEmpty { try await accounts.setPassword(of: identity, to: password) }
                try await store.update(user: identity.id, username: username, bio: form.bio, image: image)
                browser?.go(to: "/profile/" + Slug.pathSegment(username))
            }
        })
        let signedOut = input.signOut.subscribe(onNext: {
            // The page goes home with the answer that signs it out: this page's session is the
            // identity's, closed to the browser from then on, so a signal might never reach it.
            let browser = BrowserSignIn.take()
            browser?.signOut()
            browser?.go(to: "/")
        })
        return Output(
            image: settings.driver.map(\.image), username: settings.driver.map(\.username), bio: settings.driver.map(\.bio),
            email: settings.driver.map(\.email),
            errors: problems.map { $0.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" } }.asDriver(onErrorJustReturn: []),
            goTo: goTo.asSignal(), disposable: Disposables.create(loads, updates, signedOut))
    }
}
