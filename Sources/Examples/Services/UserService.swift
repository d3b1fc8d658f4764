import Bindery
import Foundation

/// A user of the profile example.
struct User: Codable, Equatable {
    let id: Int
    let name: String
    var followers: Int
    var isFollowed: Bool
}

/// Why following failed.
struct UserServiceError: Error, Equatable, CustomStringConvertible {
    let description: String
}

/// Users and following, with simulated latency. Some users refuse new
/// followers, so the failure path can be seen. The users are in a relay the
/// app may keep (`Application.keptRelay`), so that who follows whom survives
/// a restart as it would on a real server.
final class UserService {
    /// The users at first.
    static let initialUsers: [Int: User] = [
        1: User(id: 1, name: "Ada Lovelace", followers: 1815, isFollowed: false),
        2: User(id: 2, name: "Grace Hopper", followers: 1906, isFollowed: false),
        3: User(id: 3, name: "Private Account", followers: 0, isFollowed: false),
    ]

    private let scheduler: SchedulerType
    private let latency: RxTimeInterval
    /// Orders each change's read and write.
    private let lock = NSLock()
    private let users: SessionRelay<[Int: User]>
    /// Users who refuse new followers.
    private let refusing: Set<Int> = [3]

    init(scheduler: SchedulerType, latency: RxTimeInterval, users: SessionRelay<[Int: User]> = SessionRelay(value: UserService.initialUsers)) {
        self.scheduler = scheduler
        self.latency = latency
        self.users = users
    }

    func user(id: Int) -> Observable<User> {
        delayed(latency, on: scheduler) { [self] in
            guard let user = users.value[id] else { throw UserServiceError(description: "There is no user \(id).") }
            return user
        }
    }

    func setFollowing(_ following: Bool, userID: Int) -> Observable<User> {
        delayed(latency, on: scheduler) { [self] in
            try lock.withLock {
                guard var user = users.value[userID] else { throw UserServiceError(description: "There is no user \(userID).") }
                if following, refusing.contains(userID) { throw UserServiceError(description: "\(user.name) does not accept new followers.") }
                if user.isFollowed != following {
                    user.isFollowed = following
                    user.followers += following ? 1 : -1
                    var all = users.value
                    all[userID] = user
                    users.accept(all)
                }
                return user
            }
        }
    }
}
