import BinderyRx
import BinderyRxTest
import XCTest
@testable import Examples

final class HomeViewModelTests: XCTestCase {
    private let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    private let disposeBag = DisposeBag()

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

    private struct Recording {
        /// Held as a View holds it: its bindings and outputs live as long as it does.
        let viewModel: HomeViewModel
        let albums: TestableObserver<[Album]>
        let tracks: TestableObserver<[Track]>
        let loading: TestableObserver<Bool>
        let error: TestableObserver<HomeViewModel.HomeError>
    }

    /// A home ViewModel whose album service answers after 300 ms (or fails as `failure` says), asked for data at `requests`.
    private func home(failure: String? = nil, requests: [TestTime]) -> Recording {
        // The album service takes its latency from the mode, not from the provider.
        let service = ServiceProvider(scheduler: scheduler, latency: .milliseconds(100)).albumService
        let viewModel = HomeViewModel(service: service, mode: AlbumServiceMode(latencyMilliseconds: 300, failure: failure))
        for time in requests {
            scheduler.scheduleAt(time) { viewModel.requestData.accept(()) }
        }
        let recording = Recording(
            viewModel: viewModel,
            albums: scheduler.createObserver([Album].self),
            tracks: scheduler.createObserver([Track].self),
            loading: scheduler.createObserver(Bool.self),
            error: scheduler.createObserver(HomeViewModel.HomeError.self)
        )
        viewModel.albums.subscribe(recording.albums).disposed(by: disposeBag)
        viewModel.tracks.subscribe(recording.tracks).disposed(by: disposeBag)
        viewModel.loading.subscribe(recording.loading).disposed(by: disposeBag)
        viewModel.error.subscribe(recording.error).disposed(by: disposeBag)
        return recording
    }

    func testRequestDataLoadsAlbumsAndTracks() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recording = home(requests: [100])

            scheduler.start()

            XCTAssertEqual(recording.loading.events, [.next(100, true), .next(400, false)])
            XCTAssertEqual(recording.albums.events, [.next(400, albums)])
            XCTAssertEqual(recording.tracks.events, [.next(400, tracks)])
            XCTAssertEqual(recording.error.events, [])
        }
    }

    func testAnInternetFailureEmitsAnInternetError() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recording = home(failure: "internet", requests: [100])

            scheduler.start()

            XCTAssertEqual(recording.error.events, [.next(400, .internetError("The Internet connection appears to be offline."))])
            XCTAssertEqual(recording.loading.events, [.next(100, true), .next(400, false)])
            XCTAssertEqual(recording.albums.events, [])
            XCTAssertEqual(recording.tracks.events, [])
        }
    }

    func testAServerFailureEmitsTheServersMessage() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recording = home(failure: "server", requests: [100])

            scheduler.start()

            XCTAssertEqual(recording.error.events, [.next(400, .serverMessage("The server is under maintenance; try again later."))])
            XCTAssertEqual(recording.loading.events, [.next(100, true), .next(400, false)])
            XCTAssertEqual(recording.albums.events, [])
            XCTAssertEqual(recording.tracks.events, [])
        }
    }

    func testRequestingAgainAfterAFailureStillFails() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recording = home(failure: "internet", requests: [100, 500])

            scheduler.start()

            XCTAssertEqual(recording.error.events, [
                .next(400, .internetError("The Internet connection appears to be offline.")),
                .next(800, .internetError("The Internet connection appears to be offline.")),
            ])
            XCTAssertEqual(recording.loading.events, [.next(100, true), .next(400, false), .next(500, true), .next(800, false)])
        }
    }

    func testRequestingTwiceKeepsOnlyTheLatestResult() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recording = home(requests: [100, 200])

            scheduler.start()

            XCTAssertEqual(recording.albums.events, [.next(500, albums)])
            XCTAssertEqual(recording.tracks.events, [.next(500, tracks)])
            XCTAssertEqual(recording.error.events, [])
        }
    }

    func testLoadingStaysTrueWhileALaterRequestIsOnItsWay() {
        var loading: [Recorded<Event<Bool>>] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let recording = home(requests: [100, 200])

            scheduler.start()

            loading = recording.loading.events
        }
        // The first request, replaced by the second, must not turn loading off.
        XCTAssertEqual(loading, [.next(100, true), .next(200, true), .next(500, false)])
    }
}
