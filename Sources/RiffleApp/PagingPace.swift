/// Tells pages that are only passed from the page paging comes to rest on, from the times of
/// the turns and what made them: a turn that follows the one before within `passingInterval`
/// (presses faster than a decode takes), or one a held key's auto-repeat made, is passing, and
/// paging is at rest again once `passingInterval` goes by without a turn.
///
/// While paging passes, the pager decodes nothing in full (`PhotoStore.setPassing(_:)`): each
/// turn would start a decode that the next turn abandons. A lone press is not passing, so a
/// single press decodes its photo at once; the first press of a held key is a lone press too
/// (the repeats begin only after the auto-repeat delay, long enough for its decode), and its
/// first repeat passes, known by the display as a repeat (`InputEvent.key`'s `isRepeat`), not
/// by its time, which is that of a second press.
struct PagingPace {
    /// Turns closer together than this are passing, seconds. 2.5 times the X server's default
    /// auto-repeat interval of 40 ms (25 repeats a second: `xset q` on a default server, the XKB
    /// default `XkbDfltRepeatInterval` in xserver's `xkb/xkbInit.c`), so every repeat of a held
    /// key passes even with a late frame between; and well under a 24 MP photo's decode at fit
    /// (`make bench` reports its time), so turns faster than a decode takes pass.
    static let passingInterval = 0.1

    /// Clock time of the last turn, nil before the first.
    private(set) var lastTurn: Double?
    /// True from a passing turn until paging rests.
    private(set) var isPassing = false

    /// A turn at clock time `now`, made by a held key's auto-repeat when `byRepeat`; returns
    /// `isPassing` after it.
    mutating func turn(at now: Double, byRepeat: Bool = false) -> Bool {
        isPassing = byRepeat || lastTurn.map { now - $0 < Self.passingInterval } ?? false
        lastTurn = now
        return isPassing
    }

    /// True (once) when paging that was passing has come to rest by clock time `now`: no turn
    /// for `passingInterval`. `isPassing` is false after it.
    mutating func rests(at now: Double) -> Bool {
        guard isPassing, let lastTurn, now - lastTurn >= Self.passingInterval else { return false }
        isPassing = false
        return true
    }
}
