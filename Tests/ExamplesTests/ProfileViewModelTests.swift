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
    /// A profile of `userID` whose services answer after 100 ms, its user still loading.
    private func makeLoadingStore(userID: Int) throws -> ViewModelTestStore {
        let store = try ViewModelTestStore(scheduler: TestScheduler(initialClock: 0, resolution: 0.001)) { scheduler in
            ProfileViewModel(userID: userID, services: ServiceProvider(scheduler: scheduler, latency: .milliseconds(100)))
        }
        store.receive("isLoading", true)
        return store
    }

    /// A profile of `userID` whose services answer after 100 ms, its user loaded.
    private func makeStore(userID: Int, name: String, followers: Int) throws -> ViewModelTestStore {
        let store = try makeLoadingStore(userID: userID)
        store.letTheServiceAnswer(in: 100)  // the user is on the way
        receiveUser(store, name: name, followers: followers, isFollowing: false, buttonTitle: "Follow")
        return store
    }

    /// Taps follow after `delay` ms, receives `isLoading` turning on and waits out the service's 100 ms, asserting nothing arrives one tick before it answers.
    private func tapFollowAndAwaitTheAnswer(_ store: ViewModelTestStore, after delay: TestTime, file: StaticString = #filePath, line: UInt = #line) {
        store.advance(by: delay)
        store.send("followTap", file: file, line: line)
        store.receive("isLoading", true, file: file, line: line)
        store.letTheServiceAnswer(in: 100, file: file, line: line)
    }

    /// Receives the user as the profile shows it, then `isLoading` turning off.
    private func receiveUser(
        _ store: ViewModelTestStore, name: String, followers: Int, isFollowing: Bool, buttonTitle: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        store.receive("name", name, file: file, line: line)
        store.receive("followers", followers, file: file, line: line)
        store.receive("isFollowing", isFollowing, file: file, line: line)
        store.receive("followButtonTitle", buttonTitle, file: file, line: line)
        store.receive("isLoading", false, file: file, line: line)
    }

    func testLoadsTheUser() throws {
        let store = try makeStore(userID: 1, name: "Ada Lovelace", followers: 1815)
        store.assertNothingMoreArrives()  // no error, nothing more
    }

    func testFollowTapFollowsAndTheNextOneUnfollows() throws {
        let store = try makeStore(userID: 1, name: "Ada Lovelace", followers: 1815)
        tapFollowAndAwaitTheAnswer(store, after: 100)
        receiveUser(store, name: "Ada Lovelace", followers: 1816, isFollowing: true, buttonTitle: "Unfollow")

        tapFollowAndAwaitTheAnswer(store, after: 100)
        receiveUser(store, name: "Ada Lovelace", followers: 1815, isFollowing: false, buttonTitle: "Follow")
        store.assertNothingMoreArrives()  // no error
    }

    func testFollowingAUserWhoRefusesFollowersShowsTheError() throws {
        let store = try makeStore(userID: 3, name: "Private Account", followers: 0)
        tapFollowAndAwaitTheAnswer(store, after: 100)
        store.receive("errorMessage", "Private Account does not accept new followers.")
        store.receive("isLoading", false)
        store.assertNothingMoreArrives()  // the profile is unchanged: nothing is sent again
    }

    func testTapsWhileLoadingAreIgnored() throws {
        let store = try makeLoadingStore(userID: 1)
        store.advance(by: 50)
        store.send("followTap")  // ignored: the user is still loading
        store.letTheServiceAnswer(in: 50)
        receiveUser(store, name: "Ada Lovelace", followers: 1815, isFollowing: false, buttonTitle: "Follow")

        store.advance(by: 100)
        store.send("followTap")
        store.receive("isLoading", true)
        store.advance(by: 50)
        store.send("followTap")  // ignored: the follow sent at 200 is still on its way
        store.letTheServiceAnswer(in: 50)
        receiveUser(store, name: "Ada Lovelace", followers: 1816, isFollowing: true, buttonTitle: "Unfollow")
        store.assertNothingMoreArrives()  // neither ignored tap follows or unfollows later, and no error
    }
}
