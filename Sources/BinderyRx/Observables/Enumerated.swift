extension ObservableType {
    /// Each element with its index, from 0.
    public func enumerated() -> Observable<(index: Int, element: Element)> {
        Observable { observer in
            var index = 0
            return self.subscribe { event in
                switch event {
                case .next(let element):
                    let (next, overflow) = index.addingReportingOverflow(1)
                    guard !overflow else { return observer.on(.error(RxError.overflow)) }
                    observer.on(.next((index: index, element: element)))
                    index = next
                case .error(let error): observer.on(.error(error))
                case .completed: observer.on(.completed)
                }
            }
        }
    }
}
