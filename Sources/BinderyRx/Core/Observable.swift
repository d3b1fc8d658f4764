import Synchronization

/// A sequence of elements over time: `next* (error | completed)?`.
///
/// Every subscription goes through a sink that enforces the grammar: nothing is
/// delivered after a terminal event or after disposal, and a terminal event
/// disposes the subscription upstream. Delivery is serial as long as the source
/// delivers serially; subjects and relays serialize concurrent senders.
///
/// A class that code outside this module cannot subclass, as in RxSwift: subjects and
/// `ConnectableObservable` are observables, so `subject.asObservable()` is the subject itself
/// and a `replay(1)` can be returned where an `Observable` is declared.
public class Observable<Element>: ObservableType {
    /// What a subscription runs; nil in a subclass, which subscribes its own way.
    let subscribeHandler: ((AnyObserver<Element>) -> Disposable)?

    /// An observable that runs `subscribeHandler` for each subscription.
    init(_ subscribeHandler: @escaping (AnyObserver<Element>) -> Disposable) {
        self.subscribeHandler = subscribeHandler
    }

    /// A subclass's part: it subscribes in `subscribeAsSubclass`.
    init() {
        subscribeHandler = nil
    }

    /// Not for decoding data: lets a `Decodable` ViewModel `Input` (in Bindery) hold
    /// observables, which Bindery makes itself. Always throws.
    public required init(from decoder: Decoder) throws {
        throw Self.decodingRefused(decoder)
    }

    /// Why an observable is not decoded from data.
    static func decodingRefused(_ decoder: Decoder) -> Error {
        DecodingError.typeMismatch(
            Self.self, .init(codingPath: decoder.codingPath, debugDescription: "An observable input is built by Bindery, not decoded from data"))
    }

    /// Subscribes `observer` to the sequence's events.
    ///
    /// Final, so that a chain of operators is specialized for its observers as it was
    /// when `Observable` was a final class (a generic method reached through the vtable
    /// runs unspecialized, looking up its types' metadata on each event: about 6 % more
    /// instructions per input when this was an override). Subclasses subscribe in
    /// `subscribeAsSubclass`, which is not generic.
    public final func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        guard let subscribeHandler else { return subscribeAsSubclass(AnyObserver(observer)) }
        let sink = Sink(observer)
        guard CurrentThreadScheduler.isScheduleRequired else {
            sink.subscription.setDisposable(subscribeHandler(AnyObserver(eventHandler: sink.on)))
            return sink
        }
        // On a trampoline, as RxSwift's `Producer`: what the source schedules on the current
        // thread runs after its subscription is set, so disposing it from downstream stops it.
        CurrentThreadScheduler.trampoline {
            sink.subscription.setDisposable(subscribeHandler(AnyObserver(eventHandler: sink.on)))
        }
        return sink
    }

    /// A subclass's subscription (a subject's, a connectable's); a plain observable has a handler instead.
    func subscribeAsSubclass(_ observer: AnyObserver<Element>) -> Disposable {
        preconditionFailure("\(Self.self) subscribes through its handler")
    }

    /// This observable.
    public final func asObservable() -> Observable<Element> { self }
}

/// Forwards events to one observer and enforces the event grammar.
final class Sink<Observer: ObserverType>: Disposable, @unchecked Sendable {
    private static var running: Int { 0 }
    private static var stopped: Int { 1 }
    private static var disposed: Int { 2 }

    private let observer: Observer
    private let state = Atomic<Int>(0)
    let subscription = SingleAssignmentDisposable()

    init(_ observer: Observer) { self.observer = observer }

    func on(_ event: Event<Observer.Element>) {
        switch event {
        case .next:
            if state.load(ordering: .acquiring) == Self.running { observer.on(event) }
        case .error, .completed:
            if state.compareExchange(expected: Self.running, desired: Self.stopped, ordering: .acquiringAndReleasing).exchanged {
                observer.on(event)
                subscription.dispose()
            }
        }
    }

    func dispose() {
        state.store(Self.disposed, ordering: .releasing)
        subscription.dispose()
    }
}
