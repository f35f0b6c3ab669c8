import RiffleImageIO

/// The date each photo of a library was taken, as far as it is known, found by the photo's
/// identity: an array at each identity's number (a library numbers its photos densely from 0
/// as it meets them, `PhotoID`), so that sorting 100,000 photos by date and taking a recall's
/// 100,000 dates in read and write an array, where a dictionary hashed every identity.
///
/// Invariant: `count` is the number of photos with a date; a photo beyond the array has none.
public struct PhotoDates: Sendable, Equatable {
    private var dates: [TakenDate?] = []
    /// How many photos have a date.
    public private(set) var count = 0

    /// No dates.
    public init() {}

    /// The date of photo `id`, nil while it has none; set to nil, it has none again.
    public subscript(id: PhotoID) -> TakenDate? {
        get { dates.indices.contains(id.number) ? dates[id.number] : nil }
        set {
            if id.number >= dates.count {
                guard newValue != nil else { return }
                dates += [TakenDate?](repeating: nil, count: id.number + 1 - dates.count)
            }
            count += (newValue == nil ? 0 : 1) - (dates[id.number] == nil ? 0 : 1)
            dates[id.number] = newValue
        }
    }

    /// These dates but of the photos `keep` refuses.
    func filter(_ keep: (PhotoID) -> Bool) -> PhotoDates {
        var kept = self
        for number in dates.indices where dates[number] != nil && !keep(PhotoID(number)) { kept[PhotoID(number)] = nil }
        return kept
    }

    /// Equal when every photo has the same date or none in both (however far each array goes).
    public static func == (a: PhotoDates, b: PhotoDates) -> Bool {
        guard a.count == b.count else { return false }
        let shared = min(a.dates.count, b.dates.count)
        return a.dates[..<shared] == b.dates[..<shared]
            && a.dates[shared...].allSatisfy { $0 == nil } && b.dates[shared...].allSatisfy { $0 == nil }
    }
}
