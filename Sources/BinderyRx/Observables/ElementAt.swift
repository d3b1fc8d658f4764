extension ObservableType {
    /// Emits the element at `index` (counting from 0), then completes; fails with
    /// `RxError.argumentOutOfRange` if the source completes before it.
    public func element(at index: Int) -> Observable<Element> {
        precondition(index >= 0, "index can't be negative")
        return Observable { observer in
            var remaining = index
            return self.subscribe { event in
                switch event {
                case .next:
                    if remaining == 0 {
                        observer.on(event)
                        observer.on(.completed)
                    }
                    remaining -= 1
                case .error:
                    observer.on(event)
                case .completed:
                    observer.on(.error(RxError.argumentOutOfRange))
                }
            }
        }
    }

    /// RxSwift 5's name of `element(at:)`, which RxSwift 6 still ships deprecated.
    @available(*, deprecated, renamed: "element(at:)")
    public func elementAt(_ index: Int) -> Observable<Element> { element(at: index) }
}
