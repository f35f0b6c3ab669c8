import Glibc
import RiffleGeometry
import RiffleImageIO
import RiffleLibrary

/// Which file a thumbnail was made from and what state that file was in, as the PNG text keys
/// of the thumbnail standard record it: a thumbnail is valid while its stamp equals the file's
/// (https://specifications.freedesktop.org/thumbnail-spec/latest/creation.html and
/// https://specifications.freedesktop.org/thumbnail-spec/latest/modifications.html).
package struct ThumbnailStamp: Hashable, Sendable {
    /// The file's URI (Thumb::URI), as `FileURI` spells it.
    package let uri: String
    /// The file's modification time in whole seconds since 1970 (Thumb::MTime).
    package let modificationTime: Int
    /// The file's size in bytes (Thumb::Size).
    package let byteCount: Int

    /// The stamp of a file with these attributes.
    package init(uri: String, modificationTime: Int, byteCount: Int) {
        self.uri = uri
        self.modificationTime = modificationTime
        self.byteCount = byteCount
    }

    /// The stamp of the file at `absolutePath` (canonical, as `FileURI.absolutePath(of:)`
    /// gives it) as it is now, from stat(2), following symbolic links; throws the OS's reason
    /// when the file cannot be reached.
    static func current(ofFileAt absolutePath: String) throws(ImageDecodeError) -> ThumbnailStamp {
        var status = stat()
        guard FileSystemPath.withSystemPath(absolutePath, { stat($0, &status) }) == 0 else {
            throw ImageDecodeError(reason: "Cannot read \(absolutePath): \(String(cString: strerror(errno)))")
        }
        return ThumbnailStamp(
            uri: FileURI.uri(forAbsolutePath: absolutePath), modificationTime: Int(status.st_mtim.tv_sec),
            byteCount: Int(status.st_size))
    }

    /// The text keys a thumbnail made now carries: Thumb::URI, Thumb::MTime, Thumb::Size,
    /// Software, and when known the original's upright size in pixels (Thumb::Image::Width and
    /// Thumb::Image::Height); then `extra`.
    func textChunks(imageSize: PixelSize?, extra: [PNGTextChunk] = []) -> [PNGTextChunk] {
        var chunks = [
            PNGTextChunk(key: Key.uri, value: uri),
            PNGTextChunk(key: Key.modificationTime, value: String(modificationTime)),
            PNGTextChunk(key: Key.byteCount, value: String(byteCount)),
        ]
        if let imageSize {
            chunks.append(PNGTextChunk(key: Key.imageWidth, value: String(imageSize.width)))
            chunks.append(PNGTextChunk(key: Key.imageHeight, value: String(imageSize.height)))
        }
        chunks.append(PNGTextChunk(key: Key.software, value: "\(AppVersion.name) \(AppVersion.number)"))
        return chunks + extra
    }

    /// Whether a thumbnail whose text keys are `text` was made from this file in this state:
    /// its Thumb::URI is `uri` and its Thumb::MTime is `modificationTime` (compared for
    /// equality, since a file moved over another may be older), and its Thumb::Size, which
    /// other programs may leave out, is `byteCount` when it is there. A thumbnail without
    /// Thumb::URI or Thumb::MTime, or with a value that is not a whole number, is not valid.
    func isRecorded(in text: [PNGTextChunk]) -> Bool {
        guard text.value(forKey: Key.uri) == uri,
              text.value(forKey: Key.modificationTime).flatMap({ Int($0) }) == modificationTime
        else { return false }
        guard let size = text.value(forKey: Key.byteCount) else { return true }
        return Int(size) == byteCount
    }

    /// The keys of the standard's thumbnail attributes, and PNG's own Software.
    enum Key {
        static let uri = "Thumb::URI"
        static let modificationTime = "Thumb::MTime"
        static let byteCount = "Thumb::Size"
        static let imageWidth = "Thumb::Image::Width"
        static let imageHeight = "Thumb::Image::Height"
        static let software = "Software"
    }
}
