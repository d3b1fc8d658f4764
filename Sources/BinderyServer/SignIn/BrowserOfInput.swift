import Bindery
import Foundation

/// The browser an input came from, as its answer signs it in or out
/// (`BrowserSignIn`): the store written before the answer, the cookie set or
/// removed by the answer's headers.
struct BrowserOfInput: Sendable {
    /// The sign-in token the request came with, if any.
    let token: String?
    /// Who the request was from (for signing out everywhere).
    let identity: Identity?
    /// Whether the browser came over HTTPS (the cookie is then `__Host-` and `Secure`).
    let secure: Bool
    let signIns: SignIns?
    let application: Application
    let telemetry: Telemetry

    init(request: Request, signIns: SignIns?, application: Application, telemetry: Telemetry) {
        token = request.signInToken
        identity = request.identity
        secure = request.provenance.scheme == "https"
        self.signIns = signIns
        self.application = application
        self.telemetry = telemetry
    }

    /// Does `intent`; `done` gets the answer's headers, or why it could not be done (the input
    /// was applied, its sign-in not: a 503 says so, and the page may send it again).
    func apply(_ intent: BrowserIntent, done: @escaping @Sendable (Result<[(String, String)], BinderyError>) -> Void) {
        guard let signIns else {
            telemetry.logger.error("an input signs its browser in or out, but the app keeps no sign-ins (Application.keepSignIns)")
            return done(.failure(BinderyError(.viewModelFailed, "this server signs no one in")))
        }
        Task { [self] in
            do {
                switch intent {
                case .signIn(let identity):
                    let new = try await signIns.signIn(identity, replacing: token)
                    done(.success([signIns.cookie(new, secure: secure)]))
                case .signOut:
                    if let token { try await signIns.signOut(token) }
                    done(.success([SignIns.expiredCookie(secure: secure)]))
                case .signOutEverywhere:
                    if let identity {
                        try await signIns.signOutEverywhere(identity.id)
                        application.disposeSessions(ownedBy: identity.id)
                    } else if let token {
                        try await signIns.signOut(token)
                    }
                    done(.success([SignIns.expiredCookie(secure: secure)]))
                }
            } catch {
                telemetry.logger.error("signing a browser in or out failed", metadata: ["cause": "\(error)"])
                done(.failure(Self.failure(error, intent)))
            }
        }
    }

    /// How a sign-in or sign-out the store could not keep is answered: the store's
    /// failure (507 for a full disk, else 503), in words about the browser, not the
    /// input (which was applied: sending it again signs in or out again, no more).
    /// No cookie goes with it: the browser stays as it was.
    static func failure(_ error: Error, _ intent: BrowserIntent) -> BinderyError {
        let what = if case .signIn = intent { "signed in" } else { "signed out" }
        let full = (error as? BinderyError)?.code == .storageFull
        var failure = BinderyError(
            full ? .storageFull : .databaseUnavailable,
            full
                ? "the server's disk is full: this browser could not be \(what); send it again once there is space"
                : "this browser could not be \(what) now; send it again",
            cause: (error as? BinderyError)?.cause ?? "\(error)")
        failure.retryAfter = (error as? BinderyError)?.retryAfter
        return failure
    }
}
