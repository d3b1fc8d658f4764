import Bindery
import Foundation

/// A file arriving for an upload input (`UploadRule`): each piece of the body
/// is written as it comes, so a file never sits in memory whole.
///
/// Threading: used by its connection only, under the connection's lock; the
/// file it leaves goes to `UploadedFiles` once the body is in.
final class UploadFile: @unchecked Sendable {
    let url: URL
    /// The sender's name for it (`X-Bindery-Filename`), made safe to show.
    let filename: String
    let contentType: String
    private var descriptor: Int32
    private(set) var size = 0
    /// FNV-1a of the bytes so far (`Upload.digest`).
    private var digest: UInt64 = 0xcbf2_9ce4_8422_2325
    /// Why a write failed (`errno`), if one did: the answer says so (507 when the disk is full).
    private(set) var failure: Int32?

    /// A new file in `directory`, or nil (with `errno`) if none can be made there.
    init?(directory: URL, filename: String?, contentType: String) {
        url = directory.appendingPathComponent("upload-" + SessionID.make())
        descriptor = open(url.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        self.filename = Self.safe(filename ?? "")
        self.contentType = UploadRule.mediaType(contentType)
    }

    deinit { if descriptor >= 0 { Platform.close(descriptor) } }

    /// Writes a piece at the end; false (and `failure` set) if it could not.
    @discardableResult
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil, descriptor >= 0 else { return false }
        var offset = 0
        while offset < bytes.count {
            let written = Platform.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                return false
            }
            offset += written
        }
        size += bytes.count
        for byte in bytes {
            digest ^= UInt64(byte)
            digest &*= 0x100_0000_01b3
        }
        return true
    }

    /// The body is in: the file, for the input (nil if writing it failed).
    func finish() -> Upload? {
        close()
        guard failure == nil else {
            delete()
            return nil
        }
        return Upload(filename: filename, contentType: contentType, size: size, url: url, digest: digest)
    }

    /// The request ended before its body did, or was refused: nothing stays on disk.
    func delete() {
        close()
        unlink(url.path)
    }

    private func close() {
        guard descriptor >= 0 else { return }
        if Platform.close(descriptor) != 0, failure == nil { failure = errno }
        descriptor = -1
    }

    /// The last path component of a client's name, percent-decoded, without control
    /// characters, at most 255 bytes: `../../etc/passwd` is `passwd`.
    static func safe(_ sent: String) -> String {
        let decoded = sent.removingPercentEncoding ?? sent
        let last = decoded.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var name = String(last.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.map(Character.init))
        if name == "." || name == ".." { name = "" }
        while name.utf8.count > 255 { name.removeLast() }
        return name
    }
}
