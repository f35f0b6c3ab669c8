/// The screen's text resolution as desktops publish it: the `Xft.dpi` resource that xrdb loads
/// into the root window's RESOURCE_MANAGER property (GNOME, KDE and Xfce set it from their
/// scaling settings; GTK and Qt read it).
enum XftResolution {
    /// 96 dpi is 1 pixel per point: the X11 and Xft baseline (fontconfig's default dpi).
    static let baselineDPI = 96.0

    /// `Xft.dpi` / 96 from `resources` (xrdb's "name:\tvalue" lines), rounded to a quarter;
    /// 1 when it is absent, not a number, or outside 48...960 dpi.
    static func pixelsPerPoint(resources: String?) -> Double {
        guard let resources else { return 1 }
        for line in resources.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingSpaces == "Xft.dpi",
                  let dpi = Double(parts[1].trimmingSpaces), (48...960).contains(dpi)
            else { continue }
            return (dpi / baselineDPI * 4).rounded() / 4
        }
        return 1
    }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
