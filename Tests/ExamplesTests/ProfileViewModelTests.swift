import BinderyRx
import BinderyRxTest
import XCTest
@testable import Examples

final class ProfileViewModelTests: XCTestCase {
    private let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    private let disposeBag = DisposeBag()

    private struct Recording {
        /// Held as a View holds it: its bindings and outputs live as long as it does.
        let viewModel: ProfileViewModel
        let name: TestableObserver<String>
        let followers: TestableObserver<Int>
        let isFollowing: TestableObserver<Bool>
        let followButtonTitle: TestableObserver<String>
        let isLoading: TestableObserver<Bool>
        let errorMessage: TestableObserver<String>
    }

    /// A profile of `userID` whose services answer after 100 ms, tapped at `followTaps`, with every output recorded.
    private func profile(userID: Int, followTaps: [TestTime]) -> Recording {
        let services = ServiceProvider(scheduler: scheduler, latency: .milliseconds(100))
        let viewModel = ProfileViewModel(userID: userID, services: services)
        for time in followTaps {
            scheduler.scheduleAt(time) { viewModel.followTap.accept(()) }
        }
        let recording = Recording(
            viewModel: viewModel,
            name: scheduler.createObserver(String.self),
            followers: scheduler.createObserver(Int.self),
            isFollowing: scheduler.createObserver(Bool.self),
            followButtonTitle: scheduler.createObserver(String.self),
            isLoading: scheduler.createObserver(Bool.self),
            errorMessage: scheduler.createObserver(String.self)
        )
        viewModel.name.drive(recording.name).disposed(by: disposeBag)
        viewModel.followers.drive(recording.followers).disposed(by: disposeBag)
        viewModel.isFollowing.drive(recording.isFollowing).disposed(by: disposeBag)
        viewModel.followButtonTitle.drive(recording.followButtonTitle).disposed(by: disposeBag)
        viewModel.isLoading.drive(recording.isLoading).disposed(by: disposeBag)
        viewModel.errorMessage.emit(to: recording.errorMessage).disposed(by: disposeBag)
        return recording
    }

    func testLoadsTheUser() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recording = profile(userID: 1, followTaps: [])

            scheduler.start()

            XCTAssertEqual(recording.name.events, [.next(101, "Ada Lovelace")])
            XCTAssertEqual(recording.followers.events, [.next(101, 1815)])
            XCTAssertEqual(recording.isFollowing.events, [.next(101, false)])
            XCTAssertEqual(recording.followButtonTitle.events, [.next(101, "Follow")])
            XCTAssertEqual(recording.isLoading.events, [.next(1, true), .next(101, false)])
            XCTAssertEqual(recording.errorMessage.events, [])
        }
    }

    func testFollowTapFollowsAndTheNextOneUnfollows() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recording = profile(userID: 1, followTaps: [200, 400])

            scheduler.start()

            XCTAssertEqual(recording.name.events, [
                .next(101, "Ada Lovelace"),
                .next(301, "Ada Lovelace"),
                .next(501, "Ada Lovelace"),
            ])
            XCTAssertEqual(recording.followers.events, [.next(101, 1815), .next(301, 1816), .next(501, 1815)])
            XCTAssertEqual(recording.isFollowing.events, [.next(101, false), .next(301, true), .next(501, false)])
            XCTAssertEqual(recording.followButtonTitle.events, [
                .next(101, "Follow"),
                .next(301, "Unfollow"),
                .next(501, "Follow"),
            ])
            XCTAssertEqual(recording.isLoading.events, [
                .next(1, true),
                .next(101, false),
                .next(201, true),
                .next(301, false),
                .next(401, true),
                .next(501, false),
            ])
            XCTAssertEqual(recording.errorMessage.events, [])
        }
    }

    func testFollowingAUserWhoRefusesFollowersShowsTheError() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recording = profile(userID: 3, followTaps: [200])

            scheduler.start()

            XCTAssertEqual(recording.errorMessage.events, [
                .next(301, "Private Account does not accept new followers."),
            ])
            XCTAssertEqual(recording.name.events, [.next(101, "Private Account")])
            XCTAssertEqual(recording.followers.events, [.next(101, 0)])
            XCTAssertEqual(recording.isFollowing.events, [.next(101, false)])
            XCTAssertEqual(recording.followButtonTitle.events, [.next(101, "Follow")])
            XCTAssertEqual(recording.isLoading.events, [
                .next(1, true),
                .next(101, false),
                .next(201, true),
                .next(301, false),
            ])
        }
    }

    func testTapsWhileLoadingAreIgnored() {
        SharingScheduler.mock(scheduler: scheduler) {
            // 50: the user is still loading; 250: the follow sent at 200 is still on its way.
            let recording = profile(userID: 1, followTaps: [50, 200, 250])

            scheduler.start()

            XCTAssertEqual(recording.followers.events, [.next(101, 1815), .next(301, 1816)])
            XCTAssertEqual(recording.isFollowing.events, [.next(101, false), .next(301, true)])
            XCTAssertEqual(recording.followButtonTitle.events, [.next(101, "Follow"), .next(301, "Unfollow")])
            XCTAssertEqual(recording.isLoading.events, [
                .next(1, true),
                .next(101, false),
                .next(201, true),
                .next(301, false),
            ])
            XCTAssertEqual(recording.errorMessage.events, [])
        }
    }
}
