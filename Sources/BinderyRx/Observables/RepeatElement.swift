extension ObservableType {
    /// `element` again and again, never ending; each an action of its own on `scheduler`.
    public static func repeatElement(_ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        Observable { observer in
            scheduler.scheduleRecursive(element) { element, recurse in
                observer.on(.next(element))
                recurse(element)
            }
        }
    }
}
