/// An observer that binds elements to a target, held weakly, on a scheduler; errors are
/// programmer errors, as in RxCocoa's `Binder`.
public struct Binder<Value>: ObserverType {
    /// The type of the elements bound.
    public typealias Element = Value

    private let binding: (Event<Value>) -> Void

    /// Calls `binding` with the target and each element on `scheduler`, while the target lives.
    /// RxCocoa's default is a main-thread scheduler; Bindery's is the sharing scheduler, that is
    /// the session's queue while a ViewModel is built and runs (see `SharingScheduler`).
    public init<Target: AnyObject>(_ target: Target, scheduler: ImmediateSchedulerType = SharingScheduler.make(), binding: @escaping (Target, Value) -> Void) {
        weak let weakTarget = target
        self.binding = { event in
            switch event {
            case .next(let element):
                _ = scheduler.schedule(element) { element in
                    if let target = weakTarget { binding(target, element) }
                    return Disposables.create()
                }
            case .error(let error):
                bindingError(error)
            case .completed:
                break
            }
        }
    }

    /// Binds one event.
    public func on(_ event: Event<Value>) { binding(event) }

    /// The binder, type-erased.
    public func asObserver() -> AnyObserver<Value> { AnyObserver(eventHandler: on) }
}
