import Foundation

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// A single of what `work` returns or throws, run in a task per subscription (detached
    /// if `detached`); disposing cancels the task.
    @_disfavoredOverload
    public static func create(detached: Bool = false, priority: TaskPriority? = nil, work: @Sendable @escaping () async throws -> Element) -> Single<Element> {
        Single.create { single in
            let operation: () async -> Void = {
                do { single(.success(try await work())) } catch { single(.failure(error)) }
            }
            let task = detached ? Task.detached(priority: priority, operation: operation) : Task(priority: priority, operation: operation)
            return Disposables.create { task.cancel() }
        }
    }

    /// Waits for the element; throws the failure, or `CancellationError` if the task is cancelled first.
    public var value: Element {
        get async throws {
            try await awaitOutcome { resume in
                primitiveSequence.subscribe(onSuccess: { resume(.success($0)) }, onFailure: { resume(.failure($0)) }, onDisposed: { resume(.failure(CancellationError())) })
            }
        }
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Waits for the element, nil if it completes empty; throws the error, or `CancellationError` if cancelled first.
    public var value: Element? {
        get async throws {
            try await awaitOutcome { resume in
                primitiveSequence.subscribe(
                    onSuccess: { resume(.success($0)) }, onError: { resume(.failure($0)) },
                    onCompleted: { resume(.success(nil)) }, onDisposed: { resume(.failure(CancellationError())) }
                )
            }
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Waits for completion; throws the error, or `CancellationError` if cancelled first.
    public var value: Void {
        get async throws {
            try await awaitOutcome { resume in
                primitiveSequence.subscribe(onCompleted: { resume(.success(())) }, onError: { resume(.failure($0)) }, onDisposed: { resume(.failure(CancellationError())) })
            }
        }
    }
}

/// Subscribes with `subscribe` and waits for the first outcome it reports; cancelling the
/// waiting task disposes the subscription.
private func awaitOutcome<Value>(_ subscribe: @escaping (_ resume: @escaping (Result<Value, Error>) -> Void) -> Disposable) async throws -> Value {
    let subscription = SingleAssignmentDisposable()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, Error>) in
            let lock = NSLock()
            var resumed = false
            subscription.setDisposable(subscribe { outcome in
                let first = lock.withLock { () -> Bool in
                    defer { resumed = true }
                    return !resumed
                }
                if first { continuation.resume(with: outcome) }
            })
        }
    } onCancel: {
        subscription.dispose()
    }
}
