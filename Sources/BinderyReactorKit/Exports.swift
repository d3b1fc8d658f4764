// ReactorKit re-exports RxSwift: a file that imports only ReactorKit still names
// `Observable` and `DisposeBag`, so `import BinderyReactorKit` brings the reactive core.
@_exported import BinderyRx
