import RiffleInteraction
import Testing

/// The notice ("Copied") as a pure function of time: full for `hold`, then a linear fade.
@Suite struct NoticeLabelTests {
    @Test func showsHoldsAndFades() {
        var notice = NoticeLabel()
        #expect(notice.opacity(at: 0) == 0)
        #expect(!notice.isAnimating(at: 0))
        notice.show("Copied", at: 10)
        #expect(notice.text == "Copied")
        #expect(notice.opacity(at: 10) == 1)
        #expect(notice.opacity(at: 10 + NoticeLabel.hold) == 1)
        #expect(abs(notice.opacity(at: 10 + NoticeLabel.hold + NoticeLabel.fadeOut / 2) - 0.5) < 1e-9)
        #expect(notice.opacity(at: 10 + NoticeLabel.hold + NoticeLabel.fadeOut) == 0)
        #expect(notice.isAnimating(at: 10 + NoticeLabel.hold))
        #expect(!notice.isAnimating(at: 10 + NoticeLabel.hold + NoticeLabel.fadeOut))
        // Shown again, it starts over (queried at any time in any order: a pure function).
        notice.show("Path copied", at: 11)
        #expect(notice.opacity(at: 11 + NoticeLabel.hold) == 1)
        #expect(notice.text == "Path copied")
    }
}
