import Bindery

/// A user's profile with a follow button (RxMVVM): inputs and outputs are
/// properties; following goes through the `UserService` of the `ServiceProvider`,
/// which can refuse, and the refusal is an output.
final class ProfileViewModel {
    // MARK: Inputs
    let followTap = PublishRelay<Void>()

    // MARK: Outputs
    let name: Driver<String>
    let followers: Driver<Int>
    let isFollowing: Driver<Bool>
    let followButtonTitle: Driver<String>
    let isLoading: Driver<Bool>
    let errorMessage: Signal<String>

    private let disposeBag = DisposeBag()

    init(userID: Int, services: ServiceProvider) {
        let userService = services.userService
        let user = BehaviorRelay<User?>(value: nil)
        let loading = BehaviorRelay(value: true)
        let errors = PublishRelay<String>()

        userService.user(id: userID)
            .catch { error in
                errors.accept("\(error)")
                return .empty()
            }
            .do(onDispose: { loading.accept(false) })
            .map { Optional($0) }
            .bind(to: user)
            .disposed(by: disposeBag)

        followTap
            .withLatestFrom(user.compactMap { $0 })
            .filter { _ in !loading.value }
            .flatMapLatest { current -> Observable<User?> in
                loading.accept(true)
                return userService.setFollowing(!current.isFollowed, userID: current.id)
                    .map { Optional($0) }
                    .catch { error in
                        errors.accept("\(error)")
                        return .empty()
                    }
                    .do(onDispose: { loading.accept(false) })
            }
            .bind(to: user)
            .disposed(by: disposeBag)

        let profile = user.compactMap { $0 }
        name = profile.map(\.name).asDriver(onErrorJustReturn: "")
        followers = profile.map(\.followers).asDriver(onErrorJustReturn: 0)
        isFollowing = profile.map(\.isFollowed).asDriver(onErrorJustReturn: false)
        followButtonTitle = isFollowing.map { $0 ? "Unfollow" : "Follow" }
        isLoading = loading.asDriver()
        errorMessage = errors.asSignal()
    }
}
