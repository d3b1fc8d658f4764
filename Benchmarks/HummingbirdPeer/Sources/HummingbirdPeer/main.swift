import BinderyRx
import Foundation
import Hummingbird
import Synchronization

// What a team would write to put an RxMVVM ViewModel behind Hummingbird 2 by hand:
// a session table in memory, one lock per session around the ViewModel's Rx graph,
// Codable answers. The routes and answers are Bindery's for `simple`:
//   POST /api/simple                               → 201 {"id", "viewModel", "lastEventId", "outputs"}
//   POST /api/simple/<sid>/inputs/buttonTap        → 200 the same snapshot
// It prints "listening on http://127.0.0.1:<port>/" once bound, as `bindery serve` does.

/// The `simple` example's ViewModel (Sources/Examples/Simple), in the same RxSwift
/// style: its outputs are Observables shared with a replay of one, as a server has
/// no main thread for Drivers to observe on.
final class SimpleViewModel {
    enum Color: String, CaseIterable, Codable { case red, blue, purple }

    struct Input { let buttonTap: Observable<Void> }
    struct Output {
        let backgroundColor: Observable<Color>
        let buttonTitle: Observable<String>
        let disposable: Disposable
    }

    func bind(_ input: Input) -> Output {
        let colors = Observable.just(Color.allCases)
        let currentColorIndexRelay = BehaviorRelay<Int>(value: 0)
        let currentColor = Observable.combineLatest(colors, currentColorIndexRelay) { colors, index in colors[index] }
        let nextColorIndex = Observable.combineLatest(colors, currentColorIndexRelay) { colors, index in (index + 1) % colors.count }
        let nextColor = Observable.combineLatest(colors, nextColorIndex) { colors, index in colors[index] }
        let disposable = input.buttonTap.withLatestFrom(nextColorIndex).bind(to: currentColorIndexRelay)
        return Output(
            backgroundColor: currentColor.share(replay: 1),
            buttonTitle: nextColor.map { "Change to \($0)" }.share(replay: 1),
            disposable: disposable)
    }
}

struct Outputs: Codable {
    var backgroundColor: SimpleViewModel.Color = .red
    var buttonTitle = ""
}

struct Snapshot: ResponseEncodable {
    let id: String
    let viewModel = "simple"
    let lastEventId: Int
    let outputs: Outputs
}

/// A session's ViewModel: its input relay and what its outputs last showed.
/// Touched only under its session's lock.
final class Graph {
    let buttonTap = PublishRelay<Void>()
    var outputs = Outputs()
    var lastEventId = 0
    let bag = DisposeBag()

    init() {
        let output = SimpleViewModel().bind(.init(buttonTap: buttonTap.asObservable()))
        // Subscribing delivers the current values at once.
        output.backgroundColor.subscribe(onNext: { [unowned self] in
            outputs.backgroundColor = $0
            lastEventId += 1
        }).disposed(by: bag)
        output.buttonTitle.subscribe(onNext: { [unowned self] in
            outputs.buttonTitle = $0
            lastEventId += 1
        }).disposed(by: bag)
        output.disposable.disposed(by: bag)
    }
}

/// One page's session: its ViewModel's graph behind a lock, as inputs may come on any thread.
final class Session: Sendable {
    private let graph = Mutex(Graph())

    /// Sends one tap through the graph: the outputs after it.
    func tap(id: String) -> Snapshot {
        graph.withLock { graph in
            graph.buttonTap.accept(())
            return Snapshot(id: id, lastEventId: graph.lastEventId, outputs: graph.outputs)
        }
    }

    func snapshot(id: String) -> Snapshot {
        graph.withLock { Snapshot(id: id, lastEventId: $0.lastEventId, outputs: $0.outputs) }
    }
}

let sessions = Mutex<[String: Session]>([:])

func newID() -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    return Data(bytes).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

let router = Router()
router.post("api/simple") { _, _ -> EditedResponse<Snapshot> in
    let id = newID()
    let session = Session()
    sessions.withLock { $0[id] = session }
    return EditedResponse(status: .created, response: session.snapshot(id: id))
}
router.post("api/simple/:sid/inputs/buttonTap") { _, context -> Snapshot in
    let id = try context.parameters.require("sid")
    guard let session = sessions.withLock({ $0[id] }) else { throw HTTPError(.notFound, message: "no session \(id)") }
    return session.tap(id: id)
}

var port = 8080
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    if argument == "--port", let value = arguments.next().flatMap(Int.init) { port = value }
}

let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { channel in
        print("listening on http://127.0.0.1:\(channel.localAddress?.port ?? 0)/")
        fflush(nil)
    }
)
try await app.runService()
