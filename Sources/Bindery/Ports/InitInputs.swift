/// The inputs a ViewModel takes in its `init` (RxExample's and Kickstarter's shape):
/// one sequence, a tuple of them or a `Decodable` struct of them, made by Bindery
/// with a port for each, named after the tuple label or property.
enum InitInputs {
    /// A fresh `Input` and its ports, in declaration order.
    static func make<Input>(_ type: Input.Type) throws -> (Input, [InputPort]) {
        if let single = Input.self as? InputPortConvertible.Type {
            let made = try single.makeInputPort(named: "input")
            return (made.value as! Input, [made.port])
        }
        if let layout = TupleLayout(Input.self) {
            return try makeTuple(Input.self, layout)
        }
        if let decodable = Input.self as? any Decodable.Type {
            let (input, ports) = try InputPortDecoder.build(decodable)
            return (input as! Input, ports)
        }
        throw BinderyError(
            .viewModelFailed,
            "the inputs given to init are a \(Input.self); they must be an Observable, Signal or Driver, a tuple of them or a Decodable struct of them")
    }

    /// Why `Input` cannot be made, checked when the ViewModel is registered; nil if it can.
    static func problem<Input>(with type: Input.Type) -> String? {
        do {
            _ = try make(Input.self)
            return nil
        } catch let error as BinderyError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    private static func makeTuple<Input>(_ type: Input.Type, _ layout: TupleLayout) throws -> (Input, [InputPort]) {
        var made: [(value: Any, type: InputPortConvertible.Type, offset: Int)] = []
        var ports: [InputPort] = []
        for (index, element) in layout.elements.enumerated() {
            let name = element.label ?? "\(index)"
            guard let convertible = element.type as? InputPortConvertible.Type else {
                throw BinderyError(.viewModelFailed, "input '\(name)' given to init is a \(element.type); inputs must be Observable, Signal or Driver")
            }
            // What the metadata says must fit what Swift lays out, or nothing is written.
            precondition(
                element.offset >= 0 && element.offset + convertible.size <= MemoryLayout<Input>.size,
                "the layout read for \(Input.self) does not fit it: element \(index) at \(element.offset)")
            let (value, port) = try convertible.makeInputPort(named: name)
            made.append((value, convertible, element.offset))
            ports.append(port)
        }
        let storage = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<Input>.size, alignment: MemoryLayout<Input>.alignment)
        defer { storage.deallocate() }
        for element in made { element.type.initialize(storage + element.offset, with: element.value) }
        return (storage.bindMemory(to: Input.self, capacity: 1).move(), ports)
    }
}

/// A ViewModel made from inputs Bindery gave its `init`: the session's inputs are
/// those, and its outputs are found on the ViewModel as for any other.
struct ViewModelGivenInputs {
    let viewModel: Any
    let inputs: [InputPort]
}
