extension ControlEvent {
    /// The events as a driver; an error, which a control event must not send, ends it
    /// (RxCocoa stops a debug build there; a server goes on).
    public func asDriver() -> Driver<Element> {
        asDriver(onErrorDriveWith: .empty())
    }

    /// The events as a signal; an error, which a control event must not send, ends it.
    public func asSignal() -> Signal<Element> {
        asSignal(onErrorSignalWith: .empty())
    }
}
