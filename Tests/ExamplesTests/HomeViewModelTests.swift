import BinderyRx
import BinderyRxTest
import BinderyTest
import XCTest

@testable import Examples

/// The home example through the exhaustive test store, its subjects named as
/// outputs as the registration names them. One tick is a millisecond and the
/// album service answers (or fails) 300 ms after a request; the subjects emit
/// at the tick of their cause. A `finish()` in the middle of a test asserts
/// that nothing has arrived yet.
final class HomeViewModelTests: XCTestCase {
    private let albums = [
        Album(id: 1, name: "Kind of Blue", artist: "Miles Davis", year: 1959),
        Album(id: 2, name: "A Love Supreme", artist: "John Coltrane", year: 1965),
        Album(id: 3, name: "Blue Train", artist: "John Coltrane", year: 1958),
        Album(id: 4, name: "Mingus Ah Um", artist: "Charles Mingus", year: 1959),
        Album(id: 5, name: "Time Out", artist: "The Dave Brubeck Quartet", year: 1959),
    ]

    private let tracks = [
        Track(id: 1, name: "So What", album: "Kind of Blue"),
        Track(id: 2, name: "Blue in Green", album: "Kind of Blue"),
        Track(id: 3, name: "Acknowledgement", album: "A Love Supreme"),
        Track(id: 4, name: "Moment's Notice", album: "Blue Train"),
        Track(id: 5, name: "Goodbye Pork Pie Hat", album: "Mingus Ah Um"),
        Track(id: 6, name: "Take Five", album: "Time Out"),
    ]

    private let offline = HomeViewModel.HomeError.internetError("The Internet connection appears to be offline.")
    private let maintenance = HomeViewModel.HomeError.serverMessage("The server is under maintenance; try again later.")

    /// A home ViewModel whose album service answers after 300 ms (or fails as
    /// `failure` says). It says nothing until asked for data.
    private func makeStore(failure: String? = nil) throws -> ViewModelTestStore {
        let store = try ViewModelTestStore(
            scheduler: TestScheduler(initialClock: 0, resolution: 0.001),
            outputs: ["albums": .driver, "tracks": .driver, "loading": .driver, "error": .signal]
        ) { scheduler in
            // The album service takes its latency from the mode, not from the provider.
            HomeViewModel(
                service: ServiceProvider(scheduler: scheduler, latency: .milliseconds(100)).albumService,
                mode: AlbumServiceMode(latencyMilliseconds: 300, failure: failure)
            )
        }
        store.finish()  // nothing before a request
        return store
    }

    /// Waits `delay` ms, sends `requestData` and receives `loading` turning on.
    private func requestData(_ store: ViewModelTestStore, after delay: TestTime, file: StaticString = #filePath, line: UInt = #line) {
        store.advance(by: delay)
        store.send("requestData", file: file, line: line)
        store.receive("loading", true, file: file, line: line)
    }

    /// Sends `requestData` after `delay` ms and waits out the service's 300 ms, asserting nothing arrives one tick before it answers.
    private func requestDataAndAwaitTheAnswer(_ store: ViewModelTestStore, after delay: TestTime, file: StaticString = #filePath, line: UInt = #line) {
        requestData(store, after: delay, file: file, line: line)
        store.letTheServiceAnswer(in: 300, file: file, line: line)
    }

    /// Receives the albums, then the tracks, then `loading` turning off.
    private func receiveAlbumsAndTracks(_ store: ViewModelTestStore, file: StaticString = #filePath, line: UInt = #line) {
        store.receive("albums", albums, file: file, line: line)
        store.receive("tracks", tracks, file: file, line: line)
        store.receive("loading", false, file: file, line: line)
    }

    /// Receives `error`, then `loading` turning off.
    private func receiveError(_ error: HomeViewModel.HomeError, _ store: ViewModelTestStore, file: StaticString = #filePath, line: UInt = #line) {
        store.receive("error", error, file: file, line: line)
        store.receive("loading", false, file: file, line: line)
    }

    func testRequestDataLoadsAlbumsAndTracks() throws {
        let store = try makeStore()
        requestDataAndAwaitTheAnswer(store, after: 100)
        receiveAlbumsAndTracks(store)
        store.assertNothingMoreArrives()  // no error
    }

    func testAnInternetFailureEmitsAnInternetError() throws {
        let store = try makeStore(failure: "internet")
        requestDataAndAwaitTheAnswer(store, after: 100)
        receiveError(offline, store)
        store.assertNothingMoreArrives()  // no albums, no tracks
    }

    func testAServerFailureEmitsTheServersMessage() throws {
        let store = try makeStore(failure: "server")
        requestDataAndAwaitTheAnswer(store, after: 100)
        receiveError(maintenance, store)
        store.assertNothingMoreArrives()  // no albums, no tracks
    }

    func testRequestingAgainAfterAFailureStillFails() throws {
        let store = try makeStore(failure: "internet")
        requestDataAndAwaitTheAnswer(store, after: 100)
        receiveError(offline, store)

        requestDataAndAwaitTheAnswer(store, after: 100)
        receiveError(offline, store)
        store.assertNothingMoreArrives()  // no albums, no tracks
    }

    func testRequestingTwiceKeepsOnlyTheLatestResultAndLoadingStaysTrueUntilItArrives() throws {
        let store = try makeStore()
        requestData(store, after: 100)
        requestData(store, after: 100)
        store.advance(by: 200)
        // The first request's data, due at 400, was dropped, and did not turn loading off.
        store.finish()
        store.letTheServiceAnswer(in: 100)
        receiveAlbumsAndTracks(store)
        store.assertNothingMoreArrives()  // one result only, and no error
    }
}
