import Bindery
import Foundation

/// A profile picture sent from the page as a file (`Upload`): the server takes
/// at most 256 KiB of an image type (`app.upload("photo", of: "avatar", …)`);
/// the ViewModel checks the bytes themselves, since a file's declared type can
/// lie, and keeps the picture as the session's (a `data:` URL the page shows).
final class AvatarViewModel: ViewModelBinding {
    struct Input: Decodable {
        let photo: Observable<Upload>
        let remove: Observable<Void>
    }

    struct Output {
        /// The picture as a `data:` URL, for an `<img>`; nil without one.
        let image: Driver<String?>
        let caption: Driver<String>
        /// What is wrong with the file, by field (`data-field-errors`).
        let problems: Driver<[String: String]>
        let disposable: Disposable
    }

    struct Picture: Codable, Equatable {
        let dataURL: String
        let filename: String
        let size: Int
        let type: String
    }

    /// The image types the page offers, by the bytes they start with.
    static let signatures: [(type: String, prefix: [UInt8], at: Int)] = [
        ("image/png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], 0), ("image/jpeg", [0xFF, 0xD8, 0xFF], 0),
        ("image/gif", Array("GIF8".utf8), 0), ("image/webp", Array("WEBP".utf8), 8),
    ]

    /// The image type `data` is, by its first bytes; nil if none of the page's.
    static func imageType(of data: Data) -> String? {
        signatures.first { signature in
            data.count >= signature.at + signature.prefix.count && Array(data.dropFirst(signature.at).prefix(signature.prefix.count)) == signature.prefix
        }?.type
    }

    func bind(_ input: Input) -> Output {
        let picture = SessionRelay<Picture?>(value: nil)
        let problems = BehaviorRelay<[String: String]>(value: [:])
        let taken = input.photo.subscribe(onNext: { upload in
            guard let data = try? upload.data() else {
                problems.accept(["photo": "the file could not be read"])
                return
            }
            guard let type = Self.imageType(of: data) else {
                let name = upload.filename.isEmpty ? "the file" : upload.filename
                problems.accept(["photo": "\(name) is not a PNG, JPEG, GIF or WebP image"])
                return
            }
            problems.accept([:])
            picture.accept(
                Picture(dataURL: "data:\(type);base64,\(data.base64EncodedString())", filename: upload.filename, size: upload.size, type: type))
        })
        let removed = input.remove.subscribe(onNext: {
            picture.accept(nil)
            problems.accept([:])
        })
        let caption = picture.map { picture -> String in
            guard let picture else { return "No picture yet." }
            return "\(picture.filename.isEmpty ? "A picture" : picture.filename), \(picture.type), \(picture.size) bytes"
        }
        return Output(
            image: picture.map { $0?.dataURL }.asDriver(onErrorJustReturn: nil), caption: caption.asDriver(onErrorJustReturn: ""),
            problems: problems.asDriver(), disposable: Disposables.create(taken, removed))
    }
}
