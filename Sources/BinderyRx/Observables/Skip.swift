extension ObservableType {
    /// Drops the first `count` elements.
    public func skip(_ count: Int) -> Observable<Element> {
        Observable { observer in
            var remaining = count
            return self.subscribe { event in
                if case .next = event, remaining > 0 {
                    remaining -= 1
                    return
                }
                observer.on(event)
            }
        }
    }
}
