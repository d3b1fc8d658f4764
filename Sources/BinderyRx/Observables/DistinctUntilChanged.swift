extension ObservableType {
    /// Drops elements equal to the one before, as decided by `comparer`.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: comparer)
    }

    /// Drops elements whose key equals the previous element's key.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Observable<Element> {
        distinctUntilChanged(keySelector, comparer: ==)
    }

    /// Drops elements whose value at `keyPath` equals the previous element's.
    public func distinctUntilChanged<Key: Equatable>(at keyPath: KeyPath<Element, Key>) -> Observable<Element> {
        distinctUntilChanged { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
    }

    /// Drops elements whose key equals the previous key, as decided by `comparer`.
    public func distinctUntilChanged<Key>(_ keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool) -> Observable<Element> {
        Observable { observer in
            var previous: Key?
            return self.subscribe { event in
                guard case .next(let value) = event else { return observer.on(event) }
                do {
                    let key = try keySelector(value)
                    if let previous, try comparer(previous, key) { return }
                    previous = key
                    observer.on(event)
                } catch {
                    observer.on(.error(error))
                }
            }
        }
    }
}

extension ObservableType where Element: Equatable {
    /// Drops elements equal to the one before.
    public func distinctUntilChanged() -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: ==)
    }
}
