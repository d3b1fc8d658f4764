// The operators of `Infallible`: each applies the Observable operator, which cannot add an error here.

extension InfallibleType {
    /// Transforms each element.
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> Infallible<Result> {
        Infallible(asObservable().map(transform))
    }

    /// Keeps the elements that satisfy `predicate`.
    public func filter(_ predicate: @escaping (Element) -> Bool) -> Infallible<Element> {
        Infallible(asObservable().filter(predicate))
    }

    /// Transforms each element and drops the nils.
    public func compactMap<Result>(_ transform: @escaping (Element) -> Result?) -> Infallible<Result> {
        Infallible(asObservable().compactMap(transform))
    }

    /// Emits each intermediate result of folding the elements into `seed`.
    public func scan<Seed>(_ seed: Seed, accumulator: @escaping (Seed, Element) -> Seed) -> Infallible<Seed> {
        Infallible(asObservable().scan(seed, accumulator: accumulator))
    }

    /// Emits `elements` first.
    public func startWith(_ elements: Element...) -> Infallible<Element> {
        Infallible(asObservable().startWith(contentsOf: elements))
    }

    /// Maps each element to an infallible and merges them.
    public func flatMap<Source: InfallibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible(asObservable().flatMap(selector))
    }

    /// Mirrors the infallible made from the latest element.
    public func flatMapLatest<Source: InfallibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible(asObservable().flatMapLatest(selector))
    }

    /// Mirrors the infallible made from an element, ignoring elements until it completes.
    public func flatMapFirst<Source: InfallibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible(asObservable().flatMapFirst(selector))
    }

    /// Emits the first `count` elements, then completes.
    public func take(_ count: Int) -> Infallible<Element> { Infallible(asObservable().take(count)) }

    /// Drops the first `count` elements.
    public func skip(_ count: Int) -> Infallible<Element> { Infallible(asObservable().skip(count)) }

    /// Emits an element only after `dueTime` passes without another.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().debounce(dueTime, scheduler: scheduler))
    }

    /// Emits at most one element per `dueTime`.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().throttle(dueTime, latest: latest, scheduler: scheduler))
    }

    /// Delivers the events through `scheduler`.
    public func observe(on scheduler: ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(asObservable().observe(on: scheduler))
    }

    /// Shares one subscription among subscribers, replaying the last `replay` elements.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Infallible<Element> {
        Infallible(asObservable().share(replay: replay, scope: scope))
    }
}

extension InfallibleType where Element: Equatable {
    /// Drops elements equal to the one before.
    public func distinctUntilChanged() -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged())
    }
}
