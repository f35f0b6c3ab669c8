import Foundation

/// The info panel and the bar show a photo's date taken, else its file's modification time in
/// local time: a replay's pixels would depend on the checkout's time and the machine's zone.
/// Tests pin both, before the first photo is read: every test photo's mtime to
/// `modificationTime`, the zone to UTC (the app tests' `TestPaths.photos` does it at its first use).
public enum PinnedPhotoDates {
    /// 2024-05-01 12:00:00 UTC, seconds since 1970.
    public static let modificationTime = 1_714_564_800.0
    /// The zone replays run in (the environment of a child `riffle`, and this process's).
    public static let zone = "UTC"

    /// Sets every file's mtime in the folder `photos` to `modificationTime`, and this process's
    /// zone to `zone`. A file already pinned is left alone: setting a time changes the file's
    /// ctime, which a decode running in a test beside this one reads as the file being
    /// rewritten under it (`FileStamp`).
    public static func pin(photos: String) throws {
        let pinned = Date(timeIntervalSince1970: modificationTime)
        for name in try FileManager.default.contentsOfDirectory(atPath: photos) {
            let path = photos + "/" + name
            guard try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date != pinned else { continue }
            try FileManager.default.setAttributes([.modificationDate: pinned], ofItemAtPath: path)
        }
        setenv("TZ", zone, 1)
        tzset()
    }
}
