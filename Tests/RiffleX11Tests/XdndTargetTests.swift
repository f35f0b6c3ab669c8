import RiffleX11
import Testing

/// The XDND target's answers, message by message, as a file manager's drag sends them.
struct XdndTargetTests {
    static let source: UInt = 0x40_0001
    static let files = ["text/uri-list", "text/plain"]

    @Test func anAcceptedDragHighlightsAnswersAndOpensOnDrop() {
        var target = XdndTarget()
        #expect(target.receive(.enter(source: Self.source, version: 5, types: Self.files)) == [.highlight(true)])
        #expect(target.isHighlighted)
        #expect(target.receive(.position(source: Self.source)) == [.sendStatus(to: Self.source, accept: true)])
        #expect(target.receive(.position(source: Self.source)) == [.sendStatus(to: Self.source, accept: true)])
        #expect(target.receive(.drop(source: Self.source, time: 42)) == [.highlight(false), .requestData(time: 42)])
        #expect(!target.isHighlighted)
        #expect(target.receive(.dataArrived(uriList: "file:///a.jpg\r\n"))
            == [.open(uriList: "file:///a.jpg\r\n"), .sendFinished(to: Self.source, success: true)])
        // Over: a late position of the same source is nobody's.
        #expect(target.receive(.position(source: Self.source)) == [])
    }

    @Test func aDragWithoutAURIListIsRefusedAndNeverHighlights() {
        var target = XdndTarget()
        #expect(target.receive(.enter(source: Self.source, version: 5, types: ["text/plain", "image/png"])) == [])
        #expect(!target.isHighlighted)
        #expect(target.receive(.position(source: Self.source)) == [.sendStatus(to: Self.source, accept: false)])
        #expect(target.receive(.drop(source: Self.source, time: 7)) == [.sendFinished(to: Self.source, success: false)])
    }

    @Test func leavingHidesTheHighlight() {
        var target = XdndTarget()
        _ = target.receive(.enter(source: Self.source, version: 5, types: Self.files))
        #expect(target.receive(.leave(source: Self.source)) == [.highlight(false)])
        #expect(target.receive(.drop(source: Self.source, time: 1)) == [], "a drop after leaving is no drop")
    }

    @Test func anotherSourcesMessagesAreIgnored() {
        var target = XdndTarget()
        _ = target.receive(.enter(source: Self.source, version: 5, types: Self.files))
        #expect(target.receive(.position(source: 99)) == [])
        #expect(target.receive(.leave(source: 99)) == [])
        #expect(target.receive(.drop(source: 99, time: 1)) == [])
        #expect(target.isHighlighted)
    }

    @Test func aNewerVersionThanTheWindowsIsNotUnderstood() {
        var target = XdndTarget()
        #expect(target.receive(.enter(source: Self.source, version: XdndTarget.version + 1, types: Self.files)) == [])
        #expect(target.receive(.position(source: Self.source)) == [])
    }

    @Test func aRefusedConversionFinishesUnsuccessfully() {
        var target = XdndTarget()
        _ = target.receive(.enter(source: Self.source, version: 3, types: Self.files))
        _ = target.receive(.drop(source: Self.source, time: 5))
        #expect(target.receive(.dataArrived(uriList: nil)) == [.sendFinished(to: Self.source, success: false)])
    }

    @Test func aSecondEnterReplacesTheDragAndItsHighlight() {
        var target = XdndTarget()
        _ = target.receive(.enter(source: Self.source, version: 5, types: Self.files))
        #expect(target.receive(.enter(source: 7, version: 5, types: ["text/plain"])) == [.highlight(false)])
        #expect(target.receive(.position(source: 7)) == [.sendStatus(to: 7, accept: false)])
    }
}
