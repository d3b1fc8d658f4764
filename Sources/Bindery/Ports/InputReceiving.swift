/// A ViewModel property that takes inputs (RxMVVM style): the runtime sends decoded payloads into it.
protocol InputReceiving {
    /// A port named `name` that sends into this property.
    func makeInputPort(named name: String) throws -> InputPort
}

extension PublishSubject: InputReceiving {
    func makeInputPort(named name: String) throws -> InputPort {
        try InputPort(name: name, Element.self, deliver: onNext)
    }
}

extension BehaviorSubject: InputReceiving {
    func makeInputPort(named name: String) throws -> InputPort {
        try InputPort(name: name, Element.self, deliver: onNext)
    }
}

extension PublishRelay: InputReceiving {
    func makeInputPort(named name: String) throws -> InputPort {
        try InputPort(name: name, Element.self, deliver: accept)
    }
}

extension BehaviorRelay: InputReceiving {
    func makeInputPort(named name: String) throws -> InputPort {
        try InputPort(name: name, Element.self, deliver: accept)
    }
}

extension SessionRelay: InputReceiving {
    func makeInputPort(named name: String) throws -> InputPort {
        try InputPort(name: name, Element.self, deliver: accept)
    }
}

extension AnyObserver: InputReceiving {
    func makeInputPort(named name: String) throws -> InputPort {
        try InputPort(name: name, Element.self, deliver: onNext)
    }
}
