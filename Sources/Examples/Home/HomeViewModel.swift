import Bindery

/// Albums and tracks from a service, with loading and a typed error (practical
/// MVVM). The ViewModel emits on subjects, as the article does; registration
/// names them as outputs. The article's `requestData()` method is an input.
final class HomeViewModel {
    enum HomeError: Error, Equatable {
        case internetError(String)
        case serverMessage(String)
    }

    let albums: PublishSubject<[Album]> = PublishSubject()
    let tracks: PublishSubject<[Track]> = PublishSubject()
    let loading: PublishSubject<Bool> = PublishSubject()
    let error: PublishSubject<HomeError> = PublishSubject()

    let requestData = PublishRelay<Void>()

    private let disposable = DisposeBag()

    init(service: AlbumService, mode: AlbumServiceMode) {
        requestData
            .flatMapLatest { [weak self] _ -> Observable<(albums: [Album], tracks: [Track])> in
                self?.loading.onNext(true)
                return service.requestData(mode)
                    .catch { [weak self] failure in
                        switch failure {
                        case AlbumService.Failure.internet(let message): self?.error.onNext(.internetError(message))
                        case AlbumService.Failure.server(let message): self?.error.onNext(.serverMessage(message))
                        default: self?.error.onNext(.serverMessage("\(failure)"))
                        }
                        return .empty()
                    }
                    // Completed, not disposed: a request replaced by a newer one must
                    // not turn loading off while the newer one runs.
                    .do(onCompleted: { [weak self] in self?.loading.onNext(false) })
            }
            .subscribe(onNext: { [weak self] data in
                self?.albums.onNext(data.albums)
                self?.tracks.onNext(data.tracks)
            })
            .disposed(by: disposable)
    }
}

extension HomeViewModel.HomeError: Encodable {
    private enum CodingKeys: String, CodingKey { case kind, message }

    /// `{"kind": "internetError" | "serverMessage", "message": "…"}`.
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .internetError(let message):
            try container.encode("internetError", forKey: .kind)
            try container.encode(message, forKey: .message)
        case .serverMessage(let message):
            try container.encode("serverMessage", forKey: .kind)
            try container.encode(message, forKey: .message)
        }
    }
}
