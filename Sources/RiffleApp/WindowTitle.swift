import RiffleLibrary

/// The window title: the photo's file name and its place, "coffee.png — 3 of 12".
public enum WindowTitle {
    /// The title for photo `index` of `library` ("Riffle — no photos" for an empty library).
    public static func text(library: PhotoLibrary, index: Int) -> String {
        guard library.photos.indices.contains(index) else { return "Riffle — no photos" }
        return "\(library.photos[index].name) — \(index + 1) of \(library.photos.count)"
    }

    /// The title while the library grid shows: its folder's name and how many photos, as
    /// "Pictures — 12 photos" (the folder of the one file given, when Riffle opened a photo;
    /// "Riffle" for several paths; "Riffle — no photos" for an empty library).
    public static func grid(library: PhotoLibrary) -> String {
        guard !library.photos.isEmpty else { return "Riffle — no photos" }
        let name = if library.pathCount == 1, let folder = library.folders.first, library.folders.count == 1 {
            folderName(folder.path)
        } else {
            library.description.contains(", ") ? "Riffle" : FilePaths.name(of: library.description)
        }
        let count = library.photos.count
        return "\(name) — \(count) \(count == 1 ? "photo" : "photos")"
    }

    /// The last name of `folder` made absolute ("Pictures" for "." in ~/Pictures), "/" for the root.
    private static func folderName(_ folder: String) -> String {
        let absolute = FileURI.absolutePath(of: folder) ?? folder
        return absolute == "/" ? "/" : FilePaths.name(of: absolute)
    }
}
