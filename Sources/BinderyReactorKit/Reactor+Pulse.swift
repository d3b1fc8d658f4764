extension Reactor {
    /// The values assigned to a `@Pulse` property of the state, one per assignment:
    /// `reactor.pulse(\.$alertMessage)`.
    public func pulse<Result>(_ transformToPulse: @escaping (State) throws -> Pulse<Result>) -> Observable<Result> {
        state.map(transformToPulse).distinctUntilChanged { $0.valueUpdatedCount }.map { $0.value }
    }
}
