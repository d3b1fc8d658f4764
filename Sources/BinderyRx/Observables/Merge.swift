import Foundation

/// What the merge engine does with an inner sequence that arrives while others run.
enum MergeMode {
    /// Subscribe to every inner sequence at once (`flatMap`, `merge`).
    case all
    /// Run at most this many at once and queue the rest in order (`concatMap`, `merge(maxConcurrent:)`).
    case limited(Int)
    /// Ignore source elements while an inner sequence runs (`flatMapFirst`).
    case dropWhileBusy
}

/// The shared engine of `flatMap`, `flatMapFirst`, `concatMap` and `merge`:
/// maps source elements to inner sequences and forwards their elements. The
/// first error, from the source or any inner, ends it; it completes when the
/// source and every inner (queued ones included) have completed. A lock
/// serializes the inner sequences, which may deliver on different threads.
func mergeEngine<Source, Inner>(_ source: Observable<Source>, mode: MergeMode, _ selector: @escaping (Source) throws -> Observable<Inner>) -> Observable<Inner> {
    Observable { observer in
        let lock = NSRecursiveLock()
        let group = CompositeDisposable()
        var active = 0
        var queued: [Observable<Inner>] = []
        var sourceStopped = false

        func subscribeInner(_ inner: Observable<Inner>) {
            active += 1
            let subscription = SingleAssignmentDisposable()
            guard let key = group.insert(subscription) else { return }
            subscription.setDisposable(inner.subscribe { event in
                lock.withLock {
                    switch event {
                    case .next, .error: observer.on(event)
                    case .completed:
                        group.remove(for: key)
                        active -= 1
                        if !queued.isEmpty {
                            subscribeInner(queued.removeFirst())
                        } else if sourceStopped && active == 0 {
                            observer.on(.completed)
                        }
                    }
                }
            })
        }

        let sourceSubscription = SingleAssignmentDisposable()
        let sourceKey = group.insert(sourceSubscription)
        sourceSubscription.setDisposable(source.subscribe { event in
            lock.withLock {
                switch event {
                case .next(let element):
                    if case .dropWhileBusy = mode, active > 0 { return }
                    let inner: Observable<Inner>
                    do {
                        inner = try selector(element)
                    } catch {
                        observer.on(.error(error))
                        return
                    }
                    if case .limited(let maxConcurrent) = mode, active >= maxConcurrent {
                        queued.append(inner)
                    } else {
                        subscribeInner(inner)
                    }
                case .error(let error):
                    observer.on(.error(error))
                case .completed:
                    sourceStopped = true
                    if active == 0 {
                        observer.on(.completed)
                    } else if let sourceKey {
                        group.remove(for: sourceKey)
                    }
                }
            }
        })
        return group
    }
}

extension ObservableType {
    /// Emits the elements of every source as they come; the first error ends it, and it completes when all complete.
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Observable<Element> where Collection.Element == Observable<Element> {
        // Not `from`: its trampoline could put off subscribing to the sources.
        let all = Observable<Observable<Element>> { observer in
            for source in sources { observer.on(.next(source)) }
            observer.on(.completed)
            return Disposables.create()
        }
        return mergeEngine(all, mode: .all) { $0 }
    }

    /// Emits the elements of every source as they come; the first error ends it, and it completes when all complete.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        merge(sources[...])
    }

    /// Emits the elements of every source as they come; the first error ends it, and it completes when all complete.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        merge(sources)
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Emits the elements of every inner sequence as they come.
    public func merge() -> Observable<Element.Element> {
        mergeEngine(asObservable(), mode: .all) { $0.asObservable() }
    }

    /// Emits the elements of the inner sequences, running at most `maxConcurrent` at once and queueing the rest.
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        mergeEngine(asObservable(), mode: .limited(maxConcurrent)) { $0.asObservable() }
    }
}
