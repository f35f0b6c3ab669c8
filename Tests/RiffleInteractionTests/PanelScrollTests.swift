import RiffleGeometry
import RiffleInteraction
import Testing

/// The open panel's scroll (`ChromeInteraction.panelScroll`): the info panel and the help, taller
/// than a small window, scroll under the wheel within their lines; the wheel over them never
/// reaches the photo or the strip; a panel opens at its top. Viewport 400×300, scale 1: bar 44,
/// info rows 22 px with 12 px padding, help lines 18 px with 12 px margins.
@Suite struct PanelScrollTests {
    static let viewport = Size(width: 400, height: 300)

    func harness(infoRows: Int) -> ViewerHarness {
        var h = ViewerHarness(content: Size(width: 2000, height: 1600), libraryBehind: true)
        h.viewer = ViewerInteraction(pageCount: 3, viewport: Self.viewport, chromeVisible: true, libraryBehind: true, infoRows: infoRows)
        for page in 0..<3 { h.setContentSize(Size(width: 2000, height: 1600), forPage: page) }
        return h
    }

    @Test func aTallInfoSheetScrollsWithinItsRows() {
        var h = harness(infoRows: 14)
        _ = h.key(.character("i"))
        h.run(0.5)
        let layout = h.state.chrome.layout
        // 14 rows: 24 + 308 = 332 px of rows in a sheet of 300 − 44 = 256.
        #expect(layout.infoPanel == Rect(x: 0, y: 44, width: 400, height: 256))
        #expect(layout.infoScrollLimit == 76)
        let scale = h.state.pages.first { $0.index == 0 }?.transform.scale
        h.wheel(Point(x: 0, y: -1), at: Point(x: 200, y: 200))
        #expect(h.state.chrome.panelScroll == 22, "one row a notch")
        for _ in 0..<10 { h.wheel(Point(x: 0, y: -1), at: Point(x: 200, y: 200)) }
        #expect(h.state.chrome.panelScroll == 76, "held at the last row")
        h.wheel(Point(x: 0, y: 1), at: Point(x: 200, y: 200))
        #expect(h.state.chrome.panelScroll == 54)
        h.run(1)
        #expect(h.state.pages.first { $0.index == 0 }?.transform.scale == scale, "the wheel over the panel zoomed the photo")
        #expect(h.state.currentPage == 0, "the wheel over the panel turned the page")
        // Another photo's details of another length start at the top; a window tall enough has nothing to scroll.
        h.viewer.setInfoRows(15)
        #expect(h.state.chrome.panelScroll == 0)
        h.wheel(Point(x: 0, y: -3), at: Point(x: 200, y: 200))
        h.viewer.resize(viewport: Size(width: 400, height: 600), at: h.t)
        #expect(h.state.chrome.panelScroll == 0)
        // Closed and opened again: at its top.
        h.viewer.resize(viewport: Self.viewport, at: h.t)
        h.wheel(Point(x: 0, y: -2), at: Point(x: 200, y: 200))
        _ = h.key(.character("i"))
        _ = h.key(.character("i"))
        #expect(h.state.chrome.panelScroll == 0)
    }

    @Test func theHelpScrollsUnderTheWheelAnywhere() {
        var h = harness(infoRows: 0)
        h.viewer.setHelpRows(30)
        _ = h.key(.function(1))
        h.run(0.5)
        let layout = h.state.chrome.layout
        // 30 lines: 24 + 540 = 564 px under a bar of 44 in 300.
        #expect(layout.helpPanel == Rect(x: 12, y: 44, width: 376, height: 256))
        #expect(layout.scrollLimit(of: .help) == 308)
        h.wheel(Point(x: 0, y: -2), at: Point(x: 10, y: 290))
        #expect(h.state.chrome.panelScroll == 36, "one line a notch")
        #expect(h.state.chrome.panel == .help)
    }
}
