@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import Testing

/// `FolderEvents` and `ChangeBurst`: inotify's events folded into one change per burst,
/// resolved against a file system the test makes up.
@Suite struct FolderEventsTests {
    typealias Event = FolderWatcher.Event

    /// Takes `events` at the deadline, the file system holding the photos `present` of "/f".
    static func take(_ events: inout FolderEvents, present: Set<String>, listed: [String] = []) -> [FolderChange]? {
        events.take(
            at: events.deadline ?? 0, listed: { _ in listed }, isPhoto: { _, name in present.contains(name) },
            listing: { _ in Array(present) })
    }

    @Test func aBurstEndsWhenQuietAndNeverLaterThanItsLongestWait() {
        var burst = ChangeBurst(at: 10)
        #expect(burst.deadline == 10 + ChangeBurst.quiet)
        burst.add(at: 10.05)
        #expect(burst.deadline == 10.05 + ChangeBurst.quiet)
        burst.add(at: 10.2)
        #expect(burst.deadline == 10 + ChangeBurst.longest)
        #expect(ChangeBurst.longest < 0.5)
    }

    /// A copy of 500 files, 2 ms apart: taken in within the longest wait, a few times in all,
    /// not once per file, and every file arrives.
    @Test func aCopyOfFiveHundredFilesIsTakenInAFewTimes() {
        var events = FolderEvents()
        var takes = 0
        var arrived: Set<String> = []
        var present: Set<String> = []
        for i in 0..<500 {
            let t = Double(i) * 0.002
            let name = "img\(i).jpg"
            present.insert(name)
            events.record([Event(folder: "/f", name: name, kind: .created), Event(folder: "/f", name: name, kind: .written)], at: t)
            if let deadline = events.deadline { #expect(deadline - (events.burst?.first ?? t) <= ChangeBurst.longest) }
            if let deadline = events.deadline, deadline <= t {
                let changes = events.take(at: t, listed: { _ in [] }, isPhoto: { _, name in present.contains(name) }, listing: { _ in nil })
                takes += 1
                arrived.formUnion(changes?.flatMap(\.arrived) ?? [])
            }
        }
        arrived.formUnion(Self.take(&events, present: present)?.flatMap(\.arrived) ?? [])
        takes += 1
        #expect(arrived.count == 500)
        #expect(takes <= 1 + Int((500 * 0.002) / ChangeBurst.longest) + 1)
    }

    @Test func nothingIsTakenBeforeTheDeadline() {
        var events = FolderEvents()
        events.record([Event(folder: "/f", name: "a.jpg", kind: .created)], at: 1)
        #expect(events.take(at: 1.01, listed: { _ in [] }, isPhoto: { _, _ in true }, listing: { _ in nil }) == nil)
        #expect(Self.take(&events, present: ["a.jpg"]) == [FolderChange(folder: "/f", arrived: ["a.jpg"])])
        #expect(events.deadline == nil)
    }

    @Test func whatAFileHoldsWhenTheBurstEndsDecides() {
        var events = FolderEvents()
        // Made and deleted within the burst: gone; written: a rewrite; deleted: departed.
        events.record([
            Event(folder: "/f", name: "brief.jpg", kind: .created), Event(folder: "/f", name: "brief.jpg", kind: .deleted),
            Event(folder: "/f", name: "old.jpg", kind: .written), Event(folder: "/f", name: "gone.jpg", kind: .deleted),
        ], at: 0)
        let changes = Self.take(&events, present: ["old.jpg"])
        #expect(changes == [FolderChange(folder: "/f", arrived: ["old.jpg"], departed: ["brief.jpg", "gone.jpg"], rewritten: ["old.jpg"])])
    }

    /// A file written to and not closed is still growing (a copy under way); its close, in this
    /// burst or a later one, says it is whole; written to again after a close, it grows again.
    @Test func aFileWrittenToAndNotClosedIsGrowing() {
        var events = FolderEvents()
        events.record([
            Event(folder: "/f", name: "card.jpg", kind: .created), Event(folder: "/f", name: "card.jpg", kind: .modified),
            Event(folder: "/f", name: "saved.jpg", kind: .modified), Event(folder: "/f", name: "saved.jpg", kind: .written),
            Event(folder: "/f", name: "again.jpg", kind: .written), Event(folder: "/f", name: "again.jpg", kind: .modified),
            Event(folder: "/f", name: "gone.jpg", kind: .modified), Event(folder: "/f", name: "gone.jpg", kind: .deleted),
        ], at: 0)
        let change = Self.take(&events, present: ["card.jpg", "saved.jpg", "again.jpg"])?.first
        #expect(change?.rewritten == ["card.jpg", "saved.jpg", "again.jpg"])
        #expect(change?.growing == ["card.jpg", "again.jpg"])
        #expect(change?.departed == ["gone.jpg"])

        // The copy's close comes in a later burst: whole.
        events.record([Event(folder: "/f", name: "card.jpg", kind: .written)], at: 1)
        let closed = Self.take(&events, present: ["card.jpg", "saved.jpg", "again.jpg"])?.first
        #expect(closed?.rewritten == ["card.jpg"])
        #expect(closed?.growing == [])
    }

    @Test func aMoveWithinTheFolderIsARename() {
        var events = FolderEvents()
        events.record([Event(folder: "/f", name: "a.jpg", kind: .movedOut(cookie: 7)), Event(folder: "/f", name: "b.jpg", kind: .movedIn(cookie: 7))], at: 0)
        let change = Self.take(&events, present: ["b.jpg"])?.first
        #expect(change?.renamed == [FolderChange.Rename(from: "a.jpg", to: "b.jpg")])
        #expect(change?.departed == ["a.jpg"])
        #expect(change?.arrived == ["b.jpg"])
    }

    @Test func lostEventsListTheFolderAnew() {
        var events = FolderEvents()
        events.record([Event(folder: "/f", name: "", kind: .relist)], at: 0)
        let change = Self.take(&events, present: ["b.jpg", "c.jpg"], listed: ["a.jpg", "b.jpg"])?.first
        #expect(change?.arrived == ["b.jpg", "c.jpg"])
        #expect(change?.departed == ["a.jpg"])
    }
}
