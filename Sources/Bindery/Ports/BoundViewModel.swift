/// A ViewModel instance with its inputs and outputs found: what a session runs.
///
/// Names come from Swift property names. For `ViewModelBinding`, the inputs are
/// the `Input` struct's properties and the outputs the `Output` struct's. For a
/// ViewModel with properties (RxMVVM style), subjects and relays are inputs and
/// `Driver`, `Signal`, `Observable`, `BehaviorRelay` and `SessionRelay` are outputs; inside a
/// property named `input(s)` everything is an input, inside `output(s)`
/// everything is an output (so `vm.input.x` and `vm.output.y` work as written).
/// The registration may name more outputs (`declaredOutputs`), for ViewModels
/// that emit on subjects.
struct BoundViewModel {
    /// The ViewModel, kept alive with the session.
    let instance: Any
    /// Inputs in declaration order.
    var inputs: [InputPort] = []
    /// Outputs in declaration order, with their kind.
    var outputs: [(name: String, port: OutputPort, kind: OutputKind)] = []
    /// Properties the registration names as outputs, with their kind.
    var declaredOutputs: [String: OutputKind] = [:]
    /// Subscriptions the ViewModel returned, disposed with the session.
    var disposables: [Disposable] = []

    /// Binds `viewModel` and finds its ports.
    static func bind(_ viewModel: Any, declaredOutputs: [String: OutputKind] = [:]) throws -> BoundViewModel {
        if let listed = viewModel as? ListedPorts {
            return BoundViewModel(
                instance: listed.viewModel, inputs: listed.inputs, outputs: listed.outputs.map { ($0.name, $0, $0.outputKind) },
                declaredOutputs: declaredOutputs, disposables: listed.disposables)
        }
        if let given = viewModel as? ViewModelGivenInputs {
            var bound = BoundViewModel(instance: given.viewModel, inputs: given.inputs, declaredOutputs: declaredOutputs)
            try bound.scanProperties(of: given.viewModel, role: .any, depth: 0)
            return bound
        }
        var bound = BoundViewModel(instance: viewModel)
        bound.declaredOutputs = declaredOutputs
        if let binding = viewModel as? any ViewModelBinding {
            let (output, inputs) = try bindAny(binding)
            bound.inputs = inputs
            bound.scan(output, role: .output, depth: 0)
        } else {
            try bound.scanProperties(of: viewModel, role: .any, depth: 0)
        }
        return bound
    }

    private static func bindAny<VM: ViewModelBinding>(_ viewModel: VM) throws -> (Any, [InputPort]) {
        let (input, ports) = try InputPortDecoder.build(VM.Input.self)
        return (viewModel.bind(input), ports)
    }

    private enum Role { case any, input, output }

    private mutating func scan(_ value: Any, role: Role, depth: Int) {
        try? scanProperties(of: value, role: role, depth: depth)
    }

    private mutating func scanProperties(of value: Any, role: Role, depth: Int) throws {
        var mirror: Mirror? = Mirror(reflecting: value)
        while let current = mirror {
            for child in current.children {
                guard let label = child.label.map(Self.propertyName) else { continue }
                try add(child.value, named: label, role: role, depth: depth)
            }
            mirror = current.superclassMirror
        }
    }

    private mutating func add(_ value: Any, named name: String, role: Role, depth: Int) throws {
        if let kind = declaredOutputs[name], let port = value as? OutputPort {
            outputs.append((name, port, kind))
            return
        }
        switch role {
        case .input:
            if let receiving = value as? InputReceiving { inputs.append(try receiving.makeInputPort(named: name)) }
        case .output:
            if let port = value as? OutputPort {
                outputs.append((name, port, port.outputKind))
            } else if let disposable = value as? Disposable {
                disposables.append(disposable)
            }
        case .any:
            if let port = value as? OutputPort, !(value is InputByDefault), !(value is KeptByDefault) {
                outputs.append((name, port, port.outputKind))
            } else if let receiving = value as? InputReceiving {
                inputs.append(try receiving.makeInputPort(named: name))
            } else if let disposable = value as? Disposable, !(value is DisposeBag) {
                disposables.append(disposable)
            } else if depth == 0, ["input", "inputs"].contains(name) {
                try scanProperties(of: value, role: .input, depth: depth + 1)
            } else if depth == 0, ["output", "outputs"].contains(name) {
                try scanProperties(of: value, role: .output, depth: depth + 1)
            }
        }
    }

    /// The property name behind a mirror label (`lazy` and property-wrapper storage included).
    private static func propertyName(_ label: String) -> String {
        if label.hasPrefix("$__lazy_storage_$_") { return String(label.dropFirst("$__lazy_storage_$_".count)) }
        if label.hasPrefix("_") { return String(label.dropFirst()) }
        return label
    }
}

/// Publish-style subjects and relays are inputs when they stand alone on a ViewModel.
protocol InputByDefault {}
extension PublishRelay: InputByDefault {}
extension PublishSubject: InputByDefault {}
extension BehaviorSubject: InputByDefault {}

/// Observables that a ViewModel more often keeps for itself than shows: standing alone on
/// a ViewModel they are neither inputs nor outputs (as before they were observables), but
/// inside `output(s)`, a binding's `Output` or the `outputs:` map they are outputs.
protocol KeptByDefault {}
extension ReplaySubject: KeptByDefault {}
extension AsyncSubject: KeptByDefault {}
extension ConnectableObservable: KeptByDefault {}
