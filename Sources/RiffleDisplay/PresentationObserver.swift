/// Watches how a display's frames reach the screen, for `--stats`: the display tells its
/// observer the way frames travel (again whenever it learns more, as Present's first completions
/// show whether the server's vblanks are real) and, for each frame it saw shown that answered
/// input, when it was shown.
public protocol PresentationObserver: AnyObject {
    /// Frames reach the screen by `path`, in words.
    func presentation(path: String)

    /// A frame answering input that arrived at `inputTime` reached the screen at `shownTime`
    /// (both on the clock the display stamps its events on).
    func frameShown(answeringInputAt inputTime: Double, at shownTime: Double)
}
