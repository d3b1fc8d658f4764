import Bindery
import Foundation

/// Serves the files of `Public/`: `GET /` is `index.html`, `GET /<file>` the file.
/// Paths that climb out of the folder or name hidden files are not found.
/// Scripts, stylesheets and the like go compressed where the browser accepts it
/// (Brotli or gzip), each version compressed once and kept while the file is
/// unchanged; pages go as they are (most are written per request, and a page's
/// secrets beside what a request reflects are not for a compressor: BREACH).
struct StaticFiles: Sendable {
    let directory: URL
    /// The compressed versions made so far, by path (a file that changed is compressed again).
    private let encoded = EncodedBodies()

    init(directory: URL) { self.directory = directory }

    func respond(to request: Request) throws -> Response {
        guard let response = try file(for: request) else { throw HTTPError.notFound("no file \(request.path)") }
        return response
    }

    /// The page `route` serves, its root given `parameters` (see `PageRoute`).
    func page(_ route: PageRoute, parameters: [String: JSONValue], for request: Request) throws -> Response {
        assertNotIn(.connectionLock, "a file's read")
        guard request.method == "GET" || request.method == "HEAD" else {
            throw HTTPError.methodNotAllowed(request.method, allowed: ["GET", "HEAD"])
        }
        let url = directory.appendingPathComponent(route.file)
        guard let file = FileManager.default.contents(atPath: url.path) else {
            throw HTTPError(status: 500, code: "page_missing", message: "the page's file \(route.file) is not in the public folder")
        }
        guard let data = route.render(file, parameters: parameters) else {
            throw HTTPError(status: 500, code: "page_missing", message: "\(route.file) has no root of data-bindery=\"\(route.viewModel)\"")
        }
        return ETag.response(for: request, data: data, contentType: Self.contentType(url.pathExtension), etag: ETag.of(data))
    }

    /// The app's own page for a path it has nothing at (`404.html` in the public folder), if it has one.
    func notFoundPage() -> Response? { ownPage("404.html", status: 404) }

    /// The app's own page for a page the server failed to make (`500.html`), if it has one, with `status`.
    func errorPage(status: Int) -> Response? { ownPage("500.html", status: status) }

    /// The app's page `name` (`403.html`) with `status`, if it has one.
    func ownPage(_ name: String, status: Int) -> Response? {
        assertNotIn(.connectionLock, "a file's read")
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else { return nil }
        var response = Response(
            status: status, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")], body: .data(data))
        response.isPage = true
        return response
    }

    /// The file `request` names, or nil if there is none.
    func file(for request: Request) throws -> Response? {
        assertNotIn(.connectionLock, "a file's read")
        guard request.method == "GET" || request.method == "HEAD" else {
            throw HTTPError.methodNotAllowed(request.method, allowed: ["GET", "HEAD"])
        }
        var parts = request.segments
        if parts.isEmpty || request.path.hasSuffix("/") { parts.append("index.html") }
        guard !parts.contains(where: { $0.hasPrefix(".") || $0.contains("\\") || $0.contains("\0") }) else { return nil }
        var url = directory
        for part in parts { url.appendPathComponent(part) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            url.appendPathComponent("index.html")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let contentType = Self.contentType(url.pathExtension)
        let etag = ETag.of(data)
        let body = contentType.hasPrefix("text/html") ? nil : encoded.body(url.path, data: data, etag: etag, contentType: contentType)
        return ETag.response(for: request, data: data, contentType: contentType, etag: etag, encoded: body)
    }

    static func contentType(_ pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "html": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "json": return "application/json; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "ico": return "image/x-icon"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}

/// The app's files' compressed versions, by path, at most `limit` files of at most
/// `largest` bytes each: past the limit they start over (each is only a saving).
final class EncodedBodies: Sendable {
    private let bodies = Locked<[String: EncodedBody]>([:])
    static let limit = 512
    static let largest = 4 << 20

    func body(_ path: String, data: Data, etag: String, contentType: String) -> EncodedBody? {
        guard EncodedBody.compresses(contentType), data.count <= Self.largest, data.count >= 256 else { return nil }
        return bodies.withLock { bodies in
            if let known = bodies[path], known.etag == etag { return known }
            if bodies.count >= Self.limit { bodies.removeAll() }
            let made = EncodedBody(data: data, etag: etag)
            bodies[path] = made
            return made
        }
    }
}
