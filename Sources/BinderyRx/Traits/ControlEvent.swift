/// A sequence that can be converted to a `ControlEvent`.
public protocol ControlEventType: ObservableType {
    /// The sequence as a `ControlEvent`.
    func asControlEvent() -> ControlEvent<Element>
}

/// RxCocoa's trait for a control's events, so that ViewModel inputs written for it port:
/// it never errors, does not replay, and is subscribed on the scheduler
/// `SharingScheduler.make()` gives when it is made.
///
/// RxCocoa subscribes on the main thread; a ViewModel's inputs come from its session, so
/// here the subscription is made in the session's turn when the event is made in one (and
/// on the mocked scheduler under `SharingScheduler.mock`), and on a `MainScheduler`
/// elsewhere, which runs it at once when already on the main thread, as RxCocoa's does.
public struct ControlEvent<PropertyType>: ControlEventType {
    /// The type of the events.
    public typealias Element = PropertyType

    private let events: Observable<PropertyType>

    /// A control event delivering `events`, which must not error.
    public init<Events: ObservableType>(events: Events) where Events.Element == Element {
        self.events = events.asObservable().subscribe(on: SharingScheduler.make())
    }

    /// Subscribes `observer` to the events.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        events.subscribe(observer)
    }

    /// The events as an `Observable`.
    public func asObservable() -> Observable<Element> { events }

    /// This control event.
    public func asControlEvent() -> ControlEvent<Element> { self }
}
