import Foundation

/// The browser client that ships with Bindery (`bindery.js`, the inspector,
/// the stylesheet), served by every app under `/_bindery/v1/`.
///
/// `v1` is the client's protocol version: it changes when a page written for
/// one client would break with the next. Within a version the files a page
/// names (`bindery.js`, `style.css`) are revalidated (`Cache-Control: no-cache`
/// with an `ETag`, so an unchanged file costs a 304 and no body), and the
/// modules `bindery.js` imports are content-addressed: it is served importing
/// them from `/_bindery/v1/<digest>/` (`digest`: of every file), where they
/// are cached for good (`immutable`), so a page loads them without asking again
/// and a new release, whose digest differs, is never served from an old one's.
/// A file of the same path in the app's own public folder wins, so an app can
/// pin or patch its client.
///
/// The files are read once, at start, from the resource bundle SwiftPM puts
/// next to the executable; if it is missing the server still runs and these
/// paths answer 404 with the reason.
struct ClientFiles: Sendable {
    /// The path under which the client is served.
    static let prefix = "_bindery"
    static let version = "v1"

    struct File: Sendable {
        let data: Data
        let contentType: String
        let etag: String
        /// Its compressed versions, made the first time a browser accepts each.
        let encoded: EncodedBody?
    }

    private let files: [String: File]
    /// `bindery.js` as served at its own path: importing its modules from under `digest`.
    private let entry: File?
    /// Where the files were looked for, when they were not found.
    private let missing: String?
    /// Of every file's name and bytes: the folder the modules are cached for good under.
    let digest: String

    init(directory: URL? = ClientFiles.bundledDirectory()) {
        guard let directory,
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else {
            files = [:]
            entry = nil
            digest = "0"
            missing = "the client's files (Bindery_BinderyServer.resources) are not installed next to the executable"
            return
        }
        var files: [String: File] = [:]
        for name in names where !name.hasPrefix(".") {
            let url = directory.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            let contentType = StaticFiles.contentType(url.pathExtension), etag = ETag.of(data)
            let encoded = EncodedBody.compresses(contentType) && !contentType.hasPrefix("text/html") ? EncodedBody(data: data, etag: etag) : nil
            files[name] = File(data: data, contentType: contentType, etag: etag, encoded: encoded)
        }
        self.files = files
        missing = nil
        var all = Data()
        for name in files.keys.sorted() { all += Data(name.utf8) + [0] + files[name]!.data }
        let digest = String(ETag.of(all).dropFirst().dropLast())
        self.digest = digest
        entry = files["bindery.js"].map { file in
            // `from "./binding.js"` → `from "./<digest>/binding.js"`: its imports resolve under the digest, and theirs too.
            let source = String(decoding: file.data, as: UTF8.self).replacingOccurrences(of: #"from "./"#, with: #"from "./\#(digest)/"#)
            let data = Data(source.utf8), etag = ETag.of(data)
            return File(data: data, contentType: file.contentType, etag: etag, encoded: EncodedBody(data: data, etag: etag))
        }
    }

    /// The modules `bindery.js` imports, directly or not: a page the server renders asks for
    /// them all at once (`<link rel="modulepreload">`), rather than one import's round trip
    /// after another's. (A test holds this to the files' own imports.)
    static let modules = ["binding.js", "changes.js", "dom.js", "feeds.js", "kinds.js", "navigation.js", "notice.js", "sanitize.js"]

    /// The bytes of the client's file `name`, if it is there.
    func data(named name: String) -> Data? { files[name]?.data }

    /// The answer to `GET /_bindery/<version>/<name>`.
    func respond(to request: Request, path: ArraySlice<String>) throws -> Response {
        guard request.method == "GET" || request.method == "HEAD" else {
            throw HTTPError.methodNotAllowed(request.method, allowed: ["GET", "HEAD"])
        }
        guard (2...3).contains(path.count), path.first == Self.version, let file = files[path.last!] else {
            throw HTTPError.notFound(missing ?? "no client file \(request.path) (this server serves /\(Self.prefix)/\(Self.version)/)")
        }
        if path.count == 3 {
            // Under this release's digest: the same bytes for good. Under another's (a page open
            // across a deploy): this release's file, revalidated, never cached as that one.
            let current = path[path.startIndex + 1] == digest
            return ETag.response(
                for: request, data: file.data, contentType: file.contentType, etag: file.etag, encoded: file.encoded,
                cacheControl: current ? "public, max-age=31536000, immutable" : "no-cache")
        }
        let served = path.last == "bindery.js" ? entry ?? file : file
        return ETag.response(for: request, data: served.data, contentType: served.contentType, etag: served.etag, encoded: served.encoded)
    }

    /// Bindery's icon, for `/favicon.ico` where the app has none of its own (a browser
    /// asks for it on every site, and would log a 404 for each page).
    func favicon(for request: Request) throws -> Response? {
        guard let file = files["favicon.svg"] else { return nil }
        guard request.method == "GET" || request.method == "HEAD" else {
            throw HTTPError.methodNotAllowed(request.method, allowed: ["GET", "HEAD"])
        }
        return ETag.response(for: request, data: file.data, contentType: file.contentType, etag: file.etag, encoded: file.encoded)
    }

    /// The folder of the client's files in the resource bundle: next to the
    /// executable (or the test bundle), where SwiftPM and the Dockerfile put it.
    static func bundledDirectory() -> URL? {
        let bundleName = "Bindery_BinderyServer.resources"
        var candidates = [Bundle.main.bundleURL]
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        for folder in candidates {
            let directory = folder.appendingPathComponent(bundleName).appendingPathComponent("Client")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return directory
            }
        }
        return nil
    }
}

/// Validators for static bodies: a strong `ETag` from the bytes, and 304 when
/// the client's `If-None-Match` names it.
enum ETag {
    /// `"<16 hex digits>"`: FNV-1a over the bytes, enough to tell versions of a file apart.
    static func of(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// 200 with the body, or 304 without it if the client already has this version; the
    /// body compressed as the client accepts, where `encoded` has its compressed versions
    /// (`Content-Encoding`, `Vary: Accept-Encoding`, an `ETag` of its own for each).
    static func response(
        for request: Request, data: Data, contentType: String, etag: String, encoded: EncodedBody? = nil, cacheControl: String = "no-cache"
    ) -> Response {
        let chosen = encoded?.negotiate(request.header("accept-encoding"))
        let tag = encoded?.etag(for: chosen?.0) ?? etag
        var headers = [("ETag", tag), ("Cache-Control", cacheControl)]
        if encoded != nil { headers.append(("Vary", "Accept-Encoding")) }
        var response: Response
        if let tags = request.header("if-none-match"),
            tags.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == tag || $0.trimmingCharacters(in: .whitespaces) == "*" })
        {
            response = .empty(status: 304, headers: headers)
        } else {
            if let (encoding, _) = chosen { headers.append(("Content-Encoding", encoding.rawValue)) }
            response = Response(status: 200, headers: [("Content-Type", contentType)] + headers, body: .data(chosen?.1 ?? data))
        }
        response.isPage = contentType.hasPrefix("text/html")
        return response
    }
}
