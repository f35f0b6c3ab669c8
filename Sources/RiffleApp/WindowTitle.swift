/// The window title: the photo's file name and its place, "coffee.png — 3 of 12".
public enum WindowTitle {
    /// The title for photo `index` of `library` ("Riffle — no photos" for an empty library).
    public static func text(library: PhotoLibrary, index: Int) -> String {
        guard library.photos.indices.contains(index) else { return "Riffle — no photos" }
        return "\(library.photos[index].name) — \(index + 1) of \(library.photos.count)"
    }

    /// The title while the library grid shows: its folder's name and how many photos, as
    /// "Pictures — 12 photos" ("Riffle — no photos" for an empty library).
    public static func grid(library: PhotoLibrary) -> String {
        guard !library.photos.isEmpty else { return "Riffle — no photos" }
        let name = library.description.contains(", ") ? "Riffle" : FilePaths.name(of: library.description)
        let count = library.photos.count
        return "\(name) — \(count) \(count == 1 ? "photo" : "photos")"
    }
}
