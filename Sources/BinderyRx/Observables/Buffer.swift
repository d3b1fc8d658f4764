import Foundation

extension ObservableType {
    /// Collects the elements into arrays, each emitted when it holds `count` elements or
    /// `timeSpan` after the previous one began, whichever comes first (an empty array if
    /// nothing came); on completion the last array is emitted, on error it is dropped.
    public func buffer(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<[Element]> {
        Observable { observer in
            let lock = NSRecursiveLock()
            var buffer: [Element] = []
            var windowId = 0
            let timer = SerialDisposable()

            func startTimer(for id: Int) {
                guard !timer.isDisposed, id == windowId else { return }
                let next = SingleAssignmentDisposable()
                timer.disposable = next
                next.setDisposable(scheduler.scheduleRelative(id, dueTime: timeSpan) { id in
                    lock.withLock {
                        if id == windowId { emitAndStartNew() }
                    }
                    return Disposables.create()
                })
            }
            func emitAndStartNew() {
                windowId &+= 1
                let full = buffer
                buffer = []
                observer.on(.next(full))
                startTimer(for: windowId)
            }

            lock.withLock { startTimer(for: windowId) }
            let subscription = self.subscribe { event in
                lock.withLock {
                    switch event {
                    case .next(let element):
                        buffer.append(element)
                        if buffer.count == count { emitAndStartNew() }
                    case .error(let error):
                        buffer = []
                        observer.on(.error(error))
                    case .completed:
                        observer.on(.next(buffer))
                        observer.on(.completed)
                    }
                }
            }
            return Disposables.create(timer, subscription)
        }
    }
}
