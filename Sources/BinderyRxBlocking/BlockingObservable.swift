import Foundation
import BinderyRx

/// What a sequence did once it ended, as RxBlocking's `materialize()` reports it.
public enum MaterializedSequenceResult<T> {
    /// It completed after these elements.
    case completed(elements: [T])
    /// It failed with `error` after these elements.
    case failed(elements: [T], error: Error)
}

/// A sequence whose operators wait for it to end, as RxBlocking's: for tests and tools,
/// never for a session's queue, which the wait would stall.
public struct BlockingObservable<Element> {
    let timeout: TimeInterval?
    let source: Observable<Element>
}

extension ObservableConvertibleType {
    /// The sequence, to be waited for; after `timeout` seconds the wait fails with `RxError.timeout`.
    public func toBlocking(timeout: TimeInterval? = nil) -> BlockingObservable<Element> {
        BlockingObservable(timeout: timeout, source: asObservable())
    }
}

extension BlockingObservable {
    /// Every element, once the sequence completed; its error, if it failed.
    public func toArray() throws -> [Element] {
        try run().elementsOrThrow()
    }

    /// The first element, or nil if it completed empty; waits no further than that element.
    public func first() throws -> Element? {
        try run(max: 1).elementsOrThrow().first
    }

    /// The last element, or nil if it completed empty.
    public func last() throws -> Element? {
        try run().elementsOrThrow().last
    }

    /// The only element; `RxError.noElements` or `.moreThanOneElement` otherwise.
    public func single() throws -> Element {
        try single { _ in true }
    }

    /// The only element satisfying `predicate`; `RxError.noElements` or `.moreThanOneElement` otherwise.
    public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
        let elements = try run(max: 2, predicate: predicate).elementsOrThrow()
        if elements.count > 1 { throw RxError.moreThanOneElement }
        guard let first = elements.first else { throw RxError.noElements }
        return first
    }

    /// The elements and how the sequence ended, without throwing.
    public func materialize() -> MaterializedSequenceResult<Element> {
        run()
    }

    /// Subscribes and waits until the sequence ends, `max` elements passed `predicate`, or the timeout.
    /// On the main thread the wait runs the run loop, so work scheduled on the main queue (a
    /// `MainScheduler`'s) goes on meanwhile, as it does under RxBlocking's `RunLoopLock`.
    private func run(max: Int? = nil, predicate: @escaping (Element) throws -> Bool = { _ in true }) -> MaterializedSequenceResult<Element> {
        let condition = NSCondition()
        var elements: [Element] = []
        var error: Swift.Error?
        var done = false
        let waitsOnMain = Thread.isMainThread
        let subscription = SingleAssignmentDisposable()

        func finish(_ failure: Swift.Error?) {
            condition.withLock {
                if done { return }
                if let failure { error = failure }
                done = true
                condition.broadcast()
            }
            subscription.dispose()
            // Wakes a main thread waiting in its run loop.
            if waitsOnMain && !Thread.isMainThread { DispatchQueue.main.async {} }
        }

        subscription.setDisposable(source.subscribe { event in
            switch event {
            case .next(let element):
                do {
                    let reachedMax = try condition.withLock { () -> Bool in
                        if done { return false }
                        if try predicate(element) { elements.append(element) }
                        return max.map { elements.count >= $0 } ?? false
                    }
                    if reachedMax { finish(nil) }
                } catch let predicateError {
                    finish(predicateError)
                }
            case .error(let sequenceError): finish(sequenceError)
            case .completed: finish(nil)
            }
        })

        let deadline = timeout.map { Date(timeIntervalSinceNow: $0) } ?? .distantFuture
        while !condition.withLock({ done }) {
            if Date() >= deadline {
                finish(RxError.timeout)
                break
            }
            if waitsOnMain {
                _ = RunLoop.current.run(mode: .default, before: min(deadline, Date(timeIntervalSinceNow: 0.1)))
            } else {
                condition.withLock { if !done { _ = condition.wait(until: deadline) } }
            }
        }
        subscription.dispose()
        return condition.withLock {
            if let error { return .failed(elements: elements, error: error) }
            return .completed(elements: elements)
        }
    }
}

extension MaterializedSequenceResult {
    fileprivate func elementsOrThrow() throws -> [T] {
        switch self {
        case .completed(let elements): return elements
        case .failed(_, let error): throw error
        }
    }
}
