import BinderyRx

/// An observable built from recorded events that records its subscriptions.
public class TestableObservable<Element>: ObservableType {
    /// The scheduler the events run on.
    let scheduler: TestScheduler
    /// The events it was built from.
    public let recordedEvents: [Recorded<Event<Element>>]
    /// Every subscription so far, with its times.
    public internal(set) var subscriptions: [Subscription] = []

    init(scheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        self.scheduler = scheduler
        self.recordedEvents = recordedEvents
    }

    /// Subscribes `observer`.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        fatalError("abstract")
    }
}

/// A hot test observable: events happen at their absolute times, whoever listens.
final class HotObservable<Element>: TestableObservable<Element> {
    private var observers: [Int: AnyObserver<Element>] = [:]
    private var nextKey = 0

    override init(scheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(scheduler: scheduler, recordedEvents: recordedEvents)
        for recorded in recordedEvents {
            // Held strongly, as RxTest does: a hot observable fires whether or not the test keeps it.
            scheduler.scheduleAt(recorded.time) {
                for key in self.observers.keys.sorted() { self.observers[key]?.on(recorded.value) }
            }
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let key = nextKey
        nextKey += 1
        observers[key] = AnyObserver(observer)
        subscriptions.append(Subscription(scheduler.clock))
        let index = subscriptions.count - 1
        return Disposables.create { [weak self] in
            guard let self else { return }
            self.observers[key] = nil
            self.subscriptions[index] = Subscription(self.subscriptions[index].subscribe, self.scheduler.clock)
        }
    }
}

/// A cold test observable: each subscription replays the events relative to its
/// own start (an event at offset 0 arrives at once, in a scheduled action, as RxTest's).
final class ColdObservable<Element>: TestableObservable<Element> {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subscriptions.append(Subscription(scheduler.clock))
        let index = subscriptions.count - 1
        let start = scheduler.clock
        let pending = CompositeDisposable()
        for recorded in recordedEvents {
            pending.insert(scheduler.scheduleAt(start + recorded.time) { observer.on(recorded.value) })
        }
        return Disposables.create { [weak self] in
            pending.dispose()
            guard let self else { return }
            self.subscriptions[index] = Subscription(self.subscriptions[index].subscribe, self.scheduler.clock)
        }
    }
}
