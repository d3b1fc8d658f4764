/// A sequence that cannot error and shares its subscription, observed on a
/// scheduler chosen by its strategy: the shape of RxCocoa's `Driver` and `Signal`.
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>: SharedSequenceConvertibleType, ObservableConvertibleType {
    let source: Observable<Element>

    /// Wraps `source`, sharing it as the strategy says.
    init(_ source: Observable<Element>) { self.source = SharingStrategy.share(source) }

    /// Wraps `source`, which is already shared.
    init(raw source: Observable<Element>) { self.source = source }

    /// The sequence as an `Observable`.
    public func asObservable() -> Observable<Element> { source }

    /// This sequence.
    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> { self }
}

/// How a `SharedSequence` shares and where it is observed.
public protocol SharingStrategyProtocol {
    /// The scheduler elements are observed on.
    static var scheduler: SchedulerType { get }
    /// Shares `source` among subscribers.
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// Something that can be turned into a `SharedSequence`.
public protocol SharedSequenceConvertibleType: ObservableConvertibleType {
    /// The sharing strategy.
    associatedtype SharingStrategy: SharingStrategyProtocol
    /// The sequence as a `SharedSequence`.
    func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

extension SharedSequenceConvertibleType {
    /// The shared sequence as an `Observable`: what a type that conforms by
    /// `asSharedSequence()` alone (RxExample's `ActivityIndicator`) is, as in RxCocoa.
    public func asObservable() -> Observable<Element> { asSharedSequence().asObservable() }
}
