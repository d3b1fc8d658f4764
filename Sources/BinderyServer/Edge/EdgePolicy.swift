import Foundation

/// What every request must pass before a route sees it: a `Host` the server
/// answers to (DNS rebinding), headers that must come once coming once, and
/// for a write, a page of this very origin or no page at all (curl, scripts).
///
/// | request | answer |
/// |---|---|
/// | HTTP/1.1 without `Host`, `Host` or `Origin` twice, a `Host` that is not a host | 400 |
/// | a `Host` name not in `--allowed-hosts` (addresses always pass) | 421 `host_not_allowed` |
/// | a write with `Sec-Fetch-Site: cross-site` | 403 `cross_origin` |
/// | a write whose `Origin` differs in scheme, host or port from the request's own | 403 `cross_origin` |
struct EdgePolicy: Sendable {
    let hosts: AllowedHosts
    let proxies: TrustedProxies
    let telemetry: Telemetry

    /// Sets `request.provenance`, then throws the refusal if the request may not go on.
    func admit(_ request: inout Request) throws {
        request.provenance =
            proxies.isEmpty
            ? Provenance(client: request.peer, scheme: "http")
            : proxies.provenance(peer: request.peer, forwardedFor: request.header("x-forwarded-for"), forwardedProto: request.header("x-forwarded-proto"))
        let client = request.provenance.client
        func refuse(_ reason: Refusal, _ status: Int, _ code: String, _ message: String) -> HTTPError {
            telemetry.refused(reason, client: client, detail: message)
            return HTTPError(status: status, code: code, message: message)
        }
        for name in request.repeatedHeaders where name == "host" || name == "origin" {
            throw refuse(.malformedHeaders, 400, "duplicate_header", "the request has more than one \(name == "host" ? "Host" : "Origin") header")
        }
        // HTTP/1.0 may leave Host out: then there is no name to check, and no origin a page could match.
        var host: HostHeader?
        if let hostText = request.header("host") {
            guard let parsed = HostHeader(hostText) else {
                throw refuse(.malformedHeaders, 400, "invalid_host", "the Host header is not a host name or address with an optional port")
            }
            guard hosts.allows(parsed) else {
                throw refuse(
                    .hostNotAllowed, 421, "host_not_allowed",
                    "this server does not answer to the host '\(parsed.name)'; start it with --allowed-hosts naming it if it should")
            }
            host = parsed
        } else if request.version == "HTTP/1.1" {
            throw refuse(.malformedHeaders, 400, "missing_host", "an HTTP/1.1 request must have a Host header")
        }
        guard request.isWrite else { return }
        if request.header("sec-fetch-site")?.lowercased() == "cross-site" {
            throw refuse(.crossOrigin, 403, "cross_origin", "writes from pages of other sites are not allowed")
        }
        // A write its browser's sign-in authenticates says where it comes from: a browser sends
        // Origin with every POST, so one without it did not come from this site's pages.
        if request.signInToken != nil, request.header("origin") == nil, request.header("sec-fetch-site")?.lowercased() != "same-origin" {
            throw refuse(.crossOrigin, 403, "cross_origin", "a write with a sign-in cookie must say its Origin")
        }
        if let origin = request.header("origin") {
            let scheme = request.provenance.scheme
            guard let host, let from = Self.origin(origin), from == Self.normalized(scheme: scheme, host) else {
                throw refuse(
                    .crossOrigin, 403, "cross_origin",
                    "writes from origin \(origin) are not allowed here (only from \(scheme)://\(request.header("host") ?? "this server's host"))")
            }
        }
    }

    /// An origin, `scheme://host[:port]`, with the scheme's default port filled in; nil if it is not one (`null`).
    static func origin(_ text: String) -> Origin? {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https", let host = HostHeader(String(text[separator.upperBound...])) else { return nil }
        return normalized(scheme: scheme, host)
    }

    private static func normalized(scheme: String, _ host: HostHeader) -> Origin {
        Origin(scheme: scheme, host: host.name, port: host.port ?? (scheme == "https" ? 443 : 80))
    }

    /// A web origin: what a page's `Origin` header names.
    struct Origin: Equatable {
        let scheme: String
        let host: String
        let port: Int
    }
}
