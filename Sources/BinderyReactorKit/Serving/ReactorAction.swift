import Bindery
import Foundation

/// One of a reactor's actions as a served input: `POST …/inputs/<name>` sends the
/// action, built from the request's payload. The name is the case's name unless given.
///
/// ```swift
/// app.register("tasks", actions: [
///     .send(.refresh),                                  // input "refresh", no payload
///     .send(TaskListViewReactor.Action.deleteTask),     // input "deleteTask", payload an IndexPath
///     .send(TaskListViewReactor.Action.moveTask),       // input "moveTask", payload [from, to]
/// ]) { _ in TaskListViewReactor(provider: provider) }
/// ```
public struct ReactorAction<Action> {
    /// The input's name.
    public let name: String
    private let makePort: (_ name: String, _ send: @escaping (Action) -> Void) throws -> InputPort

    private init(name: String, makePort: @escaping (String, @escaping (Action) -> Void) throws -> InputPort) {
        self.name = name
        self.makePort = makePort
    }

    /// The input port that sends to `send`.
    func port(sendingTo send: @escaping (Action) -> Void) throws -> InputPort {
        try makePort(name, send)
    }

    /// An input with no payload that sends `action`, named after its case (or `name`).
    public static func send(_ action: Action, as name: String? = nil) -> ReactorAction {
        ReactorAction(name: name ?? caseName(action)) { name, send in
            try InputPort(name: name, Void.self) { _ in send(action) }
        }
    }

    /// An input whose payload is the case's value, named after the case (or `name`).
    public static func send<Payload: Decodable>(_ make: @escaping (Payload) -> Action, as name: String? = nil) -> ReactorAction {
        ReactorAction(name: name ?? caseName(of: make)) { name, send in
            try InputPort(name: name, Payload.self) { send(make($0)) }
        }
    }

    /// An input whose payload is the case's two values as a JSON array `[a, b]`.
    public static func send<A: Decodable, B: Decodable>(_ make: @escaping (A, B) -> Action, as name: String? = nil) -> ReactorAction {
        ReactorAction(name: name ?? caseName(of: make)) { name, send in
            try InputPort(name: name, Pair<A, B>.self) { send(make($0.first, $0.second)) }
        }
    }

    /// The case name of `action`: an enum case's own, whatever its description says.
    static func caseName(_ action: Action) -> String {
        let mirror = Mirror(reflecting: action)
        if let label = mirror.children.first?.label, mirror.displayStyle == .enum { return label }
        // A case without a payload has no child; its name is how Swift prints it.
        var name = ""
        Swift.print(action, terminator: "", to: &name)
        if action is CustomStringConvertible || action is CustomDebugStringConvertible {
            preconditionFailure("\(Action.self) prints itself its own way: name the input of \(name) with `as:`")
        }
        return name
    }

    /// The case name `make` builds, learnt by building one from stand-in values.
    private static func caseName<A: Decodable, B: Decodable>(of make: (A, B) -> Action) -> String {
        guard let first = standInValue(of: A.self), let second = standInValue(of: B.self) else {
            preconditionFailure("no stand-in values of \(A.self) and \(B.self) to learn the case \(Action.self) makes of them: name the input with `as:`")
        }
        return caseName(make(first, second))
    }

    /// The case name `make` builds, learnt by building one from a stand-in payload.
    private static func caseName<Payload: Decodable>(of make: (Payload) -> Action) -> String {
        guard let standIn = standInValue(of: Payload.self) else {
            preconditionFailure("no stand-in value of \(Payload.self) to learn the case \(Action.self) makes of it: name the input with `as:`")
        }
        return caseName(make(standIn))
    }
}

/// Two values sent as a JSON array: a case with two associated values.
struct Pair<A: Decodable, B: Decodable>: Decodable {
    let first: A
    let second: B

    init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        first = try container.decode(A.self)
        second = try container.decode(B.self)
    }
}
