import Bindery
import BinderyAccounts

/// Who this browser is: register an account, sign in with its password, sign out
/// here or everywhere (`BinderyAccounts`, `BrowserSignIn`). Once signed in, the
/// page goes to `next`, a path of this site only, as the answer says (`go(to:)`).
final class SignInViewModel: ViewModelBinding {
    struct Parameters: Decodable {
        let next: String?
    }

    struct Credentials: Decodable, Sendable {
        let login: String
        let password: String
    }

    struct Input: Decodable {
        let signIn: Observable<Credentials>
        let register: Observable<Credentials>
        let signOut: Observable<Void>
        let signOutEverywhere: Observable<Void>
    }

    struct Output {
        /// "Signed in as ada", or "Not signed in".
        let who: Driver<String>
        let signedIn: Driver<Bool>
        /// What is wrong with the sign-in form and the register form, by field.
        let problems: Driver<[String: String]>
        let registerProblems: Driver<[String: String]>
        let disposable: Disposable
    }

    /// The app's accounts; nil where it keeps none: the page says so.
    let accounts: Accounts?
    let identity: Identity?
    let next: String
    let client: String?

    init(accounts: Accounts?, identity: Identity?, next: String?, client: String?) {
        self.accounts = accounts
        self.identity = identity
        self.next = BrowserSignIn.pathOfThisSite(next) ?? "/"
        self.client = client
    }

    func bind(_ input: Input) -> Output {
        let login = BehaviorRelay<String?>(value: identity.map { $0.attributes["login"] ?? $0.id })
        let problems = BehaviorRelay<[String: String]>(value: [:])
        let registerProblems = BehaviorRelay<[String: String]>(value: [:])
        let (accounts, client, next) = (accounts, client, next)

        /// Checks `credentials` with `check` off the session's thread, holding the input's answer:
        /// signed in, or the reason at the form's fields, or 429 past the failed-attempt limits.
        func attempt(_ credentials: Credentials, into shown: BehaviorRelay<[String: String]>, _ check: @escaping @Sendable () async throws -> Identity) {
            guard accounts != nil else { return shown.accept(["login": "this server keeps no accounts"]) }
            let answer = AnswerHold.take()
            let browser = BrowserSignIn.take()
            Task {
                do {
                    let identity = try await check()
                    browser?.signIn(as: identity)
                    shown.accept([:])
                    login.accept(identity.attributes["login"] ?? identity.id)
                    browser?.go(to: next)  // with the answer, after its cookie
                    answer?.release()
                } catch let refusal as AccountError {
                    if let error = refusal.binderyError { return answer?.release(failing: error) ?? () }
                    let field = if case .invalidLogin = refusal { "login" } else if case .loginTaken = refusal { "login" } else { "password" }
                    shown.accept([field: refusal.description])
                    answer?.release()
                } catch {
                    answer?.release(failing: error)
                }
            }
        }
        let signedIn = input.signIn.subscribe(onNext: { credentials in
            attempt(credentials, into: problems) { try await accounts!.signIn(login: credentials.login, password: credentials.password, client: client) }
        })
        let registered = input.register.subscribe(onNext: { credentials in
            attempt(credentials, into: registerProblems) { try await accounts!.register(login: credentials.login, password: credentials.password) }
        })
        let signedOut = input.signOut.subscribe(onNext: {
            BrowserSignIn.take()?.signOut()
            login.accept(nil)
        })
        let everywhere = input.signOutEverywhere.subscribe(onNext: {
            BrowserSignIn.take()?.signOutEverywhere()
            login.accept(nil)
        })
        return Output(
            who: login.map { $0.map { "Signed in as \($0)" } ?? "Not signed in" }.asDriver(onErrorJustReturn: ""),
            signedIn: login.map { $0 != nil }.asDriver(onErrorJustReturn: false), problems: problems.asDriver(),
            registerProblems: registerProblems.asDriver(),
            disposable: Disposables.create(signedIn, registered, signedOut, everywhere))
    }
}

/// A page only for a signed-in browser (`app.page("/me", …, needsSignIn: true)`), and a
/// ViewModel only for a signed-in identity (`context.requireIdentity()`): who you are, a
/// new password, and tokens for scripts (`ScriptTokens`: `Authorization: Bearer`).
final class MeViewModel: ViewModelBinding {
    struct PasswordChange: Decodable, Sendable {
        let current: String
        let new: String
    }

    struct Input: Decodable {
        let changePassword: Observable<PasswordChange>
        /// A new token for a script, by its name.
        let makeToken: Observable<String>
        /// Revokes a token, by its id.
        let revokeToken: Observable<String>
    }

    struct Output {
        let name: Driver<String>
        let greeting: Driver<String>
        let problems: Driver<[String: String]>
        let message: Signal<String>
        /// The scripts' tokens, listed (never the tokens themselves).
        let tokens: Driver<[ScriptToken]>
        /// The token just made, shown once: "" otherwise.
        let newToken: Driver<String>
        let disposable: Disposable
    }

    let identity: Identity
    let accounts: Accounts
    let scripts: (any ScriptTokens)?
    let client: String?

    init(identity: Identity, accounts: Accounts, scripts: (any ScriptTokens)?, client: String?) {
        self.identity = identity
        self.accounts = accounts
        self.scripts = scripts
        self.client = client
    }

    func bind(_ input: Input) -> Output {
        let name = identity.attributes["login"] ?? identity.id
        let problems = BehaviorRelay<[String: String]>(value: [:])
        let message = PublishRelay<String>()
        let (identity, accounts, client) = (identity, accounts, client)
        let changed = input.changePassword.subscribe(onNext: { change in
            let answer = AnswerHold.take()
            Task {
                do {
                    try await accounts.changePassword(of: identity, from: change.current, to: change.new, client: client)
                    problems.accept([:])
                    message.accept("Your password is changed.")
                    answer?.release()
                } catch let refusal as AccountError {
                    if let error = refusal.binderyError { return answer?.release(failing: error) ?? () }
                    problems.accept([
                        refusal == .wrongLoginOrPassword ? "current" : "new": refusal == .wrongLoginOrPassword
                            ? "that is not your password" : refusal.description
                    ])
                    answer?.release()
                } catch {
                    answer?.release(failing: error)
                }
            }
        })
        let tokens = BehaviorRelay<[ScriptToken]>(value: [])
        let newToken = BehaviorRelay<String>(value: "")
        let scripts = scripts
        /// Runs `work` on the tokens off the session's thread, holding the answer, then lists them again.
        func onTokens(_ work: @escaping @Sendable (any ScriptTokens) async throws -> Void) {
            guard let scripts else { return problems.accept(["token-name": "this server makes no tokens"]) }
            let answer = AnswerHold.take()
            Task {
                do {
                    try await work(scripts)
                    tokens.accept(try await scripts.list(for: identity))
                    answer?.release()
                } catch {
                    answer?.release(failing: error)
                }
            }
        }
        onTokens { _ in }  // the list, as the page opens
        let made = input.makeToken.subscribe(onNext: { name in
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard (1...60).contains(trimmed.count) else { return problems.accept(["token-name": "a token's name is 1 to 60 characters"]) }
            problems.accept([:])
            onTokens { scripts in newToken.accept(try await scripts.make(for: identity, name: trimmed).token) }
        })
        let revoked = input.revokeToken.subscribe(onNext: { id in
            onTokens { scripts in
                _ = try await scripts.revoke(id, of: identity)
                newToken.accept("")
            }
        })
        return Output(
            name: .just(name), greeting: .just("Hello, \(name). Only you see this page."), problems: problems.asDriver(),
            message: message.asSignal(), tokens: tokens.asDriver(), newToken: newToken.asDriver(),
            disposable: Disposables.create(changed, made, revoked))
    }
}
