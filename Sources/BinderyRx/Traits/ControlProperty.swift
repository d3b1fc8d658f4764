/// RxCocoa's trait for a control's value, read and written, so that ViewModels written for
/// it port: its values never error, and the first is the current value; what is sent to it
/// goes to the value's sink, and an error sent to it is a programmer error, as `Binder`'s.
///
/// Its values are subscribed to on the scheduler `SharingScheduler.make()` gives when it is
/// made, as `ControlEvent`'s: the session's turn where it is made in one, where RxCocoa's are
/// subscribed on the main thread.
public struct ControlProperty<PropertyType>: ControlPropertyType {
    /// The type of the value.
    public typealias Element = PropertyType

    private let values: Observable<PropertyType>
    private let valueSink: AnyObserver<PropertyType>

    /// A property reading `values` (the current value first, and never an error) and writing to `valueSink`.
    public init<Values: ObservableType, Sink: ObserverType>(values: Values, valueSink: Sink) where Element == Values.Element, Element == Sink.Element {
        self.init(subscribedValues: values.asObservable().subscribe(on: SharingScheduler.make()), valueSink: valueSink.asObserver())
    }

    /// A property of values already subscribed on the right scheduler (one property made from another).
    init(subscribedValues: Observable<PropertyType>, valueSink: AnyObserver<PropertyType>) {
        values = subscribedValues
        self.valueSink = valueSink
    }

    /// Subscribes `observer` to the values.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        values.subscribe(observer)
    }

    /// The values after the current one: the changes, as a `ControlEvent`.
    public var changed: ControlEvent<PropertyType> { ControlEvent(events: values.skip(1)) }

    /// The values as an `Observable`.
    public func asObservable() -> Observable<Element> { values }

    /// This property.
    public func asControlProperty() -> ControlProperty<Element> { self }

    /// Sends an element or completion to the value's sink; an error is a programmer error.
    public func on(_ event: Event<Element>) {
        switch event {
        case .error(let error): bindingError(error)
        case .next, .completed: valueSink.on(event)
        }
    }
}
