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

/// How a library orders the photos it shows.
public enum PhotoOrdering: Sendable, Equatable {
    /// As listed: the paths in the order given, each folder's photos in natural order.
    case asListed
    /// By the date each was taken (`PhotoLibrary.dates`), oldest first, as iOS Photos' library
    /// orders them; photos of the same date, and those whose date is not known yet, keep their
    /// listed order, the undated after the dated (a photo just arrived is most likely the newest).
    case byDateTaken
}

/// The photos Riffle browses and where it starts, from the command line's paths.
public struct PhotoLibrary: Sendable {
    /// The photos in the library's order (`ordering`), found by identity through `order`.
    public var photos: [Photo] { order.photos }
    /// The photos in order, with each one's place by its `PhotoID`.
    package let order: PhotoOrder
    /// The photos as listed: folder by folder in the order given or walked, each folder's in
    /// natural order; `folders` gives each folder's run in it. `order` is this list itself, or
    /// this list sorted by date.
    package let listing: [Photo]
    /// How `order` orders `listing`.
    public let ordering: PhotoOrdering
    /// The date each photo was taken, as far as it is known (`ordering` sorts by it): the
    /// photo's own, else its file's modification time (`TakenDate.Source.fileModified`).
    public let dates: PhotoDates
    /// The identity the next photo met gets: one more than any given so far.
    let nextID: PhotoID
    /// Index of the photo shown first.
    public internal(set) var startIndex: Int
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
    /// The folders whose listings `listing` holds, each with the indices its photos take there
    /// (in natural order, one run per folder listed): what a live library watches and relists.
    /// A file named on its own is in none.
    package let folders: [ListedFolder]
    /// The root of the tree the library holds every folder of (`riffle DIR` on a folder with
    /// folders in it), nil for a library of the paths given.
    public let tree: String?

    /// A library of `listing` (their identities unique) ordered by `ordering` and `dates`,
    /// starting at `startIndex` of that order; the photos it meets later get identities from
    /// `nextID` on (by default, past every one of `listing`).
    init(
        listing: [Photo], ordering: PhotoOrdering = .asListed, dates: PhotoDates = PhotoDates(), startIndex: Int,
        description: String, unavailable: [String], missing: [String], pathCount: Int, folders: [ListedFolder],
        tree: String? = nil, nextID: PhotoID? = nil
    ) {
        self.listing = listing
        self.ordering = ordering
        self.dates = dates
        order = PhotoOrder(Self.ordered(listing, by: ordering, dates: dates))
        self.startIndex = startIndex
        self.description = description
        self.unavailable = unavailable
        self.missing = missing
        self.pathCount = pathCount
        self.folders = folders
        self.tree = tree
        self.nextID = nextID ?? PhotoID((listing.map(\.id.number).max() ?? -1) + 1)
    }

    /// `listing` in the order `ordering` gives: itself, or sorted by date taken, dated photos
    /// before undated ones, ties in listed order (a stable sort on (date, listed place)).
    static func ordered(_ listing: [Photo], by ordering: PhotoOrdering, dates: PhotoDates) -> [Photo] {
        guard ordering == .byDateTaken, dates.count > 0 else { return listing }
        let keys = listing.enumerated().map { (seconds: dates[$0.element.id]?.localSeconds ?? .max, place: $0.offset) }
        return keys.sorted { ($0.seconds, $0.place) < ($1.seconds, $1.place) }.map { listing[$0.place] }
    }

    /// This library with `changes`'s photos dated anew (a date of `nil` forgets the photo's):
    /// the photos are reordered by date and the start photo follows its photo, every photo
    /// keeping its identity. Photos not in the library are ignored. Pure.
    package func dating(_ changes: PhotoValues<TakenDate?>) -> LibraryUpdate {
        var dates = self.dates
        for (id, date) in changes where order.contains(id) { dates[id] = date }
        let library = PhotoLibrary(
            listing: listing, ordering: ordering, dates: dates, startIndex: 0, description: description,
            unavailable: unavailable, missing: missing, pathCount: pathCount, folders: folders, tree: tree, nextID: nextID)
        return following(library, rewritten: [])
    }

    /// The detail line of the page shown when there is no photo: why, in words for a person.
    public var emptyExplanation: String {
        unavailable.isEmpty ? "Riffle found no photos in \(description)." : unavailable.joined(separator: " ")
    }

    /// Extensions taken without looking inside (case-insensitive): those of every format
    /// Riffle reads (`ImageFormat.fileExtensions`), the camera RAW ones among them.
    static let imageExtensions = Set(ImageFormat.allCases.flatMap(\.fileExtensions))

    /// Collects photos: a folder contributes its image files (by extension, or by content
    /// for files with another extension), naturally sorted; a single folder with folders in it
    /// opens as its whole tree (`collectTree`); a single file opens its folder starting at that
    /// file; several paths are concatenated in the given order.
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
                listing: numbered(list), startIndex: start ?? 0, description: only, unavailable: unavailable, missing: [],
                pathCount: 1, folders: [listed])
            library.opensOnPhoto = true
            library.namedPhoto = library.photos[start ?? 0].id
            return library
        }
        if paths.count == 1, let root = paths.first, let tree = collectTree(root, problems: &problems) { return tree }
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
            listing: numbered(photos), startIndex: 0, description: paths.joined(separator: ", "), unavailable: unavailable,
            missing: missing, pathCount: paths.count, folders: folders)
    }

    /// A library of no photos, whose page says `explanation` (`emptyExplanation`).
    public static func empty(because explanation: String) -> PhotoLibrary {
        PhotoLibrary(listing: [], startIndex: 0, description: "", unavailable: [explanation], missing: [], pathCount: 0, folders: [])
    }

    /// What `riffle` with no PATH opens: the user's pictures folder (`PicturesFolder`) when it
    /// exists, else the photos bundled with Riffle (`bundled`, nil when they cannot be found),
    /// else nothing, saying why. `environment` gives HOME and the XDG variables (by default,
    /// the process's).
    package static func collectDefault(
        bundled: String?, problems: inout [String], environment: (String) -> String? = CacheHome.processEnvironment
    ) -> PhotoLibrary {
        let folder = PicturesFolder.path(environment: environment)
        if let folder, FilePaths.kind(of: folder) == .directory {
            return collect(paths: [folder], problems: &problems)
        }
        if let bundled { return collect(paths: [bundled], problems: &problems) }
        let pictures = folder.map { "\($0) does not exist" } ?? "There is no home folder"
        return empty(because: "\(pictures), and the photos bundled with Riffle were not found. Drop a folder here, or give its path.")
    }

    /// Folders a tree's walk never enters: the user's thumbnail cache, wherever it lies (it may
    /// be inside the tree, in a home shown whole).
    package static var foldersNeverWalked: Set<String> { CacheHome.folder().map { [$0 + "/thumbnails"] } ?? [] }

    /// The library of every folder of the tree under `root` (`PhotoTree`, the user's thumbnail
    /// cache skipped), ordered by date taken when more than one of its folders holds photos
    /// (dates unknown until the index gives them: listed order until then); nil when `root` has
    /// no folder in it, or cannot be listed (a folder opens as a folder, then, and says why).
    static func collectTree(_ root: String, problems: inout [String]) -> PhotoLibrary? {
        guard FilePaths.kind(of: root) == .directory else { return nil }
        var walkProblems: [String] = []
        let walked = PhotoTree.folders(under: root, skipping: foldersNeverWalked, problems: &walkProblems)
        guard walked.count > 1 else { return nil }
        problems += walkProblems
        var listing: [String] = []
        var folders: [ListedFolder] = []
        for folder in walked {
            folders.append(ListedFolder(path: folder.path, range: listing.count..<(listing.count + folder.photos.count)))
            listing += folder.photos
        }
        let holding = walked.count { !$0.photos.isEmpty }
        return PhotoLibrary(
            listing: numbered(listing), ordering: holding > 1 ? .byDateTaken : .asListed, startIndex: 0, description: root,
            unavailable: [], missing: [], pathCount: 1, folders: folders, tree: root)
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
        // The path only when the listing did not tell the kind or the name does not: a tree's
        // walk asks this of 100,000 names it already knows to be files.
        guard (kind ?? FilePaths.kind(of: FilePaths.join(folder, name))) == .file else { return false }
        if imageExtensions.contains(FilePaths.pathExtension(of: name)) { return true }
        return sniff(FilePaths.join(folder, name)) != nil
    }

    /// The photos of the listed folders taken by their extension alone, without a look inside
    /// (`listFolder`), but the one named on the command line: what `PhotoProbe` reads the heads
    /// of. Those taken by content were looked at already; files named on their own are shown
    /// whatever they hold.
    package var photosToProbe: [Photo] {
        folders.flatMap { listed in listing[listed.range].filter(isProbed) }
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
