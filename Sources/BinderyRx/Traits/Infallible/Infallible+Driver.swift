extension InfallibleType {
    /// The sequence as a driver: it cannot fail, so it only hops onto the sharing scheduler.
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}
