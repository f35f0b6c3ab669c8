import FoundationEssentials
import RiffleImageIO
import RiffleLibrary
import RiffleRaster

/// Where `riffle --replay --snapshots DIR` writes its snapshots: DIR/NAME.png, the folder made
/// if missing. It is the one place Riffle writes files to keep (a huge PNG's tiles go to an
/// unnamed temporary file), and only where the user pointed it.
public struct SnapshotFolder: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// Writes `frame` as NAME.png.
    public func write(name: String, frame: PixelBuffer) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try PNGEncoder.write(frame, toPath: FilePaths.join(path, name + ".png"))
    }
}
