import Foundation

/// Every registered ViewModel with its inputs and outputs: what `GET /api` returns.
package struct Catalog: Codable, Sendable {
    /// One ViewModel.
    package struct Entry: Codable, Sendable {
        /// The registered name.
        package let name: String
        /// Whether all clients share one session.
        package let shared: Bool
        /// What the ViewModel is for, if the registration says.
        package let summary: String?
        /// The inputs, in declaration order.
        package let inputs: [Input]
        /// The outputs, in declaration order.
        package let outputs: [Output]
        /// Why the ports could not be listed, if they could not.
        package let problem: String?
        /// Whether the problem is the ViewModel's shape (a port whose type cannot
        /// be served), which no parameters can mend: such an app does not start.
        package var isMisshapen = false

        private enum CodingKeys: String, CodingKey { case name, shared, summary, inputs, outputs, problem }
    }

    /// One input.
    package struct Input: Codable, Sendable {
        /// The input's name.
        package let name: String
        /// The JSON schema of its payload.
        package let schema: JSONValue
    }

    /// One output.
    package struct Output: Codable, Sendable {
        /// The output's name.
        package let name: String
        /// `driver` (state) or `signal` (event).
        package let kind: OutputKind
        /// The JSON schema of its values.
        package let schema: JSONValue
    }

    /// The ViewModels, in registration order.
    package let viewModels: [Entry]

    /// The catalog as JSON.
    package var json: Data { (try? JSONEncoder.bindery.encode(self)) ?? Data("{}".utf8) }
}

extension Catalog.Entry {
    /// Lists the ports by making one instance with empty parameters; call it in
    /// a scheduler's turn, so the ViewModel's drivers have a scheduler to share on.
    init(probing definition: ViewModelDefinition, services: Services, nameOf: (Any.Type) -> String?) {
        name = definition.name
        shared = definition.isShared
        summary = definition.summary
        let viewModel: Any
        do {
            viewModel = try definition.make(ViewModelContext(sessionID: "catalog", parameters: Data(), services: services))
        } catch {
            // A factory may need parameters or a service the probe does not give: listed, not fatal.
            (inputs, outputs, problem) = ([], [], "\(error)")
            return
        }
        do {
            let bound = try BoundViewModel.bind(viewModel, declaredOutputs: definition.declaredOutputs)
            defer { bound.disposables.forEach { $0.dispose() } }
            if let output = bound.outputs.first(where: { OutputEncoding($0.port.elementType) == nil }) {
                throw BinderyError(
                    .viewModelFailed, "output '\(output.name)' has element type \(output.port.elementType), which is neither Encodable nor a ViewModel")
            }
            inputs = bound.inputs.map { Catalog.Input(name: $0.name, schema: JSONSchema.of($0.elementType)) }
            outputs = bound.outputs.map { output in
                let type = output.port.elementType
                guard case .viewModel? = OutputEncoding(type) else {
                    return Catalog.Output(name: output.name, kind: output.kind, schema: JSONSchema.of(type))
                }
                return Catalog.Output(name: output.name, kind: output.kind, schema: JSONSchema.childSession(nameOf(type)))
            }
            problem = nil
        } catch {
            (inputs, outputs, problem) = ([], [], (error as? BinderyError)?.message ?? "\(error)")
            isMisshapen = true
        }
    }
}
