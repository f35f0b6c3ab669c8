/// What became of one listed folder's photos since the library last looked, by name (a name
/// is a file name inside `folder`): the input of `PhotoLibrary.applying(_:)`.
///
/// The names are what the folder holds now, not the history of how it got there: a file made
/// and deleted within one burst is in neither set. A name in `arrived` that the library
/// already lists stays where it is (it was rewritten, or created again after a deletion the
/// burst folded away).
package struct FolderChange: Equatable, Sendable {
    /// The folder, spelled as `ListedFolder.path` spells it.
    package let folder: String
    /// Names that hold a photo now.
    var arrived: Set<String> = []
    /// Names that hold no photo now (deleted, moved away, or no longer an image).
    var departed: Set<String> = []
    /// Names whose file was written anew (written to, closed after writing, or another file
    /// moved over it): their pixels and thumbnails are decoded again.
    var rewritten: Set<String> = []
    /// Names of `rewritten` still being written when the burst ended (written to and not
    /// closed since, as a copy under way leaves them): what they hold has not all arrived.
    /// A rewritten name not in it was closed (or moved in) whole.
    var growing: Set<String> = []
    /// Photos renamed within the folder, `from` → `to`: the photo keeps its place on screen
    /// under its new name. `from` is also in `departed` and `to` in `arrived`.
    var renamed: [Rename] = []

    /// One rename inside the folder.
    struct Rename: Equatable, Sendable {
        let from: String
        let to: String
    }

    /// True when the change names nothing.
    var isEmpty: Bool { arrived.isEmpty && departed.isEmpty && rewritten.isEmpty }
}
