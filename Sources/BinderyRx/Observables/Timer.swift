extension ObservableType where Element: FixedWidthInteger {
    /// Emits 0 after `dueTime`, then completes; with a `period`, goes on with 1, 2, … every period instead.
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType) -> Observable<Element> {
        Observable { observer in
            guard let period else {
                return scheduler.scheduleRelative((), dueTime: dueTime) { _ in
                    observer.on(.next(0))
                    observer.on(.completed)
                    return Disposables.create()
                }
            }
            return scheduler.schedulePeriodic(0 as Element, startAfter: dueTime, period: period) { count in
                observer.on(.next(count))
                return count &+ 1
            }
        }
    }
}
