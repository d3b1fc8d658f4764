/// A tuple type's elements, read from the metadata the Swift runtime keeps for it.
///
/// Swift has no reflection of a type without a value; a tuple's labels, element
/// types and offsets are in its type metadata, whose layout is part of Swift's
/// stable ABI (`TargetTupleTypeMetadata`: kind, count, labels, then a type and an
/// offset per element: `TargetTupleTypeMetadata`, whose offset is 32 bits wide
/// outside Apple platforms). Only read here, to make a ViewModel's `init` inputs.
struct TupleLayout {
    /// One element: its label (nil if it has none), type and offset in bytes.
    struct Element {
        let label: String?
        let type: Any.Type
        let offset: Int
    }

    /// The elements, in order.
    let elements: [Element]

    /// The layout of `type`, or nil if it is not a tuple.
    init?(_ type: Any.Type) {
        let word = MemoryLayout<Int>.size
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        // MetadataKind::Tuple: 1 | MetadataKindIsRuntimePrivate (0x100) | MetadataKindIsNonHeap (0x200).
        guard metadata.load(as: Int.self) == 0x301 else { return nil }
        let count = metadata.load(fromByteOffset: word, as: Int.self)
        // Labels: each followed by a space, an empty one for an unlabeled element; nil when none has one.
        let labels =
            metadata.load(fromByteOffset: 2 * word, as: UnsafePointer<CChar>?.self)
            .map { String(cString: $0).split(separator: " ", omittingEmptySubsequences: false).map(String.init) } ?? []
        elements = (0..<count).map { index in
            let element = 3 * word + index * 2 * word
            let label = index < labels.count && !labels[index].isEmpty ? labels[index] : nil
            return Element(
                label: label,
                type: metadata.load(fromByteOffset: element, as: Any.Type.self),
                // A 32-bit offset off Apple platforms (a word on them, whose low half it is
                // there too): the rest of the word is padding, which may hold anything.
                offset: Int(metadata.load(fromByteOffset: element + word, as: UInt32.self)))
        }
    }
}
