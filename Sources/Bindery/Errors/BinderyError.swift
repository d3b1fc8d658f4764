/// An error the runtime reports to a client: a stable code and a human message.
///
/// The code says which kind of failure it is; the server maps it to a status.
public struct BinderyError: Error, Equatable, CustomStringConvertible {
    /// A stable, machine-readable kind of failure.
    public struct Code: RawRepresentable, Hashable, Sendable {
        /// The code as it appears in JSON (`"error": "<code>"`).
        public let rawValue: String
        /// A code from its JSON spelling.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No such ViewModel.
        public static let unknownViewModel = Code(rawValue: "unknown_view_model")
        /// No such session (never existed, expired or disposed).
        public static let unknownSession = Code(rawValue: "unknown_session")
        /// No such input.
        public static let unknownInput = Code(rawValue: "unknown_input")
        /// No such output.
        public static let unknownOutput = Code(rawValue: "unknown_output")
        /// The body is not valid JSON.
        public static let malformedJSON = Code(rawValue: "malformed_json")
        /// The JSON does not have the expected shape.
        public static let invalidPayload = Code(rawValue: "invalid_payload")
        /// A configured limit was reached.
        public static let limitReached = Code(rawValue: "limit_reached")
        /// The client already has its most sessions (`maxSessionsPerClient`).
        public static let tooManySessions = Code(rawValue: "too_many_sessions")
        /// The ViewModel failed while being created.
        public static let viewModelFailed = Code(rawValue: "view_model_failed")
        /// The session store cannot be reached now; asking again may work.
        public static let storeUnavailable = Code(rawValue: "store_unavailable")
        /// The input was applied, but the work that holds its answer
        /// (`AnswerHold`) did not finish in time; sending it again would apply it twice.
        public static let answerTimeout = Code(rawValue: "answer_timeout")
        /// The input's write found the disk full: it was not applied, and may be sent again once there is space.
        public static let storageFull = Code(rawValue: "storage_full")
        /// The input's write could not reach its database (gone, restarting,
        /// failing): sending it again later may work; `applied` says whether it was applied.
        public static let databaseUnavailable = Code(rawValue: "database_unavailable")
        /// The key an input came with (`Idempotency-Key`) came before with another input or payload.
        public static let idempotencyKeyReused = Code(rawValue: "idempotency_key_reused")
        /// The ViewModel needs a signed-in identity and the request has none (401).
        public static let unauthenticated = Code(rawValue: "unauthenticated")
        /// The identity may not do this (403).
        public static let forbidden = Code(rawValue: "forbidden")
        /// Too many attempts of something that is limited (failed sign-ins): 429, with `retryAfter`.
        public static let tooManyAttempts = Code(rawValue: "too_many_attempts")
        /// A durable write found its input's receipt (`InputReceipt`) already
        /// stored: the input was applied before, and is answered as a repeat
        /// (never answered to a client).
        package static let alreadyApplied = Code(rawValue: "already_applied")
        /// The session was let go to its store as the request reached it: the
        /// request looks for it again (never answered to a client).
        package static let retired = Code(rawValue: "retired")
    }

    /// The kind of failure.
    public let code: Code
    /// What happened, for a person.
    public let message: String
    /// For an input's answer: whether the input was applied (`true`: sending it
    /// again would apply it twice; `false`: it may be sent again), or nil if
    /// that is not known or not the question.
    public var applied: Bool?
    /// What failed underneath (a database's own words), for the operator's
    /// log: never sent to a client.
    public var cause: String?
    /// For a limit (`tooManyAttempts`): seconds until asking again may succeed (`Retry-After`).
    public var retryAfter: Int?

    /// An error of kind `code` saying `message`; `applied` and `cause` as above.
    public init(_ code: Code, _ message: String, applied: Bool? = nil, cause: String? = nil) {
        self.code = code
        self.message = message
        self.applied = applied
        self.cause = cause
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
