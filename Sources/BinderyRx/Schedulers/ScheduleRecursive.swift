extension ImmediateSchedulerType {
    /// Runs `action` with `state`, and again each time it calls its second argument, each run
    /// scheduled by the one before (as RxSwift's `scheduleRecursive`), so that every step is a
    /// scheduled action of its own: a trampoline interleaves it with other work, and a virtual
    /// clock moves between steps. Disposing stops the steps not yet run.
    public func scheduleRecursive<State>(_ state: State, action: @escaping (State, _ recurse: (State) -> Void) -> Void) -> Disposable {
        let steps = RecursiveSteps(scheduler: self, action: action)
        steps.schedule(state)
        return steps
    }
}

/// The running state of one `scheduleRecursive`: the step scheduled last, so that disposal reaches it.
private final class RecursiveSteps<State>: Disposable, @unchecked Sendable {
    private let scheduler: ImmediateSchedulerType
    private let action: (State, (State) -> Void) -> Void
    private let current = SerialDisposable()

    init(scheduler: ImmediateSchedulerType, action: @escaping (State, (State) -> Void) -> Void) {
        self.scheduler = scheduler
        self.action = action
    }

    func schedule(_ state: State) {
        // The step goes in before it is scheduled: a scheduler that runs it inline returns only
        // after the next step was scheduled, and its result must not displace that one.
        let step = SingleAssignmentDisposable()
        current.disposable = step
        step.setDisposable(scheduler.schedule(state) { [self] state in
            if !current.isDisposed { action(state, schedule) }
            return Disposables.create()
        })
    }

    func dispose() { current.dispose() }
}
