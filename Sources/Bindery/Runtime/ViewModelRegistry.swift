/// What ViewModels are registered with: `Application`, and `BinderyApp` in front
/// of it. Every `register` is an extension of this protocol over one requirement,
/// so that a module serving another shape (ReactorKit's reactors) adds its own
/// `register` beside them, and Swift picks the most specific for what the factory makes.
public protocol ViewModelRegistry {
    /// Registers a ViewModel of `type` under `name`, made per session by `make`:
    /// what every `register` comes down to.
    func register(
        _ name: String, type: Any.Type, shared: Bool, summary: String?, outputs: [String: OutputKind],
        makeAny make: @escaping @Sendable (ViewModelContext) throws -> Any)
}

extension ViewModelRegistry {
    /// Registers a ViewModel under `name`, made per session by `make`.
    ///
    /// - Parameters:
    ///   - name: The name in URLs (`/api/<name>`): letters, digits, `-` and `_`.
    ///   - shared: One session for every client instead of one per `POST`.
    ///   - summary: One sentence for the catalog: what the ViewModel is for.
    ///   - outputs: Properties that are outputs although their type reads as an
    ///     input (a `PublishSubject` a ViewModel emits on), with their kind.
    ///   - make: Creates the ViewModel; it runs in the new session's first turn.
    public func register<ViewModel>(
        _ name: String, shared: Bool = false, summary: String? = nil, outputs: [String: OutputKind] = [:],
        make: @escaping @Sendable (ViewModelContext) throws -> ViewModel
    ) {
        register(name, type: ViewModel.self, shared: shared, summary: summary, outputs: outputs, makeAny: make)
    }

    /// Registers a ViewModel that takes its inputs in `init` (RxExample's shape):
    /// Bindery makes `Input` (an `Observable`, `Signal` or `Driver`, a tuple of
    /// them, or a `Decodable` struct of them) with an input port for each,
    /// named after its tuple label or property, and passes it to `make`.
    ///
    /// ```swift
    /// app.register("signup") { context, input in
    ///     GithubSignupViewModel2(input: input, dependency: (API: api, validationService: validation, wireframe: wireframe))
    /// }
    /// ```
    ///
    /// An `Input` that cannot be made stops the app here, naming what is wrong.
    public func register<Input, ViewModel>(
        _ name: String, shared: Bool = false, summary: String? = nil, outputs: [String: OutputKind] = [:],
        make: @escaping @Sendable (ViewModelContext, Input) throws -> ViewModel
    ) {
        if let problem = InitInputs.problem(with: Input.self) { preconditionFailure("ViewModel '\(name)': \(problem)") }
        register(name, type: ViewModel.self, shared: shared, summary: summary, outputs: outputs) { context in
            let (input, ports) = try InitInputs.make(Input.self)
            return ViewModelGivenInputs(viewModel: try make(context, input), inputs: ports)
        }
    }

}

extension Application: ViewModelRegistry {}
