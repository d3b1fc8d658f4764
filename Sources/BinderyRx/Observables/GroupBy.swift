import Foundation

extension ObservableType {
    /// Splits the elements into groups by key: emits a `GroupedObservable` the first time a
    /// key appears, then sends each element to its group. The source's end, or a key selector
    /// error, ends every group and the outer sequence; the source stays subscribed while
    /// a group is, even after the outer subscription is disposed, as in RxSwift.
    public func groupBy<Key: Hashable>(keySelector: @escaping (Element) throws -> Key) -> Observable<GroupedObservable<Key, Element>> {
        Observable { observer in
            let subscription = SingleAssignmentDisposable()
            let refCount = RefCountDisposable(disposable: subscription)
            // Touched only by the source's serial deliveries.
            var groups: [Key: PublishSubject<Element>] = [:]
            func end(_ event: Event<GroupedObservable<Key, Element>>, groupEvent: Event<Element>) {
                for group in groups.values { group.on(groupEvent) }
                observer.on(event)
                subscription.dispose()
            }
            subscription.setDisposable(self.subscribe { event in
                switch event {
                case .next(let element):
                    let key: Key
                    do { key = try keySelector(element) } catch {
                        end(.error(error), groupEvent: .error(error))
                        return
                    }
                    if let group = groups[key] {
                        group.on(.next(element))
                        return
                    }
                    let group = PublishSubject<Element>()
                    groups[key] = group
                    let grouped = Observable<Element> { groupObserver in
                        Disposables.create(refCount.retain(), group.subscribe(groupObserver))
                    }
                    observer.on(.next(GroupedObservable(key: key, source: grouped)))
                    group.on(.next(element))
                case .error(let error): end(.error(error), groupEvent: .error(error))
                case .completed: end(.completed, groupEvent: .completed)
                }
            })
            return refCount
        }
    }
}
