extension ObservableType {
    /// A sequence that starts from `initialState` and emits each state while `condition`
    /// holds, moving on with `iterate`; each step is an action of its own on `scheduler`.
    public static func generate(
        initialState: Element,
        condition: @escaping (Element) throws -> Bool,
        scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        iterate: @escaping (Element) throws -> Element
    ) -> Observable<Element> {
        Observable { observer in
            scheduler.scheduleRecursive((state: initialState, isFirst: true)) { step, recurse in
                do {
                    let state = step.isFirst ? step.state : try iterate(step.state)
                    if try condition(state) {
                        observer.on(.next(state))
                        recurse((state, false))
                    } else {
                        observer.on(.completed)
                    }
                } catch {
                    observer.on(.error(error))
                }
            }
        }
    }
}
