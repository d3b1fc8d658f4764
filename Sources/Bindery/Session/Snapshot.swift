import Foundation

/// A session's state at one moment: every driver's current value and the id of the last event.
package struct Snapshot: Sendable {
    /// The session id.
    package let sessionID: String
    /// The ViewModel's registered name.
    package let viewModel: String
    /// The id of the newest event the snapshot includes.
    package let lastEventID: UInt64
    /// Every driver's current value as JSON, in event order.
    package let outputs: [(name: String, json: Data)]
    /// Whether it answers a repeat of an input that was applied before (`Idempotency-Key`), not the input itself.
    package var isReplay = false
    /// What the input asked of the browser that sent it (`BrowserSignIn`), for the server to do as it answers.
    package var browser: BrowserIntent?
    /// Where the page that sent the input goes once it is answered (`BrowserSignIn.go(to:)`).
    package var location: String?

    /// `{"id","viewModel","lastEventId","outputs":{name: value}}`, compact.
    package var json: Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + sessionID.utf8.count + viewModel.utf8.count + outputs.reduce(0) { $0 + $1.name.utf8.count + $1.json.count + 4 })
        bytes.append(utf8: #"{"id":"#)
        JSONText.appendQuoted(sessionID, to: &bytes)
        bytes.append(utf8: #","viewModel":"#)
        JSONText.appendQuoted(viewModel, to: &bytes)
        bytes.append(utf8: #","lastEventId":"#)
        bytes.append(decimal: lastEventID)
        bytes.append(utf8: #","outputs":{"#)
        for (index, output) in outputs.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(output.name, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            // Through its buffer: appending `Data` as a sequence goes byte by byte.
            output.json.withUnsafeBytes { bytes.append(contentsOf: $0) }
        }
        bytes.append(utf8: "}}")
        return Data(bytes)
    }
}
