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
        store.finish() // nothing before a request
        return store
    }

    func testRequestDataLoadsAlbumsAndTracks() throws {
        let store = try makeStore()
        store.advance(by: 100)
        store.send("requestData")
        store.receive("loading", true)
        store.advance(by: 299)
        store.finish() // the data is on its way
        store.advance(by: 1)
        store.receive("albums", albums)
        store.receive("tracks", tracks)
        store.receive("loading", false)

        store.advance(by: 1_000)
        store.finish() // no error
    }

    func testAnInternetFailureEmitsAnInternetError() throws {
        let store = try makeStore(failure: "internet")
        store.advance(by: 100)
        store.send("requestData")
        store.receive("loading", true)
        store.advance(by: 299)
        store.finish()
        store.advance(by: 1)
        store.receive("error", offline)
        store.receive("loading", false)

        store.advance(by: 1_000)
        store.finish() // no albums, no tracks
    }

    func testAServerFailureEmitsTheServersMessage() throws {
        let store = try makeStore(failure: "server")
        store.advance(by: 100)
        store.send("requestData")
        store.receive("loading", true)
        store.advance(by: 299)
        store.finish()
        store.advance(by: 1)
        store.receive("error", maintenance)
        store.receive("loading", false)

        store.advance(by: 1_000)
        store.finish() // no albums, no tracks
    }

    func testRequestingAgainAfterAFailureStillFails() throws {
        let store = try makeStore(failure: "internet")
        store.advance(by: 100)
        store.send("requestData")
        store.receive("loading", true)
        store.advance(by: 299)
        store.finish()
        store.advance(by: 1)
        store.receive("error", offline)
        store.receive("loading", false)

        store.advance(by: 100)
        store.send("requestData")
        store.receive("loading", true)
        store.advance(by: 299)
        store.finish()
        store.advance(by: 1)
        store.receive("error", offline)
        store.receive("loading", false)

        store.advance(by: 1_000)
        store.finish() // no albums, no tracks
    }

    func testRequestingTwiceKeepsOnlyTheLatestResult() throws {
        let store = try makeStore()
        store.advance(by: 100)
        store.send("requestData")
        store.receive("loading", true)
        store.advance(by: 100)
        store.send("requestData")
        store.receive("loading", true)
        store.advance(by: 299)
        store.finish() // the first request's data, due at 400, was dropped
        store.advance(by: 1)
        store.receive("albums", albums)
        store.receive("tracks", tracks)
        store.receive("loading", false)

        store.advance(by: 1_000)
        store.finish() // one result only, and no error
    }

    func testLoadingStaysTrueWhileALaterRequestIsOnItsWay() throws {
        let store = try makeStore()
        store.advance(by: 100)
        store.send("requestData")
        store.receive("loading", true)
        store.advance(by: 100)
        store.send("requestData")
        store.receive("loading", true)
        store.advance(by: 200)
        // The first request, replaced by the second, must not turn loading off.
        store.finish()
        store.advance(by: 99)
        store.finish()
        store.advance(by: 1)
        store.receive("albums", albums)
        store.receive("tracks", tracks)
        store.receive("loading", false)

        store.advance(by: 1_000)
        store.finish()
    }
}
