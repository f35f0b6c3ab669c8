import Testing

@testable import RiffleImageIO
@testable import RiffleLibrary

/// A library's dates by identity: set, forgotten, counted, filtered and compared as a
/// dictionary of them would be, however far its array reaches.
@Suite struct PhotoDatesTests {
    static func date(_ seconds: Int64) -> TakenDate { TakenDate(localSeconds: seconds, source: .exif) }

    @Test func datesAreSetForgottenAndCounted() {
        var dates = PhotoDates()
        #expect(dates[PhotoID(5)] == nil && dates.count == 0)
        dates[PhotoID(5)] = Self.date(50)
        dates[PhotoID(1)] = Self.date(10)
        dates[PhotoID(1)] = Self.date(11)
        #expect(dates[PhotoID(5)] == Self.date(50) && dates[PhotoID(1)] == Self.date(11) && dates[PhotoID(3)] == nil)
        #expect(dates.count == 2, "a date set again counts once")
        dates[PhotoID(5)] = nil
        dates[PhotoID(9)] = nil
        #expect(dates.count == 1 && dates[PhotoID(5)] == nil && dates[PhotoID(9)] == nil)
    }

    @Test func equalityIsOfTheDatesNotOfHowFarTheArrayReaches() {
        var a = PhotoDates(), b = PhotoDates()
        a[PhotoID(2)] = Self.date(20)
        b[PhotoID(2)] = Self.date(20)
        b[PhotoID(8)] = Self.date(80)
        #expect(a != b)
        b[PhotoID(8)] = nil
        #expect(a == b, "a photo far out that lost its date leaves no trace")
        b[PhotoID(2)] = Self.date(21)
        #expect(a != b)
    }

    @Test func filterKeepsOnlyThePhotosAsked() {
        var dates = PhotoDates()
        for number in 0..<6 { dates[PhotoID(number)] = Self.date(Int64(number)) }
        let even = dates.filter { $0.number % 2 == 0 }
        #expect(even.count == 3)
        #expect((0..<6).map { even[PhotoID($0)] != nil } == [true, false, true, false, true, false])
    }
}
