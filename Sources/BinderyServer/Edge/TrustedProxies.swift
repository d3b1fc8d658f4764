import Foundation

/// The proxies whose word about the client is taken (`--trusted-proxies`):
/// addresses or networks (`10.0.0.0/8`, `::1`). A request from one of them
/// is counted against the client named in `X-Forwarded-For` (the nearest
/// address that is not itself a trusted proxy) and is `https` if
/// `X-Forwarded-Proto` says so; from anyone else those headers are ignored,
/// so a client cannot pick the address its limits are counted by.
struct TrustedProxies: Sendable, Equatable {
    private struct Network: Sendable, Equatable {
        let bytes: [UInt8]
        let prefixLength: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var remaining = prefixLength
            for (mine, theirs) in zip(bytes, address) where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if mine & mask != theirs & mask { return false }
                remaining -= bits
            }
            return true
        }
    }

    private let networks: [Network]

    /// No proxy is trusted.
    static let none = TrustedProxies(networks: [])

    private init(networks: [Network]) { self.networks = networks }

    /// `10.0.0.1,10.1.0.0/16,::1`; throws on an entry that is not an address or network.
    init(parsing text: String) throws {
        var networks: [Network] = []
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
            guard let bytes = Self.bytes(of: parts[0]) else {
                throw HostProblem("'\(entry)' is not an IP address or network (10.0.0.1, 10.0.0.0/8, ::1)")
            }
            let length = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let length, (0...(bytes.count * 8)).contains(length) else {
                throw HostProblem("'\(entry)': the prefix length must be 0–\(bytes.count * 8)")
            }
            networks.append(Network(bytes: bytes, prefixLength: length))
        }
        self.init(networks: networks)
    }

    /// Whether no proxy is trusted.
    var isEmpty: Bool { networks.isEmpty }

    /// Whether `address` is a trusted proxy.
    func contains(_ address: String) -> Bool {
        guard !networks.isEmpty, let bytes = Self.bytes(of: address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// Who sent a request that came from `peer` with `forwardedFor` and `forwardedProto`.
    func provenance(peer: String, forwardedFor: String?, forwardedProto: String?) -> Provenance {
        guard contains(peer) else { return Provenance(client: peer, scheme: "http") }
        var client = peer
        if let forwardedFor {
            // Each proxy appends the address it heard from: the nearest untrusted one is the client.
            for hop in forwardedFor.split(separator: ",").reversed() {
                let address = hop.trimmingCharacters(in: .whitespaces)
                guard Self.bytes(of: address) != nil else { break }
                client = address
                if !contains(address) { break }
            }
        }
        let scheme = forwardedProto?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces).lowercased() == "https" ? "https" : "http"
        return Provenance(client: client, scheme: scheme, isTrustedProxy: true)
    }

    /// The bytes of an IPv4 or IPv6 address, or nil.
    private static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
