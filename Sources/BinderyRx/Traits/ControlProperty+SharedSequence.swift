extension ControlProperty {
    /// The values as a driver; an error, which a control property must not send, ends it
    /// (RxCocoa stops a debug build there; a server goes on).
    public func asDriver() -> Driver<Element> {
        asDriver(onErrorDriveWith: .empty())
    }
}
