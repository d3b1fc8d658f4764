/// A ViewModel that failed while it ran: it could not be made, an input's
/// work failed, or an output ended with an error. Reported to
/// `RuntimeConfiguration.reportsProblems` (a development server shows it in
/// the app's pages; the log has it either way).
public struct ViewModelProblem: Sendable, Equatable {
    /// The name the ViewModel is registered under (`counter`).
    public var viewModel: String
    /// Its Swift type, module-qualified (`Counter.CounterViewModel`), once made.
    public var type: String?
    /// The output that failed, for an output that ended with an error.
    public var output: String?
    /// What failed, in Bindery's words (`counter could not be created`).
    public var message: String
    /// The error itself, as Swift describes it (`Counter.CounterError.tooLarge`).
    public var cause: String

    public init(viewModel: String, type: String? = nil, output: String? = nil, message: String, cause: String) {
        self.viewModel = viewModel
        self.type = type
        self.output = output
        self.message = message
        self.cause = cause
    }
}
