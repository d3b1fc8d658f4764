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

/// Users and following, in memory, with simulated latency. Some users refuse
/// new followers, so the failure path can be seen.
final class UserService {
    private let scheduler: SchedulerType
    private let latency: RxTimeInterval
    private let lock = NSLock()
    private var users: [Int: User] = [
        1: User(id: 1, name: "Ada Lovelace", followers: 1815, isFollowed: false),
        2: User(id: 2, name: "Grace Hopper", followers: 1906, isFollowed: false),
        3: User(id: 3, name: "Private Account", followers: 0, isFollowed: false),
    ]
    /// Users who refuse new followers.
    private let refusing: Set<Int> = [3]

    init(scheduler: SchedulerType, latency: RxTimeInterval) {
        self.scheduler = scheduler
        self.latency = latency
    }

    func user(id: Int) -> Observable<User> {
        delayed(latency, on: scheduler) { [self] in
            guard let user = lock.withLock({ users[id] }) else { throw UserServiceError(description: "There is no user \(id).") }
            return user
        }
    }

    func setFollowing(_ following: Bool, userID: Int) -> Observable<User> {
        delayed(latency, on: scheduler) { [self] in
            try lock.withLock {
                guard var user = users[userID] else { throw UserServiceError(description: "There is no user \(userID).") }
                if following, refusing.contains(userID) { throw UserServiceError(description: "\(user.name) does not accept new followers.") }
                if user.isFollowed != following {
                    user.isFollowed = following
                    user.followers += following ? 1 : -1
                    users[userID] = user
                }
                return user
            }
        }
    }
}
