import Bindery
import BinderyAccounts
import Foundation

/// Seed data, so that a fresh server shows a populated home page: a few users
/// (each with the password `conduit-seed`), 60 articles with tags, comments,
/// favorites and follows. The same every time (a seeded generator); it adds
/// nothing to a database that has users already.
public enum Seed {
    public static let password = "conduit-seed"

    /// Seeds `store` and `accounts`; how many articles it wrote (0 if there were users already).
    @discardableResult
    public static func run(store: any ConduitStore, accounts: Accounts, articles count: Int = 60) async throws -> Int {
        guard try await store.isFree(username: "eric-simons") else { return 0 }
        var random = Generator(seed: 20_261_127)
        let names = ["eric-simons", "albert-pai", "grace-hopper", "ada-lovelace", "linus-t", "margaret-h", "alan-kay", "barbara-l"]
        var users: [String] = []
        for name in names {
            let identity = try await accounts.register(login: "\(name)@conduit.example", password: password)
            try await store.addUser(id: identity.id, username: name, email: "\(name)@conduit.example")
            try await store.update(user: identity.id, username: name, bio: "\(name.split(separator: "-").first!.capitalized) writes about software.", image: "")
            users.append(identity.id)
        }
        let tags = ["swift", "rxswift", "realworld", "implementations", "web", "databases", "testing", "design", "linux", "performance"]
        let subjects = [
            "How to build webapps that scale", "The song you won't ever stop singing", "Reactive streams on a server",
            "What a ViewModel is for", "SQLite in production", "Testing what a user sees", "A cluster behind nginx",
            "Markdown, safely", "Sessions that survive a deploy", "The first paint",
        ]
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        var slugs: [String] = []
        for index in 0..<count {
            let title = "\(subjects[index % subjects.count]) (\(index / subjects.count + 1))"
            let picked = (0..<(1 + random.next(3))).map { _ in tags[random.next(tags.count)] }
            let body = """
                ## \(title)

                This is article \(index + 1) of the seed. It has **bold** words, *emphasis*, a [link](https://github.com/gothinkster/realworld) and code:

                ```swift
                let answer = \(index)
                ```

                - one point
                - another point
                """
            let slug = try await store.create(
                by: users[random.next(users.count)],
                ArticleDraft(title: title, description: "What \(title.lowercased()) is about.", body: body, tags: picked.joined(separator: " ")),
                at: start.addingTimeInterval(Double(index) * 3_600))
            slugs.append(slug)
            for comment in 0..<random.next(4) {
                try await store.comment(on: slug, by: users[random.next(users.count)], "Comment \(comment + 1): well put.", at: start.addingTimeInterval(Double(index) * 3_600 + 60))
            }
        }
        for user in users {
            for _ in 0..<6 { try await store.favorite(slugs[random.next(slugs.count)], by: user, true) }
        }
        for (index, user) in users.enumerated() {
            try await store.follow(names[(index + 1) % names.count], by: user, true)
        }
        return count
    }

    /// A small, seeded generator (SplitMix64), so the seed is the same everywhere.
    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }
}
