import BinderyRx

/// An observer that records every event with the virtual time it arrived.
public final class TestableObserver<Element>: ObserverType {
    private unowned let scheduler: TestScheduler

    /// The events received, in order.
    public private(set) var events: [Recorded<Event<Element>>] = []

    init(scheduler: TestScheduler) { self.scheduler = scheduler }

    /// Records `event` at the scheduler's clock.
    public func on(_ event: Event<Element>) {
        events.append(Recorded(time: scheduler.clock, value: event))
    }
}
