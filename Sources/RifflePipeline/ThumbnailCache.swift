import Crypto
import RiffleImageIO
import RiffleLibrary
import RiffleRaster
import Synchronization

/// The thumbnail cache of the Freedesktop Thumbnail Managing Standard, shared with eog,
/// Nautilus, gthumb and every other program that keeps it
/// (https://specifications.freedesktop.org/thumbnail-spec/latest/).
///
/// A thumbnail of a photo of a size class lives in `folder/<size>/<md5 of the URI>.png`, the
/// URI spelled as `FileURI` spells it; it is valid while its Thumb::URI, Thumb::MTime (and
/// Thumb::Size when it has one) match the photo (`ThumbnailStamp`), and a stale one is made
/// again and written over. A photo that cannot be decoded is recorded in
/// `folder/fail/riffle-<version>/<md5>.png` and not tried again while that record is valid.
///
/// Riffle writes inside `folder` only, with `ThumbnailFiles` (folders 0700, files 0600, each
/// complete before it has its name); the photo is only read. A photo inside `folder` gets a
/// thumbnail made but never stored, as the standard asks. When writing is off, from the start
/// or since a write failed (a read-only or full disk, a folder of someone else's), thumbnails
/// are still made, in memory only; a failed write is said once on standard error.
///
/// Safe to call from several decode workers at once: the one thing it holds that changes is
/// whether it still writes. Two workers making the same thumbnail each write it whole, and
/// the second rename wins.
package final class ThumbnailCache: Sendable {
    /// The thumbnails folder, `$XDG_CACHE_HOME/thumbnails` (`standardFolder()`), absolute and
    /// canonical.
    let folder: String
    /// Thumbnails are made in sRGB, as the programs sharing the cache expect them.
    private let sRGB = ColourManagement(displayProfile: nil)
    private let writes: Atomic<Bool>
    private let report: @Sendable (String) -> Void

    /// A cache in `folder` (made absolute, for a relative one, against the working directory).
    /// - Parameters:
    ///   - writable: false for read-only: thumbnails are looked up but made in memory only,
    ///     and no failure is recorded.
    ///   - report: where the one message that writing has stopped goes (standard error).
    init(folder: String, writable: Bool = true, report: @escaping @Sendable (String) -> Void = { StandardError.write($0) }) {
        self.folder = FileURI.absolutePath(of: folder) ?? folder
        writes = Atomic(writable)
        self.report = report
    }

    /// Whether thumbnails and failures made are stored: false for a read-only cache, and from
    /// the first write that failed on.
    var isWritable: Bool { writes.load(ordering: .relaxed) }

    /// The valid thumbnail of `size` of the file at `path`, upright; nil when there is none
    /// (none stored, a stale or damaged one, or a file that cannot be reached). Reads the
    /// thumbnail file and stats the original; never decodes the original.
    func lookup(path: String, size: ThumbnailSize) -> PixelBuffer? {
        guard let original = try? Original(path: path) else { return nil }
        return validThumbnail(of: original, size: size)
    }

    /// The thumbnail of `size` of the file at `path`: the valid one stored, or one made now,
    /// then stored when the cache writes (over a stale one). With `reusingStored` false (a
    /// file the app saw written anew), neither the stored thumbnail nor a failure record is
    /// looked at: one is made from the file as it is now and stored over them, since a rewrite
    /// within the second of Thumb::MTime to the same byte count leaves their stamps matching.
    ///
    /// A thumbnail is made as photos are decoded (the DCT scaling that covers it, then area
    /// averaging, EXIF orientation applied), the photo's aspect kept within `size.edge` ×
    /// `size.edge`, never enlarged. It is not stored if the photo changed while it was read.
    /// Throws when the file cannot be reached, when it cannot be decoded (recorded, when the
    /// cache writes, so that later calls throw the same reason without decoding it again), and
    /// `ImageDecodeError.stopped` (nothing recorded) once `stop` says true between pieces of a
    /// JPEG decode.
    func thumbnail(
        path: String, size: ThumbnailSize, reusingStored: Bool = true, until stop: () -> Bool = { false }
    ) throws(ImageDecodeError) -> PixelBuffer {
        let original = try Original(path: path)
        if reusingStored, let pixels = validThumbnail(of: original, size: size) { return pixels }
        let name = Self.fileName(forURI: original.stamp.uri)
        // A failure record is an image "empty" of pixels, as the standard has it: Riffle's are 1×1.
        if reusingStored, let failure = recordedImage(atPath: failureFolder + "/" + name, of: original, pixelLimit: 1) {
            throw ImageDecodeError(reason: failure.text.value(forKey: Self.reasonKey) ?? Self.unknownReason)
        }
        let decoded: DecodedImage
        do {
            decoded = try Self.make(path: original.absolutePath, size: size, colour: sRGB, until: stop)
        } catch where error == .stopped {
            throw error
        } catch {
            let text = original.stamp.textChunks(
                imageSize: nil, extra: [PNGTextChunk(key: Self.reasonKey, value: error.reason)])
            store(PixelBuffer(width: 1, height: 1), text: text, in: Self.failureSubfolders, name: name, of: original)
            throw error
        }
        let text = original.stamp.textChunks(imageSize: decoded.fullSize)
        store(decoded.pixels, text: text, in: [size.folderName], name: name, of: original)
        return decoded.pixels
    }

    /// A thumbnail of `size` made from the file at `path`, as `thumbnail(path:size:until:)`
    /// makes one, its colours brought by `colour` from the photo's profile into the colour
    /// management's (sRGB, for the cache), with what the decoder knows of the file (its upright
    /// size); looks nothing up and stores nothing. Throws the decoder's error,
    /// `ImageDecodeError.stopped` once `stop` says true between pieces of a JPEG decode.
    ///
    /// Area averaging, not the fit's Lanczos-3: Lanczos needs the JPEG decoded at twice the
    /// thumbnail's size (`ImageDecoder.jpegOversampling`), which for a 24 MP photo's x-large
    /// thumbnail (the class of 1080p cells) is a 2/8 decode, where area averaging covers it
    /// with 1/8, which is little more than the Huffman pass: 75 ms a photo instead of 95 on
    /// `riffle-bench firstscreen`'s photos, the first screen's 30 thumbnails in 1.16 s instead
    /// of 1.53. A 1/8 decode is each 8×8 block's mean, so the two box filters alias little, and a
    /// grid cell shows the thumbnail's square crop shrunk a further 1.8× (a 190-pixel cell from a
    /// 341-pixel crop), where Lanczos-3's extra crispness no longer shows.
    static func make(
        path: String, size: ThumbnailSize, colour: ColourManagement, until stop: () -> Bool = { false }
    ) throws(ImageDecodeError) -> DecodedImage {
        colour.toDisplay(try ImageDecoder.decodeFile(
            atPath: path, shrunkTo: { size.fitted($0.uprightSize) }, filter: .area, pixelLimit: PhotoDecoding.pixelLimit, until: stop))
    }

    /// The thumbnail embedded in the file at `path` (a camera's, in a JPEG's EXIF block), upright,
    /// cropped to the photo's aspect and shrunk to fit `size` (never enlarged): a coarse
    /// stand-in, read from the file's first 256 KiB in about a millisecond, to show while
    /// `thumbnail(path:size:)` runs, with the photo's colour profile (nil: sRGB) its pixels are
    /// in. Nil when the file has none (a PNG has none).
    static func embeddedThumbnail(path: String, size: ThumbnailSize) -> (pixels: PixelBuffer, profile: [UInt8]?)? {
        guard let head = try? FileBytes.read(atPath: path, upTo: PhotoDecoding.headerBytes),
              let codec = try? ImageCodecs.codec(forHead: head), let info = try? codec.probe(head: head, path: path),
              let embedded = codec.embeddedThumbnail(head: head, path: path, info: info)
        else { return nil }
        let fitted = size.fitted(embedded.size)
        let pixels = fitted == embedded.size ? embedded : AreaResample.shrink(embedded, toWidth: fitted.width, height: fitted.height)
        return (pixels, info.iccProfile)
    }

    /// Where the thumbnail of `size` of the file whose URI is `uri` is kept.
    func thumbnailPath(forURI uri: String, size: ThumbnailSize) -> String {
        folder + "/" + size.folderName + "/" + Self.fileName(forURI: uri)
    }

    /// Where Riffle records that it could not make a thumbnail: the standard's folder for this
    /// program and version.
    var failureFolder: String { ([folder] + Self.failureSubfolders).joined(separator: "/") }

    private static let failureSubfolders = ["fail", "riffle-" + AppVersion.number]

    /// The name of a thumbnail of the file whose URI is `uri`: the MD5 of the URI's UTF-8
    /// bytes in lowercase hex, then ".png" (the spec's example: "file:///home/jens/photos/me.png"
    /// gives "c6ee772d9e49320e97ec29a7eb5b1697.png").
    static func fileName(forURI uri: String) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var name: [UInt8] = []
        for byte in Insecure.MD5.hash(data: Array(uri.utf8)) {
            name += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        }
        return String(decoding: name, as: UTF8.self) + ".png"
    }

    /// The text key of a failure record that keeps the decoder's reason, in Riffle's own
    /// namespace as the standard asks of extensions ("X-" and the program's name).
    private static let reasonKey = "X-Riffle::Reason"
    /// For a record without `reasonKey`.
    private static let unknownReason = "Riffle could not read this file before, and it has not changed since"

    /// The file a thumbnail is of: where it is and how it is now.
    private struct Original {
        let absolutePath: String
        let stamp: ThumbnailStamp

        init(path: String) throws(ImageDecodeError) {
            guard let absolutePath = FileURI.absolutePath(of: path) else {
                throw ImageDecodeError(reason: "Cannot find \(path): the working directory is gone")
            }
            self.absolutePath = absolutePath
            stamp = try .current(ofFileAt: absolutePath)
        }
    }

    private func validThumbnail(of original: Original, size: ThumbnailSize) -> PixelBuffer? {
        let path = thumbnailPath(forURI: original.stamp.uri, size: size)
        return recordedImage(atPath: path, of: original, pixelLimit: size.edge * size.edge)?.image.pixels
    }

    /// The PNG at `path` and its text when it is a valid record of `original`; nil when there
    /// is no file or `recordedImage(in:of:pixelLimit:)` refuses its bytes.
    private func recordedImage(
        atPath path: String, of original: Original, pixelLimit: Int
    ) -> (image: DecodedImage, text: [PNGTextChunk])? {
        guard let bytes = try? FileBytes.read(atPath: path) else { return nil }
        return Self.recordedImage(in: bytes, of: original.stamp, pixelLimit: pixelLimit)
    }

    /// The thumbnail file `bytes` and its text when they are a valid record of the file whose
    /// stamp is `stamp`; nil when they do not decode as a PNG within `pixelLimit` pixels (a
    /// thumbnail larger than its class is not one) or their stamp is not `stamp`. The cache's
    /// whole reader of files other programs may have written (fuzzed as `swift-thumbnail-cache`).
    package static func recordedImage(
        in bytes: [UInt8], of stamp: ThumbnailStamp, pixelLimit: Int
    ) -> (image: DecodedImage, text: [PNGTextChunk])? {
        guard let recorded = try? ImageDecoder.decodeWithText(bytes, pixelLimit: pixelLimit),
              stamp.isRecorded(in: recorded.text)
        else { return nil }
        return recorded
    }

    /// Writes `pixels` and `text` as the PNG `name` in `subfolders` of `folder`, making the
    /// folders on the way, unless the cache does not write, the original lies inside `folder`,
    /// or the original changed since its stamp was taken (the pixels may be of neither state).
    /// A failed write turns writing off and says so once.
    private func store(
        _ pixels: PixelBuffer, text: [PNGTextChunk], in subfolders: [String], name: String, of original: Original
    ) {
        guard isWritable, !original.absolutePath.hasPrefix(folder + "/"),
              (try? ThumbnailStamp.current(ofFileAt: original.absolutePath)) == original.stamp,
              let bytes = try? PNGEncoder.encode(pixels, compression: .fast, text: text)
        else { return }
        do throws(ImageEncodeError) {
            var made = folder
            // $XDG_CACHE_HOME itself may not exist yet: the XDG base directory specification
            // asks for a missing destination to be made, mode 0700.
            try ThumbnailFiles.makeFolderAndParents(atPath: made)
            for subfolder in subfolders {
                made += "/" + subfolder
                try ThumbnailFiles.makeFolder(atPath: made)
            }
            try ThumbnailFiles.replace(atPath: made + "/" + name, with: bytes)
        } catch {
            if writes.exchange(false, ordering: .relaxed) {
                report("riffle: thumbnails are kept in memory only from now on: \(error.reason)")
            }
        }
    }
}
