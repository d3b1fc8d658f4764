import Bindery

/// The color-cycling ViewModel of the single-method binding article: each tap on
/// the button moves the background to the next color, and the button's title
/// names the color that comes after.
final class SimpleViewModel: ViewModelBinding {
    enum Color: String, CaseIterable, Codable {
        case red, blue, purple
    }

    struct Input: Decodable {
        let buttonTap: Observable<Void>
    }

    struct Output {
        let backgroundColor: Driver<Color>
        let buttonTitle: Driver<String>
        let disposable: Disposable
    }

    func bind(_ input: Input) -> Output {
        let colors = Observable.just(Color.allCases)
        let currentColorIndexRelay = SessionRelay<Int>(value: 0)

        let currentColor =
            Observable
            .combineLatest(colors, currentColorIndexRelay) { colors, currentColorIndex in colors[currentColorIndex] }

        let nextColorIndex =
            Observable
            .combineLatest(colors, currentColorIndexRelay) { colors, currentColorIndex in (currentColorIndex + 1) % colors.count }

        let nextColor =
            Observable
            .combineLatest(colors, nextColorIndex) { colors, nextColorIndex in colors[nextColorIndex] }

        let backgroundColor =
            currentColor
            .asDriver(onErrorDriveWith: .empty())

        let buttonTitle =
            nextColor
            .map { "Change to \($0)" }
            .asDriver(onErrorDriveWith: .empty())

        let disposable = input.buttonTap
            .withLatestFrom(nextColorIndex)
            .bind(to: currentColorIndexRelay)

        return Output(backgroundColor: backgroundColor, buttonTitle: buttonTitle, disposable: disposable)
    }
}
