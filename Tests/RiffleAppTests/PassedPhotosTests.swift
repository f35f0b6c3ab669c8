import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleGeometry
import RiffleInteraction
import Testing

/// While a key is held or pages pass faster than a decode takes, the photos only passed get no
/// full decode (no draft, no real decode); the photo paging rests on, and its neighbours, do.
@Suite(.serialized) struct PassedPhotosTests {
    /// Right held from p03 through 20 photos, on the virtual clock with every decode asked for
    /// finished before each frame (so each turn's requests would all run): the press lands on
    /// p04, the X server's auto-repeat (after 660 ms, every 40 ms; the display marks each a
    /// repeat) passes p05…p13 and rests on p14. The first repeat passes as the others do: p06…p12
    /// are only passed (p05 is p04's neighbour ahead, decoded in the 660 ms before the first
    /// repeat once p04 was sharp; p13 is p14's), and the store's statistics count no full decode
    /// of them; before repeats were known as such, the first repeat decoded p06.
    @Test func aHeldKeyDecodesOnlyWherePagingRests() throws {
        let dir = try FastPagingTests.library(count: 20)
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = ViewerHarness(paths: [dir.appendingPathComponent("p03.jpg").path])
        let store = h.session.pipeline.photoStore
        let press = 0.5, repeatDelay = 0.66, repeatInterval = 0.04
        var keys = [press] + (0..<10).map { press + repeatDelay + repeatInterval * Double($0) }
        for frame in 1...(3 * 60) {
            let t = Double(frame) / 60
            h.viewer.settleDecodes()
            while let at = keys.first, at <= t {
                h.viewer.handle(.key(.right, modifiers: [], time: at, isRepeat: at > press), now: at)
                keys.removeFirst()
            }
            h.viewer.advance(to: t)
            h.session.scene.renderIfNeeded()
        }
        h.viewer.settleDecodes()
        #expect(h.viewer.current == 14)
        let order = h.viewer.library.order
        func decodes(_ page: Int) -> Int { order.photo(at: page).map { store.fullDecodes[$0.id] ?? 0 } ?? 0 }
        let passed = (6...12).map { (page: $0, decodes: decodes($0)) }.filter { $0.decodes > 0 }
        #expect(passed.isEmpty, "full decodes of photos only passed: \(passed)")
        #expect(decodes(4) > 0, "the photo the press landed on and showed was decoded")
        for page in 13...15 { #expect(decodes(page) > 0, "p\(page), at or beside where paging rests, was decoded") }
        #expect(store.isSharp(order.photo(at: 14)!.id))
        #expect(!h.viewer.isAnimating, "at rest, nothing ticks")
    }

    /// A lone turn is not passing; one within `passingInterval` of the last is; paging rests
    /// once that long goes by without a turn, and says so once.
    @Test func thePaceOfTurns() {
        var pace = PagingPace()
        let lone = pace.turn(at: 1)
        #expect(!lone)
        let restsAfterLone = pace.rests(at: 5)
        #expect(!restsAfterLone, "a lone turn never passed, so never rests")
        let second = pace.turn(at: 1.04), third = pace.turn(at: 1.08)
        #expect(second && third)
        let restsEarly = pace.rests(at: 1.08 + PagingPace.passingInterval / 2)
        #expect(!restsEarly)
        let rests = pace.rests(at: 1.08 + PagingPace.passingInterval)
        #expect(rests)
        let restsAgain = pace.rests(at: 3)
        #expect(!pace.isPassing && !restsAgain)
        let afterRest = pace.turn(at: 1.08 + 2 * PagingPace.passingInterval)
        #expect(!afterRest, "a turn after a rest is lone again")
        let firstRepeat = pace.turn(at: 10, byRepeat: true)
        #expect(firstRepeat, "a held key's repeat passes, however long after the press")
    }
}
