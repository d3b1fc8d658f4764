extension ObservableType {
    /// Emits the last `count` elements once the source completes; an error is forwarded at once.
    public func takeLast(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "count can't be negative")
        return Observable { observer in
            var buffer: [Element] = []
            return self.subscribe { event in
                switch event {
                case .next(let element):
                    guard count > 0 else { return }
                    buffer.append(element)
                    if buffer.count > count { buffer.removeFirst() }
                case .error:
                    observer.on(event)
                case .completed:
                    for element in buffer { observer.on(.next(element)) }
                    observer.on(.completed)
                }
            }
        }
    }
}
