extension ObservableType where Element: EventConvertible {
    /// Turns elements that are events back into the events they carry.
    public func dematerialize() -> Observable<Element.Element> {
        Observable { observer in
            self.subscribe { event in
                switch event {
                case .next(let element): observer.on(element.event)
                case .error(let error): observer.on(.error(error))
                case .completed: observer.on(.completed)
                }
            }
        }
    }
}
