import Bindery

/// Who this browser is, and signing it in or out (`BrowserSignIn`). A demo of the
/// mechanism: it signs in by a name alone, no password (an app's accounts check
/// one before they sign in). After signing in, the page goes to `next`, a path of
/// this site only.
final class SignInViewModel: ViewModelBinding {
    struct Parameters: Decodable {
        let next: String?
    }

    struct Input: Decodable {
        let signIn: Observable<String>
        let signOut: Observable<Void>
        let signOutEverywhere: Observable<Void>
    }

    struct Output {
        /// "Signed in as Ada", or "Not signed in".
        let who: Driver<String>
        let signedIn: Driver<Bool>
        /// What is wrong with the name, by field.
        let problems: Driver<[String: String]>
        /// Where the page goes once signed in (`data-navigate`).
        let goTo: Signal<String>
        let disposable: Disposable
    }

    let identity: Identity?
    let next: String

    init(identity: Identity?, next: String?) {
        self.identity = identity
        self.next = Self.sameSite(next)
    }

    /// `next` if it is a path of this site (`/me`, not `//evil.example`, `https://…` or `/\evil`); else `/`.
    static func sameSite(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\"),
            !next.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return "/" }
        return next
    }

    func bind(_ input: Input) -> Output {
        let name = BehaviorRelay<String?>(value: identity?.id)
        let problems = BehaviorRelay<[String: String]>(value: [:])
        let goTo = PublishRelay<String>()
        let signedIn = input.signIn.subscribe(onNext: { [next] text in
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard (1...40).contains(trimmed.count), trimmed.allSatisfy({ $0.isLetter || $0.isNumber || $0 == " " }) else {
                problems.accept(["name": "a name is 1 to 40 letters, digits or spaces"])
                return
            }
            BrowserSignIn.take()?.signIn(as: Identity(trimmed))
            problems.accept([:])
            name.accept(trimmed)
            goTo.accept(next)
        })
        let signedOut = input.signOut.subscribe(onNext: {
            BrowserSignIn.take()?.signOut()
            name.accept(nil)
        })
        let everywhere = input.signOutEverywhere.subscribe(onNext: {
            BrowserSignIn.take()?.signOutEverywhere()
            name.accept(nil)
        })
        return Output(
            who: name.map { $0.map { "Signed in as \($0)" } ?? "Not signed in" }.asDriver(onErrorJustReturn: ""),
            signedIn: name.map { $0 != nil }.asDriver(onErrorJustReturn: false), problems: problems.asDriver(), goTo: goTo.asSignal(),
            disposable: Disposables.create(signedIn, signedOut, everywhere))
    }
}

/// A page only for a signed-in browser (`app.page("/me", …, needsSignIn: true)`), and a
/// ViewModel only for a signed-in identity (`context.requireIdentity()`): who you are.
final class MeViewModel {
    let name: Driver<String>
    let greeting: Driver<String>

    init(identity: Identity) {
        name = .just(identity.id)
        greeting = .just("Hello, \(identity.id). Only you see this page.")
    }
}
