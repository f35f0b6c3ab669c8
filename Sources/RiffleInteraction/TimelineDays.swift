import RiffleGeometry

/// The days that have photos, in time order, each with how many: what every level of the
/// timeline is laid out from. The photos themselves are numbered 0 ..< `photoCount` in time
/// order; day k holds `photos(ofDay: k)`.
///
/// Built once, in O(photos) from each photo's day or O(days) from counts; every query after is a
/// binary search over the days, so nothing a frame asks depends on the library's size.
public struct TimelineDays: Sendable, Equatable {
    /// Day numbers (days since 1970-01-01, `CivilCalendar`) that have photos, ascending.
    public let days: [Int]
    /// `firstPhoto[k]` is the number of day k's first photo; `firstPhoto[days.count]` is
    /// `photoCount`.
    public let firstPhoto: [Int]

    /// How many photos there are.
    public var photoCount: Int { firstPhoto.last ?? 0 }

    /// The days of photos whose days, in time order, are `dayOfEachPhoto` (ascending).
    public init(dayOfEachPhoto: [Int]) {
        var days: [Int] = [], first: [Int] = []
        for (photo, day) in dayOfEachPhoto.enumerated() where days.last != day {
            precondition(days.last.map { $0 < day } ?? true, "photos out of time order")
            days.append(day)
            first.append(photo)
        }
        first.append(dayOfEachPhoto.count)
        self.days = days
        firstPhoto = first
    }

    /// Days `counts` (ascending days, each with at least one photo).
    public init(counts: [(day: Int, count: Int)]) {
        var first = [0]
        first.reserveCapacity(counts.count + 1)
        for entry in counts {
            precondition(entry.count > 0, "a day without photos")
            first.append(first[first.count - 1] + entry.count)
        }
        days = counts.map(\.day)
        firstPhoto = first
    }

    /// The photos of day `k`.
    public func photos(ofDay k: Int) -> Range<Int> { firstPhoto[k]..<firstPhoto[k + 1] }

    /// The day (its index in `days`) that photo `photo` was taken on.
    public func dayIndex(ofPhoto photo: Int) -> Int {
        // The last k with firstPhoto[k] <= photo.
        var low = 0, high = days.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if firstPhoto[middle] <= photo { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The days grouped into runs that share `key(day number)` (a month's, a year's), in order:
    /// each run's key and its days' indices.
    public func runs(by key: (Int) -> Int) -> [(key: Int, days: Range<Int>)] {
        var runs: [(key: Int, days: Range<Int>)] = []
        var start = 0
        while start < days.count {
            let value = key(days[start])
            var end = start + 1
            while end < days.count, key(days[end]) == value { end += 1 }
            runs.append((value, start..<end))
            start = end
        }
        return runs
    }
}
