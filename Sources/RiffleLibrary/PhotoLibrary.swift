import RiffleImageIO

/// One photo file the viewer can show.
public struct Photo: Hashable, Sendable {
    /// Who it is, whatever its name or place (`PhotoID`).
    public let id: PhotoID
    /// Absolute or as-given path of the file.
    public let path: String
    /// The file's name as people read it (a byte that is not UTF-8 shown as U+FFFD), in the
    /// title, on the error page and in the info panel.
    public var name: String { FileSystemPath.displayed(FilePaths.name(of: path)) }
    /// Its file is still being written (a copy under way, seen by the live folders): what it
    /// holds is what has arrived so far, not a damaged file. Set by a burst that wrote to it,
    /// cleared by the one that closed it (`FolderChange.growing`).
    public var isArriving = false

    init(id: PhotoID, path: String) {
        self.id = id
        self.path = path
    }
}

/// A folder listed into a library, and where its photos lie in the library's list.
package struct ListedFolder: Equatable, Sendable {
    /// The folder as given (or the folder of the one file given).
    package let path: String
    /// The indices its photos take in `PhotoLibrary.photos`, in natural order.
    package let range: Range<Int>
}

/// The photos Riffle browses and where it starts, from the command line's paths.
public struct PhotoLibrary: Sendable {
    /// The photos in the library's order (folders in the order given, each in natural order),
    /// found by identity through `order`.
    public var photos: [Photo] { order.photos }
    /// The photos in order, with each one's place by its `PhotoID`.
    package let order: PhotoOrder
    /// The identity the next photo met gets: one more than any given so far.
    let nextID: PhotoID
    /// Index of the photo shown first.
    public let startIndex: Int
    /// True when the library was opened on one photo file (its folder's grid lies behind it);
    /// false for folders, where the grid shows first.
    public var opensOnPhoto = false
    /// The photo named on the command line when it was one file (`riffle FILE`): shown whatever
    /// it holds, so that a file that is no image gets the error page saying why. Never probed.
    package var namedPhoto: PhotoID?
    /// What the user asked for, for the "no photos" message.
    public let description: String
    /// Sentences about the paths that gave nothing because they could not be read ("/x does not
    /// exist."), for the "no photos" page; empty when every path was there.
    public let unavailable: [String]
    /// The command line's paths that do not exist, in their order. When every path given is
    /// missing there is nothing to show, and the command line fails (exit 2) instead of opening a
    /// window; a missing path beside others only costs its line on stderr.
    public let missing: [String]

    /// True when paths were given and none of them exists: the command line was mistyped.
    public var everyPathIsMissing: Bool { !missing.isEmpty && missing.count == pathCount }

    /// How many paths the library was collected from.
    package let pathCount: Int
    /// The folders whose listings `photos` holds, each with the indices its photos take (in
    /// natural order, one run per folder listed): what a live library watches and relists.
    /// A file named on its own is in none.
    package let folders: [ListedFolder]

    /// A library of `photos` in that order (their identities unique), starting at `startIndex`;
    /// the photos it meets later get identities from `nextID` on (by default, past every one of
    /// `photos`).
    init(
        photos: [Photo], startIndex: Int, description: String, unavailable: [String], missing: [String], pathCount: Int,
        folders: [ListedFolder], nextID: PhotoID? = nil
    ) {
        order = PhotoOrder(photos)
        self.startIndex = startIndex
        self.description = description
        self.unavailable = unavailable
        self.missing = missing
        self.pathCount = pathCount
        self.folders = folders
        self.nextID = nextID ?? PhotoID((photos.map(\.id.number).max() ?? -1) + 1)
    }

    /// The detail line of the page shown when there is no photo: why, in words for a person.
    public var emptyExplanation: String {
        unavailable.isEmpty ? "Riffle found no photos in \(description)." : unavailable.joined(separator: " ")
    }

    /// Extensions taken without looking inside (case-insensitive): those of every format
    /// Riffle reads (`ImageFormat.fileExtensions`), the camera RAW ones among them.
    static let imageExtensions = Set(ImageFormat.allCases.flatMap(\.fileExtensions))

    /// Collects photos: a folder contributes its image files (by extension, or by content
    /// for files with another extension), naturally sorted; a single file opens its folder
    /// starting at that file; several paths are concatenated in the given order.
    /// Paths that do not exist are reported in `problems` and skipped; nothing is ever written.
    /// A file taken by its extension is not opened here: `PhotoProbe` reads its head later
    /// (`photosToProbe`), off the first frame's path.
    public static func collect(paths: [String], problems: inout [String]) -> PhotoLibrary {
        var unavailable: [String] = []
        if paths.count == 1, let only = paths.first, FilePaths.kind(of: only) == .file {
            var list = listFolder(FilePaths.folder(of: only), problems: &problems, unavailable: &unavailable)
            let name = FilePaths.name(of: only)
            let listedCount = list.count
            var start = list.firstIndex { FilePaths.name(of: $0) == name }
            if start == nil {
                // The file is not an image by name or content sniffing; show it anyway so the
                // user gets the error page that says why, rather than a silent skip.
                list.insert(only, at: 0)
                start = 0
            }
            let listed = ListedFolder(path: FilePaths.folder(of: only), range: (list.count - listedCount)..<list.count)
            var library = PhotoLibrary(
                photos: numbered(list), startIndex: start ?? 0, description: only, unavailable: unavailable, missing: [],
                pathCount: 1, folders: [listed])
            library.opensOnPhoto = true
            library.namedPhoto = library.photos[start ?? 0].id
            return library
        }
        var photos: [String] = []
        var missing: [String] = []
        var folders: [ListedFolder] = []
        for path in paths {
            switch FilePaths.kind(of: path) {
            case nil:
                missing.append(path)
                problems.append("\(path): no such file or folder")
                unavailable.append("\(path) does not exist.")
            case .directory:
                let start = photos.count
                photos += listFolder(path, problems: &problems, unavailable: &unavailable)
                folders.append(ListedFolder(path: path, range: start..<photos.count))
            case .file:
                photos.append(path)
            }
        }
        return PhotoLibrary(
            photos: numbered(photos), startIndex: 0, description: paths.joined(separator: ", "), unavailable: unavailable,
            missing: missing, pathCount: paths.count, folders: folders)
    }

    /// The photos of `paths`, in that order, each met for the first time: identities from 0.
    private static func numbered(_ paths: [String]) -> [Photo] {
        paths.enumerated().map { Photo(id: PhotoID($0.offset), path: $0.element) }
    }

    /// The paths of the image files directly inside `folder`, naturally sorted by name; hidden
    /// files skipped.
    static func listFolder(_ folder: String, problems: inout [String], unavailable: inout [String]) -> [String] {
        let names: [FilePaths.Entry]
        do throws(FilePaths.FolderError) {
            names = try FilePaths.entries(inFolder: folder)
        } catch {
            problems.append("\(folder): cannot list the folder (\(error.reason))")
            unavailable.append("\(folder) cannot be read (\(error.reason)).")
            return []
        }
        let images = names.filter { isPhoto(named: $0.name, in: folder, kind: $0.kind) }
        return NaturalOrder.sorted(images.map(\.name)).map { FilePaths.join(folder, $0) }
    }

    /// True when `name` in `folder` is a photo the library lists: not hidden, a file (`kind`
    /// as the listing told it, else asked with stat(2)), and an image by extension or content.
    static func isPhoto(named name: String, in folder: String, kind: FilePaths.Kind? = nil) -> Bool {
        guard !name.hasPrefix(".") else { return false }
        let path = FilePaths.join(folder, name)
        guard (kind ?? FilePaths.kind(of: path)) == .file else { return false }
        if imageExtensions.contains(FilePaths.pathExtension(of: name)) { return true }
        return sniff(path) != nil
    }

    /// The photos of the listed folders taken by their extension alone, without a look inside
    /// (`listFolder`), but the one named on the command line: what `PhotoProbe` reads the heads
    /// of. Those taken by content were looked at already; files named on their own are shown
    /// whatever they hold.
    package var photosToProbe: [Photo] {
        folders.flatMap { listed in photos[listed.range].filter(isProbed) }
    }

    /// True when `photo`, listed from a folder, was taken by its extension and was not named on
    /// the command line: its head is for `PhotoProbe` to read.
    package func isProbed(_ photo: Photo) -> Bool {
        photo.id != namedPhoto && Self.imageExtensions.contains(FilePaths.pathExtension(of: FilePaths.name(of: photo.path)))
    }

    /// The format the first bytes of the file announce, or nil (unreadable or not an image).
    static func sniff(_ path: String) -> ImageFormat? {
        guard let head = try? FileBytes.read(atPath: path, upTo: ImageFormat.signatureLength) else { return nil }
        return ImageFormat.detect(head)
    }
}
