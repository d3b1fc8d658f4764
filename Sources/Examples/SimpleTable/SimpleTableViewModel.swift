import Bindery

/// The table of the single-method binding article: `fetchItems` loads the rows,
/// `selectItem` shows the selected row's content. On the web a row is selected
/// by its id rather than an `IndexPath`.
final class SimpleTableViewModel: ViewModelBinding {
    struct Input: Decodable {
        let fetchItems: Observable<Void>
        let selectItem: Observable<Int>
    }

    struct Output {
        let items: Driver<[Item]>
        let showItemContent: Signal<String>
    }

    private let itemService: ItemService

    init(itemService: ItemService) {
        self.itemService = itemService
    }

    func bind(_ input: Input) -> Output {
        let items = input.fetchItems
            .map { [itemService] in itemService.items() }
            .startWith([])
            .asDriver(onErrorJustReturn: [])

        let showItemContent = input.selectItem
            .withLatestFrom(items) { id, items in items.first { $0.id == id }?.content }
            .compactMap { $0 }
            .asSignal(onErrorSignalWith: .empty())

        return Output(items: items, showItemContent: showItemContent)
    }
}
