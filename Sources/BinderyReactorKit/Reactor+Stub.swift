extension Reactor {
    /// Whether `action` and `state` are the stub's, for testing a view without the reactor's logic.
    public var isStubEnabled: Bool {
        get { storage.isStubbed }
        set { storage.isStubbed = newValue }
    }

    /// The stub: a state to set by hand and a record of the actions sent.
    public var stub: Stub<Self> { stub(in: storage) }

    func stub(in storage: ReactorStorage) -> Stub<Self> {
        storage.stub { Stub(reactor: self, disposeBag: storage.disposeBag) }
    }
}
