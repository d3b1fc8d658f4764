import Bindery
import Foundation

/// The names the server answers to in `Host`: the defence against DNS
/// rebinding, where a page of another site, its name pointed at this machine,
/// would reach the server as that site and read and drive its sessions.
///
/// A host given as an IP address is always allowed: a page can have that
/// origin only if it was served from that address, so no other site can
/// borrow it. A name must be listed: `localhost` exactly, `.localhost` for
/// it and every name under it, `*` for any name (behind a proxy that checks
/// names itself).
struct AllowedHosts: Sendable, Equatable {
    /// What a server bound to loopback answers to when none are named.
    static let loopback = AllowedHosts(["localhost", ".localhost"])

    /// The patterns, lower-cased.
    let patterns: [String]

    init(_ patterns: [String]) {
        self.patterns = patterns.map { $0.lowercased() }
    }

    /// `--allowed-hosts a,.b,*`: names separated by commas; throws on one that is not a host name.
    init(parsing text: String) throws {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { throw HostProblem("name at least one host, or * for any") }
        for name in names where name != "*" {
            let bare = name.hasPrefix(".") ? String(name.dropFirst()) : name
            guard HostHeader.isHostName(bare) || HostHeader.isIPAddress(bare) else {
                throw HostProblem("'\(name)' is not a host name (example.com, .example.com for it and its subdomains, or *)")
            }
        }
        self.init(names)
    }

    /// Whether the server answers to `host` (lower-cased, without its port).
    func allows(_ host: HostHeader) -> Bool {
        if host.isIPAddress { return true }
        return patterns.contains { pattern in
            if pattern == "*" || pattern == host.name { return true }
            guard pattern.hasPrefix(".") else { return false }
            return host.name == pattern.dropFirst() || host.name.hasSuffix(pattern)
        }
    }

    /// The list as `--allowed-hosts` takes it.
    var description: String { patterns.joined(separator: ",") }
}

struct HostProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A `Host` header's (or an origin's) name and port: `example.com:8080`,
/// `127.0.0.1`, `[::1]:8080`.
struct HostHeader: Equatable {
    /// The name or address, lower-cased, without a trailing dot; an IPv6 address without its brackets.
    let name: String
    /// The port, if one was given.
    let port: Int?
    /// Whether `name` is an IP address rather than a name.
    let isIPAddress: Bool

    /// Parses `text`; nil if it is not a host with an optional port.
    init?(_ text: String) {
        var host = Substring(text.lowercased())
        var port: Int?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()), (0...65_535).contains(number) else { return nil }
                port = number
            }
            host = host[host.index(after: host.startIndex)..<close]
            guard Self.isIPv6(String(host)) else { return nil }
            (name, self.port, isIPAddress) = (String(host), port, true)
            return
        }
        if let colon = host.lastIndex(of: ":") {
            guard let number = Int(host[host.index(after: colon)...]), (0...65_535).contains(number) else { return nil }
            port = number
            host = host[..<colon]
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        let name = String(host)
        if Self.isIPv4(name) {
            (self.name, self.port, isIPAddress) = (name, port, true)
        } else if Self.isHostName(name) {
            (self.name, self.port, isIPAddress) = (name, port, false)
        } else {
            return nil
        }
    }

    /// Letters, digits, `-` and `_` in dot-separated labels of 1–63 characters.
    static func isHostName(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        return text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            (1...63).contains(label.utf8.count) && URLSafeName.allows(label)
        }
    }

    static func isIPAddress(_ text: String) -> Bool {
        isIPv4(text) || isIPv6(text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text)
    }

    static func isIPv4(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }

    static func isIPv6(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }
}
