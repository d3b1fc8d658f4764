import Foundation

/// Serves the files of `Public/`: `GET /` is `index.html`, `GET /<file>` the file.
/// Paths that climb out of the folder or name hidden files are not found.
struct StaticFiles: Sendable {
    let directory: URL

    func respond(to request: Request) throws -> Response {
        guard let response = try file(for: request) else { throw HTTPError.notFound("no file \(request.path)") }
        return response
    }

    /// The page `route` serves, its root given `parameters` (see `PageRoute`).
    func page(_ route: PageRoute, parameters: [String: JSONValue], for request: Request) throws -> Response {
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
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else { return nil }
        var response = Response(
            status: status, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")], body: .data(data))
        response.isPage = true
        return response
    }

    /// The file `request` names, or nil if there is none.
    func file(for request: Request) throws -> Response? {
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
        return ETag.response(for: request, data: data, contentType: Self.contentType(url.pathExtension), etag: ETag.of(data))
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
