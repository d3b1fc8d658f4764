import Foundation

/// The files under some folders as they stand (each one's modification time
/// and size), to tell what changed since: the dev loop looks every few hundred
/// milliseconds, which works on every file system and platform alike.
struct FileStamps: Equatable {
    private var stamps: [String: Stamp] = [:]

    private struct Stamp: Equatable {
        var modified: Date
        var size: Int
    }

    /// The files under each of `places` (a folder, walked, or one file), by path relative to the folder `relativeTo`.
    init(_ places: [URL], relativeTo base: URL) {
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey]
        let prefix = base.standardizedFileURL.path.count + 1
        for place in places {
            var files: [URL] = [place]
            if let walker = FileManager.default.enumerator(at: place, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles]) {
                files = walker.compactMap { $0 as? URL }
            }
            for file in files {
                guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
                let path = file.standardizedFileURL.path
                stamps[path.count > prefix ? String(path.dropFirst(prefix)) : path] = Stamp(
                    modified: values.contentModificationDate ?? .distantPast, size: values.fileSize ?? 0)
            }
        }
    }

    /// The paths added, changed or removed since `earlier`, in order.
    func changes(since earlier: FileStamps) -> [String] {
        Set(stamps.keys).union(earlier.stamps.keys).filter { stamps[$0] != earlier.stamps[$0] }.sorted()
    }
}
