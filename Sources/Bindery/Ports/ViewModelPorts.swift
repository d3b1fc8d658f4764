import Foundation

/// A ViewModel's inputs and outputs by name, for tools in this package (the
/// test store) that drive a ViewModel the way a session does, without a session.
package struct ViewModelPorts {
    private let bound: BoundViewModel
    /// The ViewModel's type, as Swift names it (`Counter.CounterViewModel`).
    package let viewModelType: String

    /// Finds the ports of `viewModel` (binding it if it is a `ViewModelBinding`).
    package init(_ viewModel: Any, declaredOutputs: [String: OutputKind] = [:]) throws {
        bound = try BoundViewModel.bind(viewModel, declaredOutputs: declaredOutputs)
        viewModelType = String(reflecting: type(of: (viewModel as? ViewModelGivenInputs)?.viewModel ?? viewModel))
    }

    /// What `make` builds from inputs Bindery makes (a ViewModel that takes its
    /// inputs in `init`), to hand to `init(_:declaredOutputs:)`.
    package static func givingInputs<Input>(_ make: (Input) throws -> Any) throws -> Any {
        let (input, ports) = try InitInputs.make(Input.self)
        return ViewModelGivenInputs(viewModel: try make(input), inputs: ports)
    }

    /// The inputs' names, in declaration order.
    var inputNames: [String] { bound.inputs.map(\.name) }

    /// The outputs' names, in declaration order.
    var outputNames: [String] { bound.outputs.map(\.name) }

    /// Sends a JSON payload to input `name`, as `POST …/inputs/<name>` does.
    package func send(_ name: String, payload: Data) throws {
        guard let port = bound.inputs.first(where: { $0.name == name }) else {
            throw BinderyError(.unknownInput, "no input '\(name)'; inputs: \(inputNames.joined(separator: ", "))")
        }
        try port.send(payload)
    }

    /// One output value as it leaves the ViewModel.
    package enum Value {
        /// An `Encodable` (or `Void`) value as compact JSON.
        case json(Data)
        /// A ViewModel emitted for navigation.
        case viewModel(AnyObject)
        /// A value sent as its changes where it can be (a `KeyedList`).
        case changing(any ChangingValue)
    }

    /// Disposes what the ViewModel asked to live as long as it, for ports
    /// never subscribed to (a ViewModel made and then set aside).
    package func discard() {
        bound.disposables.forEach { $0.dispose() }
    }

    /// The kind of output `name`, if there is one.
    package func kind(of name: String) -> OutputKind? {
        bound.outputs.first { $0.name == name }?.kind
    }

    /// Subscribes to every output, in declaration order; `onError` hears of an
    /// output that failed or a value that could not be encoded. The returned
    /// disposable also ends what the ViewModel asked to live as long as it.
    package func subscribe(
        _ onValue: @escaping (_ name: String, _ kind: OutputKind, _ value: Value) -> Void,
        onError: @escaping (_ name: String, _ error: Error) -> Void = { _, _ in }
    ) throws -> Disposable {
        var subscriptions: [Disposable] = []
        for output in bound.outputs {
            let name = output.name, kind = output.kind
            guard let encoding = OutputEncoding(output.port.elementType) else {
                subscriptions.forEach { $0.dispose() }
                bound.disposables.forEach { $0.dispose() }
                throw BinderyError(.viewModelFailed, "output '\(name)' has element type \(output.port.elementType), which is neither Encodable nor a ViewModel")
            }
            subscriptions.append(
                output.port.subscribeValues(
                    onNext: { value in
                        switch encoding {
                        case .json(let encode):
                            do { onValue(name, kind, .json(try encode(value))) } catch { onError(name, error) }
                        case .viewModel:
                            onValue(name, kind, .viewModel(value as AnyObject))
                        case .changing:
                            onValue(name, kind, .changing(value as! any ChangingValue))
                        }
                    }, onError: { error in onError(name, error) }))
        }
        return Disposables.create(subscriptions + bound.disposables)
    }
}
