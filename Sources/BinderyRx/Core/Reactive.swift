import Foundation

/// RxSwift's `rx` namespace: extend `Reactive where Base: YourType` to give a type
/// reactive members, reached as `value.rx`. Writable reference properties of the base
/// are `Binder`s on `SharingScheduler.make()`'s scheduler.
@dynamicMemberLookup
public struct Reactive<Base> {
    /// What the reactive members act on.
    public let base: Base

    /// The namespace of `base`.
    public init(_ base: Base) { self.base = base }

    /// A binder that sets the property at `keyPath` of the base.
    public subscript<Property>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>) -> Binder<Property> where Base: AnyObject {
        Binder(base) { base, value in base[keyPath: keyPath] = value }
    }
}

/// A type with the `rx` namespace.
public protocol ReactiveCompatible {
    /// The type `rx` extends.
    associatedtype ReactiveBase
    /// The namespace for static members.
    static var rx: Reactive<ReactiveBase>.Type { get set }
    /// The namespace of this value.
    var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
    /// The namespace for static members.
    public static var rx: Reactive<Self>.Type {
        get { Reactive<Self>.self }
        // Lets a mutating member be called through `rx`.
        set {}
    }

    /// The namespace of this value.
    public var rx: Reactive<Self> {
        get { Reactive(self) }
        // Lets a mutating member be called through `rx`.
        set {}
    }
}

extension NSObject: ReactiveCompatible {}
