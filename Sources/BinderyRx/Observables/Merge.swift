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
/// source and every inner (queued ones included) have completed.
func mergeEngine<Source, Inner>(_ source: Observable<Source>, mode: MergeMode, _ selector: @escaping (Source) throws -> Observable<Inner>) -> Observable<Inner> {
    Observable { observer in MergeSink(observer: observer, mode: mode, selector: selector).run(source) }
}

/// One subscription of the merge engine. As RxSwift's MergeSink, it has two locks: one
/// guards the counts and is never held while calling out, the other serializes what goes
/// downstream (inners may deliver on different threads) and is held only for that.
/// Subscribing to an inner and tearing one down happen under neither: the inner may take
/// a lock that another thread holds while it waits to send through this merge (RxSwift's
/// #1344 and #2711).
private final class MergeSink<Source, Inner>: @unchecked Sendable {
    private let observer: AnyObserver<Inner>
    private let mode: MergeMode
    private let selector: (Source) throws -> Observable<Inner>
    private let lock = NSLock()
    private let forwardLock = NSRecursiveLock()
    private let group = CompositeDisposable()
    private var active = 0
    private var queued: [Observable<Inner>] = []
    private var sourceStopped = false
    private var terminated = false

    init(observer: AnyObserver<Inner>, mode: MergeMode, selector: @escaping (Source) throws -> Observable<Inner>) {
        self.observer = observer
        self.mode = mode
        self.selector = selector
    }

    func run(_ source: Observable<Source>) -> Disposable {
        let sourceSubscription = SingleAssignmentDisposable()
        let sourceKey = group.insert(sourceSubscription)
        sourceSubscription.setDisposable(source.subscribe { [self] event in
            switch event {
            case .next(let element): next(element)
            case .error(let error): terminate(.error(error))
            case .completed:
                let complete = lock.withLock { () -> Bool in
                    sourceStopped = true
                    return active == 0 && !terminated
                }
                if complete {
                    terminate(.completed)
                } else if let sourceKey {
                    group.remove(for: sourceKey)
                }
            }
        })
        return group
    }

    private func next(_ element: Source) {
        // Counted before the selector runs, so that `flatMapFirst` is busy from here on.
        let accepted = lock.withLock { () -> Bool in
            if terminated { return false }
            switch mode {
            case .all: active += 1
            case .dropWhileBusy:
                if active > 0 { return false }
                active += 1
            case .limited: break
            }
            return true
        }
        guard accepted else { return }
        let inner: Observable<Inner>
        do {
            inner = try selector(element)
        } catch {
            if case .limited = mode {} else { lock.withLock { active -= 1 } }
            return terminate(.error(error))
        }
        if case .limited(let maxConcurrent) = mode {
            let now = lock.withLock { () -> Bool in
                if terminated { return false }
                if active >= maxConcurrent {
                    queued.append(inner)
                    return false
                }
                active += 1
                return true
            }
            guard now else { return }
        }
        subscribe(inner)
    }

    private func subscribe(_ inner: Observable<Inner>) {
        let subscription = SingleAssignmentDisposable()
        guard let key = group.insert(subscription) else { return }
        subscription.setDisposable(inner.subscribe { [self] event in
            switch event {
            case .next: forward(event)
            case .error: terminate(event)
            case .completed:
                let (following, complete) = lock.withLock { () -> (Observable<Inner>?, Bool) in
                    if !terminated, !queued.isEmpty { return (queued.removeFirst(), false) }
                    active -= 1
                    return (nil, sourceStopped && active == 0 && !terminated)
                }
                group.remove(for: key)
                if let following {
                    subscribe(following)
                } else if complete {
                    terminate(.completed)
                }
            }
        })
    }

    private func forward(_ event: Event<Inner>) {
        forwardLock.withLock {
            if lock.withLock({ terminated }) { return }
            observer.on(event)
        }
    }

    /// Sends the terminal event once; the forward lock is passed through, not held, so that
    /// a delivery in progress ends first and the teardown that follows runs under no lock.
    private func terminate(_ event: Event<Inner>) {
        let first = lock.withLock { () -> Bool in
            defer { terminated = true }
            return !terminated
        }
        guard first else { return }
        forwardLock.withLock {}
        observer.on(event)
        group.dispose()
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
