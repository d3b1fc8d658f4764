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
/// `127.0.0.1`, `[::1]:8080`. Parsed from its bytes: it is read on every request.
struct HostHeader: Equatable {
    /// The name or address, lower-cased, without a trailing dot; an IPv6 address without its brackets.
    let name: String
    /// The port, if one was given.
    let port: Int?
    /// Whether `name` is an IP address rather than a name.
    let isIPAddress: Bool

    /// Parses `text`; nil if it is not a host with an optional port.
    init?(_ text: String) {
        var text = text
        guard let host = text.withUTF8(Self.parse) else { return nil }
        self = host
    }

    private init(name: String, port: Int?, isIPAddress: Bool) {
        self.name = name
        self.port = port
        self.isIPAddress = isIPAddress
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> HostHeader? {
        guard !bytes.isEmpty, bytes.count <= 300 else { return nil }
        var end = bytes.count
        var port: Int?
        if bytes[0] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            if close + 1 < bytes.count {
                guard bytes[close + 1] == UInt8(ascii: ":"), let number = number(bytes[(close + 2)...]) else { return nil }
                port = number
            }
            let address = String(decoding: bytes[1..<close], as: UTF8.self).lowercased()
            guard isIPv6(address) else { return nil }
            return HostHeader(name: address, port: port, isIPAddress: true)
        }
        if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
            guard let number = number(bytes[(colon + 1)...]) else { return nil }
            port = number
            end = colon
        }
        if end > 0, bytes[end - 1] == UInt8(ascii: ".") { end -= 1 }
        let name = UnsafeBufferPointer(rebasing: bytes[0..<end])
        switch dottedQuad(name) {
        case true?: return HostHeader(name: String(decoding: name, as: UTF8.self), port: port, isIPAddress: true)
        case false?: return nil
        case nil: break
        }
        guard isHostName(name) else { return nil }
        let text = String(decoding: name, as: UTF8.self)
        let hasUpper = name.contains { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
        return HostHeader(name: hasUpper ? text.lowercased() : text, port: port, isIPAddress: false)
    }

    /// Whether `bytes`, all digits and dots, are an IPv4 address (four numbers
    /// 0–255 without leading zeros, as `inet_pton` takes them); nil if they are not all digits and dots.
    private static func dottedQuad(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        var parts = 0, digits = 0, value = 0, leadingZero = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard digits > 0 else { return false }
                parts += 1
                (digits, value, leadingZero) = (0, 0, false)
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            if digits == 0, byte == UInt8(ascii: "0") { leadingZero = true } else if leadingZero { return false }
            digits += 1
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            if value > 255 { return false }
        }
        return parts == 3 && digits > 0
    }

    /// 0–65535 in decimal, all of `digits`.
    private static func number(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard (1...5).contains(digits.count) else { return nil }
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value <= 65_535 ? value : nil
    }

    /// Letters, digits, `-` and `_` in dot-separated labels of 1–63 characters.
    static func isHostName(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isHostName)
    }

    private static func isHostName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        var label = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard label > 0 else { return false }
                label = 0
                continue
            }
            label += 1
            guard label <= 63, URLSafeName.allows(byte) else { return false }
        }
        return label > 0
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
