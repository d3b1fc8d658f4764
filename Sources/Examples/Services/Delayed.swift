import Bindery

/// Runs `work` after `latency` on `scheduler` and emits its result (or error) once:
/// how the example services stand in for a network.
func delayed<Element>(_ latency: RxTimeInterval, on scheduler: SchedulerType, _ work: @escaping () throws -> Element) -> Observable<Element> {
    Observable.create { observer in
        scheduler.scheduleRelative((), dueTime: latency) { _ in
            do {
                observer.onNext(try work())
                observer.onCompleted()
            } catch {
                observer.onError(error)
            }
            return Disposables.create()
        }
    }
}
