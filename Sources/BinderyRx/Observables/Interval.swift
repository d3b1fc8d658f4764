extension ObservableType where Element: FixedWidthInteger {
    /// Emits 0, 1, 2, … every `period`, the first after one period.
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Observable { observer in
            scheduler.schedulePeriodic(0 as Element, startAfter: period, period: period) { count in
                observer.on(.next(count))
                return count &+ 1
            }
        }
    }
}
