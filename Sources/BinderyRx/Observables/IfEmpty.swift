extension ObservableType {
    /// Emits `default` before completing if the source completes without an element.
    public func ifEmpty(default: Element) -> Observable<Element> {
        Observable { observer in
            var isEmpty = true
            return self.subscribe { event in
                switch event {
                case .next:
                    isEmpty = false
                case .completed where isEmpty:
                    observer.on(.next(`default`))
                default:
                    break
                }
                observer.on(event)
            }
        }
    }

    /// Continues with `other` if the source completes without an element.
    public func ifEmpty(switchTo other: Observable<Element>) -> Observable<Element> {
        Observable { observer in
            var isEmpty = true
            let current = SerialDisposable()
            let source = SingleAssignmentDisposable()
            current.disposable = source
            source.setDisposable(self.subscribe { event in
                switch event {
                case .next:
                    isEmpty = false
                    observer.on(event)
                case .completed where isEmpty:
                    // The finished source goes first, as RxSwift's SwitchIfEmpty lets it go when it subscribes to `other`.
                    current.disposable = other.subscribe(observer)
                default:
                    observer.on(event)
                }
            })
            return current
        }
    }
}
