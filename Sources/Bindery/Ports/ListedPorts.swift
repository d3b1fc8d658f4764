/// A ViewModel whose ports are listed rather than found on its properties: what
/// a module that serves another architecture (ReactorKit's reactors: actions in,
/// state out) hands the runtime from its factory.
package struct ListedPorts {
    /// One output: its name, kind, element type and how to subscribe to its values.
    package struct Output: OutputPort {
        let name: String
        let outputKind: OutputKind
        let elementType: Any.Type
        private let subscribe: (@escaping (Any) -> Void, @escaping (Error) -> Void) -> Disposable

        /// The output `name`, a driver by default, whose values `values` gives.
        package init<Element>(name: String, kind: OutputKind = .driver, _ values: Observable<Element>) {
            self.name = name
            outputKind = kind
            elementType = Element.self
            subscribe = { onNext, onError in values.subscribe(onNext: { onNext($0) }, onError: onError) }
        }

        /// An output whose element type is known only when the program runs
        /// (a field of a state read through `Mirror`): `values` carry it as `Any`.
        package init(name: String, kind: OutputKind = .driver, elementType: Any.Type, _ values: Observable<Any>) {
            self.name = name
            outputKind = kind
            self.elementType = elementType
            subscribe = { onNext, onError in values.subscribe(onNext: onNext, onError: onError) }
        }

        func subscribeValues(onNext: @escaping (Any) -> Void, onError: @escaping (Error) -> Void) -> Disposable {
            subscribe(onNext, onError)
        }
    }

    /// The object kept alive as long as the session.
    package let viewModel: Any
    /// The inputs, in order.
    package var inputs: [InputPort]
    /// The outputs, in order.
    package var outputs: [Output]
    /// What lives as long as the session and is disposed with it.
    package var disposables: [Disposable]

    /// Ports of `viewModel`, kept alive as long as the session.
    package init(viewModel: Any, inputs: [InputPort], outputs: [Output], disposables: [Disposable] = []) {
        self.viewModel = viewModel
        self.inputs = inputs
        self.outputs = outputs
        self.disposables = disposables
    }
}
