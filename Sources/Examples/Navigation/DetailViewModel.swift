import Bindery

/// The detail screen the list presents.
final class DetailViewModel {
    // MARK: Outputs
    let title: Driver<String>
    let content: Driver<String>

    init(item: Item) {
        title = .just(item.title)
        content = .just(item.content)
    }
}
