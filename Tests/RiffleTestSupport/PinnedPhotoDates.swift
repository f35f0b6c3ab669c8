import Foundation

/// The info panel and the bar show a photo's date taken, else its file's modification time in
/// local time: a replay's pixels would depend on the checkout's time and the machine's zone.
/// Replays pin both: every test photo's mtime to `modificationTime`, the zone to UTC.
public enum PinnedPhotoDates {
    /// 2024-05-01 12:00:00 UTC, seconds since 1970.
    public static let modificationTime = 1_714_564_800.0
    /// The zone replays run in (the environment of a child `riffle`, and this process's).
    public static let zone = "UTC"

    /// Sets every file's mtime in the folder `photos` to `modificationTime`, and this process's
    /// zone to `zone`.
    public static func pin(photos: String) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: photos) {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: modificationTime)], ofItemAtPath: photos + "/" + name)
        }
        setenv("TZ", zone, 1)
        tzset()
    }
}
