extension ObservableType {
    /// Emits the first `count` elements, then completes.
    public func take(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "count can't be negative")
        if count == 0 { return .empty() }
        return Observable { observer in
            var remaining = count
            return self.subscribe { event in
                guard case .next = event else { return observer.on(event) }
                // Counted before forwarding: an observer that sends back into the source
                // re-enters here, and must find the count already spent.
                guard remaining > 0 else { return }
                remaining -= 1
                observer.on(event)
                if remaining == 0 { observer.on(.completed) }
            }
        }
    }
}
