import FoundationEssentials

/// Where the photos that ship with Riffle are: the `assets/` folder of the source tree (found by
/// walking up from the executable, so `.build/debug/riffle` finds it) or an installed copy in
/// `share/riffle/assets` beside the executable's `bin/`. `RIFFLE_ASSETS` overrides both.
public enum BundledPhotos {
    /// The folder, or nil when none is found.
    public static func folder() -> String? {
        if let path = ProcessInfo.processInfo.environment["RIFFLE_ASSETS"], !path.isEmpty { return path }
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        let installed = dir.deletingLastPathComponent().appendingPathComponent("share/riffle/assets")
        if isAssets(installed) { return installed.path }
        for _ in 0..<8 {
            let candidate = dir.appendingPathComponent("assets")
            if isAssets(candidate) { return candidate.path }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    /// The bundled folder holds the photos' licences; a stray `assets/` elsewhere does not.
    private static func isAssets(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent("LICENSES.md").path)
    }
}
