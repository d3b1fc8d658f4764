import Foundation

/// The browser that sent the input being applied, to sign it in or out. Take it
/// in the input's turn, as `AnswerHold`; call it then, or from work that holds
/// the answer (a password checked on another thread), before releasing:
///
/// ```swift
/// input.signIn.subscribe(onNext: { form in
///     let answer = AnswerHold.take()
///     let browser = BrowserSignIn.take()
///     accounts.verify(form) { result in
///         if case .success(let user) = result { browser?.signIn(as: Identity(user.id)) }
///         answer?.release(result)
///     }
/// })
/// ```
///
/// The server does it as it answers the input: `signIn` issues a new sign-in
/// token in the browser's cookie (any token it had goes: no fixation), stored
/// hashed in the app's database before the answer says 200; `signOut` deletes
/// the browser's token; `signOutEverywhere` deletes every token of the
/// identity signed in and ends its sessions, in every browser. The input's
/// answer is where it happens, so an input sent without a browser (curl) signs
/// nothing in. The last call of an input wins. Outside an input's turn `take()`
/// is nil. Needs the app's sign-ins kept (`Application.keepSignIns(in:)`).
public final class BrowserSignIn: Sendable {
    private let intents: BrowserIntents

    private init(_ intents: BrowserIntents) { self.intents = intents }

    /// The browser of the input applied on this thread now; nil outside an input's turn.
    public static func take() -> BrowserSignIn? {
        guard let turn = InputTurn.current, let intents = turn.browser else { return nil }
        return BrowserSignIn(intents)
    }

    /// Signs the browser in as `identity` (its `attributes` kept with the sign-in).
    public func signIn(as identity: Identity) { intents.set(.signIn(identity)) }

    /// Signs the browser out: its token is deleted.
    public func signOut() { intents.set(.signOut) }

    /// Signs out every browser signed in as the identity this one is signed in as,
    /// and ends that identity's sessions (their streams get `bindery.end`).
    public func signOutEverywhere() { intents.set(.signOutEverywhere) }

    /// Sends the page to `path` (a path of this site: `/`, `/me`) once the input is
    /// answered: the answer says so (`Bindery-Location`), after the cookie it sets,
    /// rather than a navigation signal, which a page whose sessions the sign-out
    /// just closed to it might never get. Any input may: an editor's publish goes
    /// to the article it made this way. Anything but a path of this site is ignored.
    public func go(to path: String) {
        guard let path = Self.pathOfThisSite(path) else { return }
        intents.go(to: path)
    }

    /// `path` if it is a path of this site (`/me`, `/todos/groceries#list`), else nil: not
    /// another site's (`//evil.example`, `https://…`, `/\evil.example`, which browsers read
    /// as `//`), nor one with a space or a control character. What `go(to:)` accepts, and
    /// what a sign-in page may send a browser on to (its `?next=`, else `/`):
    ///
    /// ```swift
    /// self.next = BrowserSignIn.pathOfThisSite(next) ?? "/"
    /// ```
    public static func pathOfThisSite(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("\\"),
            !path.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F })
        else { return nil }
        return path
    }
}

/// What an input asked of its browser (`BrowserSignIn`), for the server to do as it answers.
package enum BrowserIntent: Sendable, Equatable {
    case signIn(Identity)
    case signOut
    case signOutEverywhere
}

/// One input's `BrowserIntent`, and where its page goes after the answer, set from its turn or its held work.
package final class BrowserIntents: Sendable {
    /// A struct, not a tuple: a generic lock over a tuple costs its metadata's lookups on every input.
    package struct Answer: Sendable {
        package var intent: BrowserIntent?
        package var location: String?
    }

    private let state = Locked(Answer())
    package init() {}
    func set(_ value: BrowserIntent) { state.withLock { $0.intent = value } }
    func go(to path: String) { state.withLock { $0.location = path } }
    package var value: BrowserIntent? { state.withLock { $0.intent } }
    /// Both, read at once, for the input's answer.
    package var answer: Answer { state.withLock { $0 } }
}
