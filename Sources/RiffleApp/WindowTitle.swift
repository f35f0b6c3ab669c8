/// The window title: the photo's file name and its place, "coffee.png — 3 of 12".
public enum WindowTitle {
    /// The title for photo `index` of `library` ("Riffle — no photos" for an empty library).
    public static func text(library: PhotoLibrary, index: Int) -> String {
        guard library.photos.indices.contains(index) else { return "Riffle — no photos" }
        return "\(library.photos[index].name) — \(index + 1) of \(library.photos.count)"
    }
}
