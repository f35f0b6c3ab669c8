/// A photo's identity for as long as Riffle runs: given to a file when the library first lists
/// it, kept when the file is renamed, rewritten or re-sorted, never given to another file.
///
/// Everything that holds something of a photo (its decodes, its thumbnails, its page, its
/// cell's crop) holds it by this identity; an index is only a place in one ordering of the
/// library (`PhotoOrder`), which a change of the folders renumbers. The value carries no
/// meaning beyond equality and the order the library met its photos in.
public struct PhotoID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number the library gave it: the count of photos it had met before.
    @usableFromInline let number: Int

    init(_ number: Int) { self.number = number }

    public static func < (a: PhotoID, b: PhotoID) -> Bool { a.number < b.number }

    public var description: String { "photo #\(number)" }
}
