/// Values learned of photos (their dates, their shapes), in the order they were learned: a
/// later value of a photo replaces an earlier one. Two arrays, so that a recall's 100,000 dates
/// are appended and handed over as they are, where a dictionary hashed every identity (40 ms of
/// a launch's 250).
public struct PhotoValues<Value: Sendable>: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    // Inlinable, with what it touches, so that its users' code is specialised for their values
    // (unspecialised, taking a recall's 100,000 dates cost 20 ms through witness tables).
    @usableFromInline var ids: [PhotoID] = []
    @usableFromInline var values: [Value] = []

    /// None.
    @inlinable public init() {}

    @inlinable public init(dictionaryLiteral elements: (PhotoID, Value)...) {
        for (id, value) in elements { append(id, value) }
    }

    /// How many values were learned (a photo learned twice counts twice).
    @inlinable public var count: Int { ids.count }
    @inlinable public var isEmpty: Bool { ids.isEmpty }

    /// Room for `count` values without growing.
    @inlinable public mutating func reserveCapacity(_ count: Int) {
        ids.reserveCapacity(count)
        values.reserveCapacity(count)
    }

    /// Photo `id` has `value`, replacing what was learned of it before.
    @inlinable public mutating func append(_ id: PhotoID, _ value: Value) {
        ids.append(id)
        values.append(value)
    }

    /// `later`'s values learned after these.
    @inlinable public mutating func append(contentsOf later: PhotoValues) {
        if isEmpty {
            self = later
        } else {
            ids += later.ids
            values += later.values
        }
    }

    /// The values learned, in order (a later one of a photo replaces an earlier).
    @inlinable public func makeIterator() -> Zip2Sequence<[PhotoID], [Value]>.Iterator { zip(ids, values).makeIterator() }

    /// One past the highest identity's number learned of: identities are dense from 0
    /// (`PhotoID`), so an array this long stands for a set or a map of them.
    @inlinable var numberBound: Int { (ids.lazy.map(\.number).max() ?? -1) + 1 }

    /// The last value learned of each of `photos`, in their order, `otherwise` for a photo
    /// with none.
    @inlinable public func latest(of photos: [Photo], otherwise: Value) -> [Value] {
        var last = [Int](repeating: -1, count: numberBound)
        for (k, id) in ids.enumerated() { last[id.number] = k }
        return photos.map { last.indices.contains($0.id.number) && last[$0.id.number] >= 0 ? values[last[$0.id.number]] : otherwise }
    }

    /// The last value learned of each photo, those `keep` takes, in the order learned.
    @inlinable public func latest(where keep: (PhotoID, Value) -> Bool) -> PhotoValues {
        var met = [Bool](repeating: false, count: numberBound)
        var kept: [Int] = []
        for k in ids.indices.reversed() where !met[ids[k].number] {
            met[ids[k].number] = true
            if keep(ids[k], values[k]) { kept.append(k) }
        }
        var latest = PhotoValues()
        latest.reserveCapacity(kept.count)
        for k in kept.reversed() { latest.append(ids[k], values[k]) }
        return latest
    }
}
