import Foundation
import XCTest

@testable import Bindery

/// The three ViewModel shapes of DESIGN §4 run without routing or JSON code.
final class ViewModelShapeTests: XCTestCase {
    struct Draft: Codable, Equatable {
        let title: String
        let count: Int
    }

    /// RxMVVM: inputs and outputs as properties.
    final class PropertyViewModel {
        let rename = PublishRelay<String>()
        let reset = PublishSubject<Void>()
        let name: Driver<String>
        let renamed: Signal<String>
        private let disposeBag = DisposeBag()

        init() {
            let current = BehaviorRelay(value: "initial")
            name = current.asDriver()
            renamed = rename.asSignal()
            rename.bind(to: current).disposed(by: disposeBag)
            reset.map { "initial" }.bind(to: current).disposed(by: disposeBag)
        }
    }

    /// Nested structs exposed as `vm.input` and `vm.output`.
    final class NestedViewModel {
        struct Input { let draft: AnyObserver<Draft> }
        struct Output { let summary: Driver<String> }
        let input: Input
        let output: Output

        init() {
            let drafts = BehaviorSubject(value: Draft(title: "none", count: 0))
            input = Input(draft: drafts.asObserver())
            output = Output(summary: drafts.map { "\($0.title) × \($0.count)" }.asDriver(onErrorJustReturn: "?"))
        }
    }

    /// Single-method binding.
    final class BindingViewModel: ViewModelBinding {
        struct Input: Decodable {
            let amount: Signal<Int>
            let clear: Observable<Void>
        }
        struct Output {
            let total: Driver<Int>
            let disposable: Disposable
        }
        func bind(_ input: Input) -> Output {
            let total = Observable.merge(input.amount.asObservable().map { Optional($0) }, input.clear.map { nil })
                .scan(0) { sum, amount in amount.map { sum + $0 } ?? 0 }
                .startWith(0)
                .asDriver(onErrorJustReturn: 0)
            return Output(total: total, disposable: Disposables.create())
        }
    }

    private var application: Application!

    override func setUp() {
        application = Application()
        application.register("property") { _ in PropertyViewModel() }
        application.register("nested") { _ in NestedViewModel() }
        application.register("binding") { _ in BindingViewModel() }
    }

    override func tearDown() { application.stop() }

    private func outputs(_ snapshot: Snapshot) -> [String: String] {
        Dictionary(uniqueKeysWithValues: snapshot.outputs.map { ($0.name, String(decoding: $0.json, as: UTF8.self)) })
    }

    func testPropertyShape() async throws {
        let session = try await application.createSession("property")
        let initial = try await session.snapshot()
        XCTAssertEqual(outputs(initial), ["name": "\"initial\""])
        let renamed = try await session.send(input: "rename", payload: Data("\"Ada\"".utf8))
        XCTAssertEqual(outputs(renamed), ["name": "\"Ada\""])
        let reset = try await session.send(input: "reset", payload: Data())
        XCTAssertEqual(outputs(reset), ["name": "\"initial\""])
        let catalog = await application.catalog()
        let entry = try XCTUnwrap(catalog.viewModels.first { $0.name == "property" })
        XCTAssertEqual(entry.inputs.map(\.name), ["rename", "reset"])
        XCTAssertEqual(entry.outputs.map(\.name), ["name", "renamed"])
        XCTAssertEqual(entry.outputs.map(\.kind), [.driver, .signal])
    }

    func testNestedInputOutputShape() async throws {
        let session = try await application.createSession("nested")
        let initial = try await session.snapshot()
        XCTAssertEqual(outputs(initial), ["summary": "\"none × 0\""])
        let snapshot = try await session.send(input: "draft", payload: Data(#"{"title":"cups","count":3}"#.utf8))
        XCTAssertEqual(outputs(snapshot), ["summary": "\"cups × 3\""])
        let catalog = await application.catalog()
        let schema = try XCTUnwrap(catalog.viewModels.first { $0.name == "nested" }?.inputs.first?.schema)
        XCTAssertEqual(schema["type"], "object")
    }

    func testBindingShape() async throws {
        let session = try await application.createSession("binding")
        _ = try await session.send(input: "amount", payload: Data("2".utf8))
        let afterFive = try await session.send(input: "amount", payload: Data("5".utf8))
        XCTAssertEqual(outputs(afterFive), ["total": "7"])
        let cleared = try await session.send(input: "clear", payload: Data())
        XCTAssertEqual(outputs(cleared), ["total": "0"])
        let catalog = await application.catalog()
        let entry = try XCTUnwrap(catalog.viewModels.first { $0.name == "binding" })
        XCTAssertEqual(entry.inputs.map(\.name), ["amount", "clear"])
        XCTAssertEqual(entry.inputs.map(\.schema), [["type": "integer"], ["type": "null"]])
    }

    /// Subjects are observables (as in RxSwift); where they stand decides what they are.
    func testSubjectsAreOutputsInAnOutputAndKeepTheirRolesAlone() async throws {
        final class Subjects: ViewModelBinding {
            struct Input: Decodable { let go: Observable<Void> }
            struct Output {
                let events: PublishSubject<Int>
                let state: BehaviorSubject<Int>
                let history: ReplaySubject<Int>
            }
            let tap = PublishSubject<Void>()
            let kept = ReplaySubject<Int>.create(bufferSize: 1)
            func bind(_ input: Input) -> Output {
                Output(events: PublishSubject(), state: BehaviorSubject(value: 1), history: .create(bufferSize: 1))
            }
        }
        final class Alone {
            let tap = PublishSubject<Void>()
            let level = BehaviorSubject(value: 0)
            let kept = ReplaySubject<Int>.create(bufferSize: 1)
            let shared: ConnectableObservable<Int> = Observable.just(1).replay(1)
        }
        application.register("subjects") { _ in Subjects() }
        application.register("alone") { _ in Alone() }
        let catalog = await application.catalog()
        let bound = try XCTUnwrap(catalog.viewModels.first { $0.name == "subjects" })
        XCTAssertEqual(bound.inputs.map(\.name), ["go"])
        XCTAssertEqual(bound.outputs.map(\.name), ["events", "state", "history"])
        XCTAssertEqual(bound.outputs.map(\.kind), [.signal, .driver, .driver])
        let alone = try XCTUnwrap(catalog.viewModels.first { $0.name == "alone" })
        XCTAssertEqual(alone.inputs.map(\.name), ["tap", "level"])
        XCTAssertEqual(alone.outputs.map(\.name), [])
    }

    /// An `Input` struct holds sequences; a subject there is refused with its name.
    func testASubjectInABindingInputIsRefusedByName() async {
        final class SubjectInput: ViewModelBinding {
            struct Input: Decodable { let taps: PublishSubject<Void> }
            struct Output {}
            func bind(_ input: Input) -> Output { Output() }
        }
        application.register("subject-input") { _ in SubjectInput() }
        await XCTAssertThrowsErrorAsync(try await application.createSession("subject-input")) { error in
            XCTAssertEqual((error as? BinderyError)?.code, .viewModelFailed)
            XCTAssertTrue("\(error)".contains("taps"), "\(error)")
        }
    }

    /// RxExample's shape: the inputs come to `init` as a tuple of labelled sequences.
    final class SignUp {
        let signupEnabled: Driver<Bool>
        let signedIn: Signal<String>
        let taps: Driver<Int>
        init(
            input: (username: ControlProperty<String>, password: Observable<String>, loginTaps: Signal<Void>, help: ControlEvent<Void>), minimum: Int
        ) {
            let valid = Driver.combineLatest(input.username.asDriver(), input.password.asDriver(onErrorJustReturn: "")) {
                $0.count >= minimum && $1.count >= minimum
            }
            signupEnabled = valid.startWith(false)
            signedIn = input.loginTaps.withLatestFrom(input.username.asDriver())
            taps = input.help.asObservable().scan(0) { count, _ in count + 1 }.startWith(0).asDriver(onErrorJustReturn: 0)
        }
    }

    func testInputsGivenToInitAsATupleAreNamedByItsLabels() async throws {
        application.register("signup") { _, input in SignUp(input: input, minimum: 3) }
        let catalog = await application.catalog()
        let entry = try XCTUnwrap(catalog.viewModels.first { $0.name == "signup" })
        XCTAssertNil(entry.problem)
        XCTAssertEqual(entry.inputs.map(\.name), ["username", "password", "loginTaps", "help"])
        XCTAssertEqual(entry.inputs.map(\.schema), [["type": "string"], ["type": "string"], ["type": "null"], ["type": "null"]])
        XCTAssertEqual(entry.outputs.map(\.name), ["signupEnabled", "signedIn", "taps"])

        let session = try await application.createSession("signup")
        let initial = try await session.snapshot()
        XCTAssertEqual(outputs(initial)["signupEnabled"], "false")
        _ = try await session.send(input: "username", payload: Data("\"ada\"".utf8))
        let valid = try await session.send(input: "password", payload: Data("\"secret\"".utf8))
        XCTAssertEqual(outputs(valid)["signupEnabled"], "true")
        _ = try await session.send(input: "help", payload: Data())
        let helped = try await session.send(input: "help", payload: Data())
        XCTAssertEqual(outputs(helped)["taps"], "2")
    }

    func testInputsGivenToInitAsOneSequenceOrADecodableStruct() async throws {
        final class Echo {
            let echoed: Driver<String>
            init(_ words: Driver<String>) { echoed = words.map { $0.uppercased() }.startWith("") }
        }
        struct Form: Decodable { let amount: Observable<Int> }
        final class Total {
            let total: Driver<Int>
            init(_ form: Form) { total = form.amount.scan(0, accumulator: +).startWith(0).asDriver(onErrorJustReturn: 0) }
        }
        application.register("echo") { _, input in Echo(input) }
        application.register("total") { _, input in Total(input) }
        let echo = try await application.createSession("echo")
        let echoed = try await echo.send(input: "input", payload: Data("\"hi\"".utf8))
        XCTAssertEqual(outputs(echoed), ["echoed": "\"HI\""])
        let total = try await application.createSession("total")
        _ = try await total.send(input: "amount", payload: Data("2".utf8))
        let seven = try await total.send(input: "amount", payload: Data("5".utf8))
        XCTAssertEqual(outputs(seven), ["total": "7"])
    }

    /// The layout read from a tuple's metadata is Swift's own, for tuples made at
    /// compile time and by the runtime (a generic one), whose offsets are 32 bits wide off
    /// Apple platforms: a word read there took the padding for offset (a crash, once).
    func testATuplesLayoutIsReadAsSwiftLaysItOut() throws {
        typealias Mixed = (flag: Int8, count: Int64, name: Driver<String>, Signal<Void>)
        let layout = try XCTUnwrap(TupleLayout(Mixed.self))
        XCTAssertEqual(layout.elements.map(\.label), ["flag", "count", "name", nil])
        XCTAssertEqual(
            layout.elements.map(\.offset),
            [\Mixed.flag, \Mixed.count, \Mixed.name, \Mixed.3].map { MemoryLayout<Mixed>.offset(of: $0) })
        XCTAssertTrue(layout.elements[2].type == Driver<String>.self)
        func generic<T>(_: T.Type) -> [Int] { TupleLayout((first: Int8, second: T, third: Int8).self)?.elements.map(\.offset) ?? [] }
        for _ in 0..<100 {
            XCTAssertEqual(generic(Int64.self), [0, 8, 16])
            XCTAssertEqual(generic(Int16.self), [0, 2, 4])
        }
        XCTAssertNil(TupleLayout(Int.self))
        XCTAssertNil(TupleLayout(Driver<Int>.self))
    }

    func testInputsThatCannotBeMadeAreNamedWhenRegistered() {
        typealias Mixed = (name: Driver<String>, count: Int)
        XCTAssertEqual(InitInputs.problem(with: Mixed.self), "input 'count' given to init is a Int; inputs must be Observable, Signal or Driver")
        struct Opaque {}
        XCTAssertEqual(
            InitInputs.problem(with: (a: Signal<Opaque>, b: Signal<Void>).self), "input 'a' has element type Opaque, which is neither Void nor Decodable")
        XCTAssertNotNil(InitInputs.problem(with: [Driver<Int>].self))
        XCTAssertNil(InitInputs.problem(with: (Driver<Int>, Signal<Void>).self), "unlabelled elements are named by position")
        XCTAssertNotNil(InitInputs.problem(with: PublishRelay<Int>.self), "a relay is not a sequence Bindery makes")
    }

    func testPayloadErrorsNameTheField() async throws {
        let session = try await application.createSession("nested")
        await XCTAssertThrowsErrorAsync(try await session.send(input: "draft", payload: Data(#"{"title":"cups"}"#.utf8))) { error in
            XCTAssertEqual((error as? BinderyError)?.code, .invalidPayload)
            XCTAssertEqual((error as? BinderyError)?.message, "field 'count': missing")
        }
        await XCTAssertThrowsErrorAsync(try await session.send(input: "draft", payload: Data(#"{"title":"cups","count":"three"}"#.utf8))) { error in
            XCTAssertEqual((error as? BinderyError)?.message, "field 'count': expected an integer")
        }
        await XCTAssertThrowsErrorAsync(try await session.send(input: "draft", payload: Data("{nope".utf8))) { error in
            XCTAssertEqual((error as? BinderyError)?.code, .malformedJSON)
        }
        await XCTAssertThrowsErrorAsync(try await session.send(input: "draft", payload: Data())) { error in
            XCTAssertEqual((error as? BinderyError)?.code, .invalidPayload)
        }
        let unchanged = try await session.snapshot()
        XCTAssertEqual(outputs(unchanged), ["summary": "\"none × 0\""], "a bad payload changes nothing")
    }

    func testAViewModelWhoseOutputCannotBeEncodedIsRefusedAtCreation() async {
        struct Secret { let key = 42 }
        final class Opaque { let value: Driver<Secret> = .just(Secret()) }
        application.register("opaque") { _ in Opaque() }
        await XCTAssertThrowsErrorAsync(try await application.createSession("opaque")) { error in
            XCTAssertEqual((error as? BinderyError)?.code, .viewModelFailed)
        }
        XCTAssertEqual(application.sessionCount, 0)
    }

    /// The app hears of it before it serves: the probe names the ViewModel, output and type.
    func testAnOutputThatCannotBeEncodedIsAProblemOfShapeNotOfParameters() async throws {
        struct Secret { let key = 42 }
        final class Opaque { let value: Driver<Secret> = .just(Secret()) }
        struct Needed: Decodable { let id: Int }
        application.register("opaque") { _ in Opaque() }
        application.register("needs-parameters") { context in
            _ = try context.parameters(as: Needed.self)
            return PropertyViewModel()
        }
        let problems = await awaitCallback { self.application.shapeProblems($0) }
        XCTAssertEqual(problems, ["ViewModel 'opaque': output 'value' has element type Secret, which is neither Encodable nor a ViewModel"])
        let catalog = await application.catalog()
        XCTAssertEqual(catalog.viewModels.first { $0.name == "needs-parameters" }?.isMisshapen, false)
        XCTAssertNotNil(catalog.viewModels.first { $0.name == "needs-parameters" }?.problem)
    }

    func testAViewModelThatFailsHalfwayLeavesNoSubscriptionBehind() async {
        struct Secret { let key = 42 }
        final class HalfGood {
            let good: Observable<Int>
            let bad: Driver<Secret> = .just(Secret())
            init(_ source: PublishSubject<Int>) { good = source.asObservable() }
        }
        let source = PublishSubject<Int>()
        application.register("half") { _ in HalfGood(source) }
        await XCTAssertThrowsErrorAsync(try await application.createSession("half"))
        XCTAssertFalse(source.hasObservers, "the output subscribed before the failure was disposed")
        XCTAssertEqual(application.sessionCount, 0)
    }

    /// What a page's date and time fields send (ISO 8601) reads as a `Date`; so does a number,
    /// Foundation's own encoding (seconds since 2001), which values kept before are in.
    func testADateReadsFromWhatDateAndTimeFieldsSend() async throws {
        final class Due: ViewModelBinding {
            struct Input: Decodable { let due: Observable<Date> }
            struct Output {
                let seconds: Driver<Double>
                let disposable: Disposable
            }
            func bind(_ input: Input) -> Output {
                let seconds = BehaviorRelay<Double>(value: 0)
                return Output(seconds: seconds.asDriver(), disposable: input.due.map(\.timeIntervalSince1970).bind(to: seconds))
            }
        }
        application.register("due") { _ in Due() }
        let session = try await application.createSession("due")
        let cases: [(String, String)] = [
            (#""2026-11-27""#, "1795737600"), (#""2026-11-27T09:30""#, "1795771800"), (#""2026-11-27T09:30:00Z""#, "1795771800"),
            (#""2026-11-27T09:30:15.250Z""#, "1795771815.25"), (#""2026-11-27T09:30:00+01:00""#, "1795768200"),
            ("817430400", "1795737600"),
        ]
        for (json, seconds) in cases {
            let snapshot = try await session.send(input: "due", payload: Data(json.utf8))
            XCTAssertEqual(outputs(snapshot)["seconds"], seconds, json)
        }
        for bad in [#""27/11/2026""#, #""2026-13-01""#, #""2026-02-30""#, #""tomorrow""#] {
            await XCTAssertThrowsErrorAsync(try await session.send(input: "due", payload: Data(bad.utf8))) { error in
                XCTAssertEqual((error as? BinderyError)?.code, .invalidPayload, bad)
            }
        }
    }

    func testCreationParametersReachTheFactory() async throws {
        struct Parameters: Decodable { let start: String }
        application.register("named") { context -> PropertyViewModel in
            let viewModel = PropertyViewModel()
            viewModel.rename.accept(try context.parameters(as: Parameters.self).start)
            return viewModel
        }
        let session = try await application.createSession("named", parameters: Data(#"{"start":"Grace"}"#.utf8))
        let named = try await session.snapshot()
        XCTAssertEqual(outputs(named), ["name": "\"Grace\""])
        await XCTAssertThrowsErrorAsync(try await application.createSession("named", parameters: Data("{}".utf8))) { error in
            XCTAssertEqual((error as? BinderyError)?.code, .invalidPayload)
        }
    }

    func testASharedViewModelHasOneSessionForEveryone() async throws {
        application.register("shared", shared: true) { _ in PropertyViewModel() }
        let first = try await application.createSession("shared")
        let second = try await application.createSession("shared")
        XCTAssertTrue(first === second)
    }
}

final class JSONSchemaTests: XCTestCase {
    enum Mood: String, Codable, CaseIterable { case calm, busy }
    struct Address: Codable {
        let city: String
        let zip: Int?
    }
    struct Profile: Codable {
        let name: String
        let age: Int
        let score: Double
        let admin: Bool
        let mood: Mood
        let tags: [String]
        let address: Address
        let nickname: String?
    }

    func testPrimitivesOptionalsArraysAndEnums() async {
        XCTAssertEqual(JSONSchema.of(Int.self), ["type": "integer"])
        XCTAssertEqual(JSONSchema.of([Bool].self), ["type": "array", "items": ["type": "boolean"]])
        XCTAssertEqual(JSONSchema.of(String?.self), ["anyOf": [["type": "string"], ["type": "null"]]])
        XCTAssertEqual(JSONSchema.of(Mood.self), ["type": "string", "enum": ["calm", "busy"]])
        struct Row: Codable, Identifiable { let id: Int }
        // A keyed list reads whole as an array (schemathesis found `[]` where the document said an object).
        XCTAssertEqual(JSONSchema.of(KeyedList<Row>.self)["type"], "array")
        XCTAssertEqual(JSONSchema.of(KeyedList<Row>.self)["items"]?["required"], ["id"])
    }

    func testStructsBecomeObjectsWithTheirFieldsAndRequiredOnes() async {
        let schema = JSONSchema.of(Profile.self)
        XCTAssertEqual(schema["type"], "object")
        XCTAssertEqual(schema["required"], ["name", "age", "score", "admin", "mood", "tags", "address"])
        XCTAssertEqual(schema["properties"]?["mood"], ["type": "string", "enum": ["calm", "busy"]])
        XCTAssertEqual(schema["properties"]?["nickname"], ["type": "string"])
        XCTAssertEqual(schema["properties"]?["address"]?["required"], ["city"])
        XCTAssertEqual(schema["properties"]?["address"]?["properties"]?["zip"], ["type": "integer"])
    }
}

final class DeclaredOutputTests: XCTestCase {
    /// Emits on subjects, as the practical-MVVM article's HomeViewModel does.
    final class SubjectViewModel {
        let albums = PublishSubject<[String]>()
        let error = PublishSubject<String>()
        let requestData = PublishRelay<Void>()
        private let disposeBag = DisposeBag()
        init() {
            requestData.map { ["Abbey Road"] }.bind(to: albums).disposed(by: disposeBag)
            requestData.map { "offline" }.bind(to: error).disposed(by: disposeBag)
        }
    }

    func testRegistrationNamesSubjectsAsOutputsWithTheirKind() async throws {
        let application = Application()
        defer { application.stop() }
        application.register("subjects", outputs: ["albums": .driver, "error": .signal]) { _ in SubjectViewModel() }
        let catalog = await application.catalog()
        let entry = try XCTUnwrap(catalog.viewModels.first)
        XCTAssertEqual(entry.inputs.map(\.name), ["requestData"])
        XCTAssertEqual(entry.outputs.map(\.name), ["albums", "error"])
        XCTAssertEqual(entry.outputs.map(\.kind), [.driver, .signal])

        let session = try await application.createSession("subjects")
        let snapshot = try await session.send(input: "requestData", payload: Data())
        XCTAssertEqual(snapshot.outputs.map(\.name), ["albums"], "a declared driver is in the snapshot, the signal is not")
        XCTAssertEqual(snapshot.lastEventID, 2)
    }
}

/// Services: made once, on first use, a factory may use another.
final class ServicesTests: XCTestCase {
    final class Database: Sendable {}
    final class Store: Sendable {
        let database: Database
        init(_ database: Database) { self.database = database }
    }

    func testAServiceIsMadeOnceOnFirstUseAndMayUseAnother() throws {
        let services = Services()
        let made = Locked(0)
        services.register(Database.self) { _ in
            made.withLock { $0 += 1 }
            return Database()
        }
        services.register(Store.self) { services in Store(try services.get(Database.self)) }
        XCTAssertEqual(made.withLock { $0 }, 0)
        let store = try services.get(Store.self)
        XCTAssertTrue(store.database === (try services.get(Database.self)))
        XCTAssertEqual(made.withLock { $0 }, 1)
    }

    func testAMissingOrFailingServiceIsAClearError() {
        struct Broken: Error {}
        let services = Services()
        XCTAssertThrowsError(try services.get(Database.self)) { error in
            XCTAssertTrue("\(error)".contains("no service Database is registered"), "\(error)")
        }
        services.register(Store.self) { _ in throw Broken() }
        XCTAssertThrowsError(try services.get(Store.self)) { error in
            XCTAssertEqual((error as? BinderyError)?.code, .viewModelFailed)
        }
    }
}
