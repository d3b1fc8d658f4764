import Foundation

/// A ViewModel's inputs and outputs by name, for tools in this package (the
/// test store) that drive a ViewModel the way a session does, without a session.
package struct ViewModelPorts {
    private let bound: BoundViewModel

    /// Finds the ports of `viewModel` (binding it if it is a `ViewModelBinding`).
    package init(_ viewModel: Any, declaredOutputs: [String: OutputKind] = [:]) throws {
        bound = try BoundViewModel.bind(viewModel, declaredOutputs: declaredOutputs)
    }

    /// The inputs' names, in declaration order.
    package var inputNames: [String] { bound.inputs.map(\.name) }

    /// The outputs' names, in declaration order.
    package var outputNames: [String] { bound.outputs.map(\.name) }

    /// Sends a JSON payload to input `name`, as `POST …/inputs/<name>` does.
    package func send(_ name: String, payload: Data) throws {
        guard let port = bound.inputs.first(where: { $0.name == name }) else {
            throw BinderyError(.unknownInput, "no input '\(name)'; inputs: \(inputNames.joined(separator: ", "))")
        }
        try port.send(payload)
    }

    /// Subscribes to every output; each value arrives as its JSON (a ViewModel as
    /// `{"viewModel": "<type>"}`), in the order the ViewModel emits them.
    package func subscribe(_ onEvent: @escaping (_ name: String, _ kind: OutputKind, _ json: Data) -> Void) throws -> Disposable {
        var subscriptions: [Disposable] = []
        for output in bound.outputs {
            let name = output.name, kind = output.kind
            guard let encoding = OutputEncoding(output.port.elementType) else {
                throw BinderyError(.viewModelFailed, "output '\(name)' has element type \(output.port.elementType), which is neither Encodable nor a ViewModel")
            }
            subscriptions.append(output.port.subscribeValues(onNext: { value in
                switch encoding {
                case .json(let encode):
                    onEvent(name, kind, (try? encode(value)) ?? Data("\"<unencodable>\"".utf8))
                case .viewModel:
                    onEvent(name, kind, Data("{\"viewModel\":\"\(type(of: value))\"}".utf8))
                }
            }, onError: { _ in }))
        }
        return Disposables.create(subscriptions + bound.disposables)
    }
}
