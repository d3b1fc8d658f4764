import ArgumentParser
import Bindery
import Foundation

/// `bindery-bench rx`: the reactive core's throughput, side by side with plain closures.
struct RxBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rx",
        abstract: "Deliveries per second through a typical ViewModel chain and a 10,000-observer fan-out."
    )

    @Option(help: "Elements pushed through the chain.")
    var elements = 1_000_000

    @Option(help: "Observers of the fanned-out subject.")
    var observers = 10_000

    @Option(help: "Elements sent to the fanned-out subject.")
    var fanoutElements = 1_000

    func run() throws {
        print("bindery-bench rx")
        print("machine: \(machineDescription())")

        // The chain a ViewModel typically builds: subject → map → scan →
        // combineLatest → distinctUntilChanged → Driver, observed inline.
        let scheduler = SerialScheduler(label: "bench")
        var received = 0
        let input = PublishSubject<Int>()
        let factor = BehaviorRelay(value: 3)
        let subscription = scheduler.sync {
            Observable.combineLatest(input.map { $0 * 2 }.scan(0, accumulator: +), factor.asObservable()) { $0 * $1 }
                .distinctUntilChanged()
                .asDriver(onErrorJustReturn: 0)
                .drive(onNext: { _ in received += 1 })
        }
        // Each element is its own job, as each input is; queued at once and
        // waited for once, so no thread round trip is counted per element.
        let chainStart = now()
        for value in 0..<elements { scheduler.async { input.onNext(value) } }
        scheduler.sync {}
        let chain = now() - chainStart
        scheduler.sync { subscription.dispose() }
        precondition(received == elements, "the chain lost elements")

        // The same arithmetic as plain closures, one turn each: what the chain costs on top.
        var sum = 0, last = -1, plainReceived = 0
        let deliver: (Int) -> Void = { value in
            sum += value * 2
            let combined = sum * factor.value
            if combined != last {
                last = combined
                plainReceived += 1
            }
        }
        let plainStart = now()
        for value in 0..<elements { scheduler.async { deliver(value) } }
        scheduler.sync {}
        let plain = now() - plainStart
        precondition(plainReceived == elements)

        let subject = PublishSubject<Int>()
        var fanoutReceived = 0
        let subscriptions = (0..<observers).map { _ in subject.subscribe(onNext: { _ in fanoutReceived += 1 }) }
        let fanoutStart = now()
        for value in 0..<fanoutElements { subject.onNext(value) }
        let fanout = now() - fanoutStart
        subscriptions.forEach { $0.dispose() }
        precondition(fanoutReceived == observers * fanoutElements)

        printTable(
            "Typical ViewModel chain (\(elements) elements)",
            [
                ("chain deliveries per second", String(format: "%.0f", Double(elements) / chain)),
                ("plain closures per second", String(format: "%.0f", Double(elements) / plain)),
                ("chain cost ÷ plain closures", String(format: "%.1f×", chain / plain)),
            ])
        printTable(
            "Subject fan-out (\(observers) observers × \(fanoutElements) elements)",
            [
                ("deliveries per second", String(format: "%.0f", Double(observers * fanoutElements) / fanout)),
                ("per element, all observers", String(format: "%.3f ms", fanout / Double(fanoutElements) * 1000)),
            ])
    }
}
