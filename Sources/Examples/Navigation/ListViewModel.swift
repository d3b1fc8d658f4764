import Bindery

/// A list whose selection presents a detail screen (RxMVVM): the emitted
/// `DetailViewModel` becomes its own session, and the page moves to it.
final class ListViewModel {
    // MARK: Inputs
    let selectItem = PublishRelay<Int>()

    // MARK: Outputs
    let items: Driver<[Item]>
    let presentDetailViewModel: Signal<DetailViewModel>

    init(services: ServiceProvider) {
        let all = services.itemService.items()
        items = .just(all)
        presentDetailViewModel =
            selectItem
            .compactMap { id in all.first { $0.id == id } }
            .map { DetailViewModel(item: $0) }
            .asSignal(onErrorSignalWith: .empty())
    }
}
