import Foundation

/// A file a person sent to an input, streamed to disk by the server before the
/// input's turn: declare the input as `Observable<Upload>` (or a `Signal`,
/// `Driver`) and allow it on the server (`app.upload("avatar", of: "settings",
/// maxBytes: 2_000_000, contentTypes: ["image/png", "image/jpeg"])`).
///
/// The file is the input's to read or keep until its answer: read it
/// (`data()`, or `url` with a `FileHandle`) or `move(to:)` a place of the app's
/// in the input's turn, or in work that holds the answer (`AnswerHold`). Once
/// the input is answered, a file still where it arrived is deleted.
///
/// Over JSON (`{"bindery.upload": "<token>"}`) an upload names a file the
/// server received on this process; a token it did not give out is refused, so
/// a client cannot name a file of its choosing.
public struct Upload: Decodable, Sendable, Equatable, JSONSchemaProviding {
    /// The file's name on the sender's machine (`photo.png`): its last path
    /// component, control characters removed; "" if it sent none.
    public let filename: String
    /// The media type the sender declared (`image/png`), checked against the
    /// input's allow-list; not the content's: a file can lie about it.
    public let contentType: String
    /// Its size in bytes.
    public let size: Int
    /// Where it is until the input is answered.
    public let url: URL
    /// A hash of its bytes: a repeat of the input with its `Idempotency-Key` is the same input if it brings the same file.
    package let digest: UInt64

    package init(filename: String, contentType: String, size: Int, url: URL, digest: UInt64 = 0) {
        self.filename = filename
        self.contentType = contentType
        self.size = size
        self.url = url
        self.digest = digest
    }

    /// The file's bytes, all at once (fine for what the input's limit lets in).
    public func data() throws -> Data {
        try Data(contentsOf: url)
    }

    /// Moves the file to `destination` (replacing nothing: it throws if something is
    /// there), where it stays once the input is answered.
    public func move(to destination: URL) throws {
        try FileManager.default.moveItem(at: url, to: destination)
    }

    private enum Key: String, CodingKey { case token = "bindery.upload" }

    public init(from decoder: Decoder) throws {
        let container: KeyedDecodingContainer<Key>
        let token: String
        do {
            container = try decoder.container(keyedBy: Key.self)
            token = try container.decode(String.self, forKey: .token)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "an upload is sent as the file itself (its own Content-Type), not as JSON"))
        }
        guard let upload = UploadedFiles.shared.upload(token) else {
            throw DecodingError.dataCorruptedError(forKey: .token, in: container, debugDescription: "no upload of that token on this server")
        }
        self = upload
    }

    public static var jsonSchema: JSONValue {
        ["type": "string", "format": "binary", "x-bindery-upload": true, "description": "the file itself, as the request's body with its Content-Type"]
    }
}

/// The files the server has received for inputs whose answers are still to come,
/// by the token their payload names. Thread-safe.
package final class UploadedFiles: Sendable {
    package static let shared = UploadedFiles()
    private let files = Locked<[String: Upload]>([:])

    /// Registers `upload` for the input it came with; the token its payload names.
    package func register(_ upload: Upload) -> String {
        let token = SessionID.make() + SessionID.make()
        files.withLock { $0[token] = upload }
        return token
    }

    package func upload(_ token: String) -> Upload? { files.withLock { $0[token] } }

    /// The input was answered (or never will be): forget the token, and delete the
    /// file unless the ViewModel moved it.
    package func finish(_ token: String) {
        guard let upload = files.withLock({ $0.removeValue(forKey: token) }) else { return }
        try? FileManager.default.removeItem(at: upload.url)
    }
}

/// The payload an input receives for an upload: the token of its file.
package enum UploadPayload {
    private static let prefix = Array(#"{"bindery.upload":""#.utf8)

    package static func json(token: String) -> Data { Data(#"{"bindery.upload":"\#(token)"}"#.utf8) }

    /// What an input's `Idempotency-Key` compares of `payload`: for an upload its file
    /// (size and digest), which a repeat brings again under another token; else the payload.
    package static func identity(of payload: Data) -> Data {
        guard payload.count > prefix.count + 2, payload.starts(with: prefix) else { return payload }
        let token = String(decoding: payload.dropFirst(prefix.count).dropLast(2), as: UTF8.self)
        guard let upload = UploadedFiles.shared.upload(token) else { return payload }
        return Data("bindery.upload:\(upload.size):\(upload.digest)".utf8)
    }
}
