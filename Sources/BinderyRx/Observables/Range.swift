/// The integers `range` counts with, as RxSwift's.
public typealias RxAbstractInteger = FixedWidthInteger

extension ObservableType where Element: RxAbstractInteger {
    /// `count` consecutive integers from `start`, then completion; each an action of its own on `scheduler`.
    public static func range(start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        precondition(count >= 0, "count can't be negative")
        precondition(count == 0 || start &+ (count - 1) >= start, "overflow of count")
        return Observable { observer in
            scheduler.scheduleRecursive(0 as Element) { i, recurse in
                if i < count {
                    observer.on(.next(start + i))
                    recurse(i + 1)
                } else {
                    observer.on(.completed)
                }
            }
        }
    }
}
