import Foundation

/// A scratch tree of photos with dates taken of their own: copies of one test photo, each
/// given its EXIF DateTimeOriginal by exiftool (the same tool the date tests compare against),
/// in the folders their relative paths name. Removed with the object.
public final class DatedTree {
    /// The tree's root.
    public let root: String

    /// A tree holding a copy of `photo` at each relative path of `dates`, dated by its value
    /// ("2021:03:04 10:00:00", EXIF's own spelling), or left undated for nil.
    public init(photo: String, dates: [String: String?]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-tree-\(UUID().uuidString)").path
        for (relative, date) in dates {
            let path = root + "/" + relative
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: photo, toPath: path)
            if let date { try Self.setDateTaken(date, of: path) }
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Writes `date` as the EXIF DateTimeOriginal of the photo at `path` (in place).
    public static func setDateTaken(_ date: String, of path: String) throws {
        _ = try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=\(date)", path])
    }
}
