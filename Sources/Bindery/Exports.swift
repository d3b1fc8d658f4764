// A ViewModel imports `Bindery` only: it re-exports the reactive core, and
// Foundation, which `import RxCocoa` brings on Apple's platforms (`NSRecursiveLock`,
// `NSError`, `URL`, `TimeInterval` in ported code).
@_exported import BinderyRx
@_exported import Foundation
