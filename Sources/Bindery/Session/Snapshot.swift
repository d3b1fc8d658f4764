import Foundation

/// A session's state at one moment: every driver's current value and the id of the last event.
public struct Snapshot: Sendable {
    /// The session id.
    public let sessionID: String
    /// The ViewModel's registered name.
    public let viewModel: String
    /// The id of the newest event the snapshot includes.
    public let lastEventID: UInt64
    /// Every driver's current value as JSON, in event order.
    public let outputs: [(name: String, json: Data)]

    /// `{"id","viewModel","lastEventId","outputs":{name: value}}`, compact.
    public var json: Data {
        var data = Data("{\"id\":".utf8)
        data.append(Self.quoted(sessionID))
        data.append(contentsOf: ",\"viewModel\":".utf8)
        data.append(Self.quoted(viewModel))
        data.append(contentsOf: ",\"lastEventId\":\(lastEventID),\"outputs\":{".utf8)
        for (index, output) in outputs.enumerated() {
            if index > 0 { data.append(UInt8(ascii: ",")) }
            data.append(Self.quoted(output.name))
            data.append(UInt8(ascii: ":"))
            data.append(output.json)
        }
        data.append(contentsOf: "}}".utf8)
        return data
    }

    private static func quoted(_ string: String) -> Data {
        (try? JSONEncoder.bindery.encode(string)) ?? Data("\"\"".utf8)
    }
}
