extension AsyncSequence {
    /// A sequence that iterates this async sequence in a detached task per subscription;
    /// disposing cancels the task, and a cancelled iteration completes.
    public func asObservable(priority: TaskPriority? = nil) -> Observable<Element> {
        Observable { observer in
            let task = Task.detached(priority: priority) {
                do {
                    for try await value in self { observer.on(.next(value)) }
                    observer.on(.completed)
                } catch is CancellationError {
                    observer.on(.completed)
                } catch {
                    observer.on(.error(error))
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}
