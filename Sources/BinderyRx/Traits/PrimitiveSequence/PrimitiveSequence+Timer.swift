extension PrimitiveSequence where Element: FixedWidthInteger {
    /// Succeeds with 0 after `dueTime`.
    public static func timer(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable<Element>.timer(dueTime, scheduler: scheduler))
    }
}
