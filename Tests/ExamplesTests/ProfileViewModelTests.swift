import BinderyRx
import BinderyRxTest
import BinderyTest
import XCTest
@testable import Examples

/// The profile example through the exhaustive test store. One tick is a
/// millisecond and the user service answers 100 ms after each call (loading
/// the user as the ViewModel is made, then each follow or unfollow); drivers
/// and signals deliver inline, so a value lands at the tick of its cause. A
/// `finish()` in the middle of a test asserts that nothing has arrived yet
/// (one tick before the service answers).
final class ProfileViewModelTests: XCTestCase {
    /// A profile of `userID` whose services answer after 100 ms, its user loaded.
    private func makeStore(userID: Int, name: String, followers: Int) throws -> ViewModelTestStore {
        let store = try ViewModelTestStore(scheduler: TestScheduler(initialClock: 0, resolution: 0.001)) { scheduler in
            ProfileViewModel(userID: userID, services: ServiceProvider(scheduler: scheduler, latency: .milliseconds(100)))
        }
        store.receive("isLoading", true)
        store.advance(by: 99)
        store.finish() // the user is on the way
        store.advance(by: 1)
        store.receive("name", name)
        store.receive("followers", followers)
        store.receive("isFollowing", false)
        store.receive("followButtonTitle", "Follow")
        store.receive("isLoading", false)
        return store
    }

    func testLoadsTheUser() throws {
        let store = try makeStore(userID: 1, name: "Ada Lovelace", followers: 1815)
        store.advance(by: 1_000)
        store.finish() // no error, nothing more
    }

    func testFollowTapFollowsAndTheNextOneUnfollows() throws {
        let store = try makeStore(userID: 1, name: "Ada Lovelace", followers: 1815)

        store.advance(by: 100)
        store.send("followTap")
        store.receive("isLoading", true)
        store.advance(by: 99)
        store.finish()
        store.advance(by: 1)
        store.receive("name", "Ada Lovelace")
        store.receive("followers", 1816)
        store.receive("isFollowing", true)
        store.receive("followButtonTitle", "Unfollow")
        store.receive("isLoading", false)

        store.advance(by: 100)
        store.send("followTap")
        store.receive("isLoading", true)
        store.advance(by: 99)
        store.finish()
        store.advance(by: 1)
        store.receive("name", "Ada Lovelace")
        store.receive("followers", 1815)
        store.receive("isFollowing", false)
        store.receive("followButtonTitle", "Follow")
        store.receive("isLoading", false)

        store.advance(by: 1_000)
        store.finish() // no error
    }

    func testFollowingAUserWhoRefusesFollowersShowsTheError() throws {
        let store = try makeStore(userID: 3, name: "Private Account", followers: 0)

        store.advance(by: 100)
        store.send("followTap")
        store.receive("isLoading", true)
        store.advance(by: 99)
        store.finish()
        store.advance(by: 1)
        store.receive("errorMessage", "Private Account does not accept new followers.")
        store.receive("isLoading", false)

        store.advance(by: 1_000)
        store.finish() // the profile is unchanged: nothing is sent again
    }

    func testTapsWhileLoadingAreIgnored() throws {
        let store = try ViewModelTestStore(scheduler: TestScheduler(initialClock: 0, resolution: 0.001)) { scheduler in
            ProfileViewModel(userID: 1, services: ServiceProvider(scheduler: scheduler, latency: .milliseconds(100)))
        }
        store.receive("isLoading", true)
        store.advance(by: 50)
        store.send("followTap") // ignored: the user is still loading
        store.advance(by: 49)
        store.finish()
        store.advance(by: 1)
        store.receive("name", "Ada Lovelace")
        store.receive("followers", 1815)
        store.receive("isFollowing", false)
        store.receive("followButtonTitle", "Follow")
        store.receive("isLoading", false)

        store.advance(by: 100)
        store.send("followTap")
        store.receive("isLoading", true)
        store.advance(by: 50)
        store.send("followTap") // ignored: the follow sent at 200 is still on its way
        store.advance(by: 49)
        store.finish()
        store.advance(by: 1)
        store.receive("name", "Ada Lovelace")
        store.receive("followers", 1816)
        store.receive("isFollowing", true)
        store.receive("followButtonTitle", "Unfollow")
        store.receive("isLoading", false)

        store.advance(by: 1_000)
        store.finish() // neither ignored tap follows or unfollows later, and no error
    }
}
