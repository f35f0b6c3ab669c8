import RiffleDisplay
import RiffleInteraction

/// Carries out a scene's `AppCommand`s on a display: the one performer both runtimes use, the
/// live loop and the replay. The title, fullscreen, the pointer's shape and the clipboard go to
/// the display; paths to open (a drop) replace the scene with the one `open` makes for them (a
/// replay makes none: a script has no drop); quit is reported to the runtime, which ends there.
public struct AppCommandPerformer {
    private let display: Display
    private let open: ([String]) -> Scene?

    /// A performer on `display`; `open` makes the scene for dropped paths (nil: the current one
    /// stays).
    public init(display: Display, open: @escaping ([String]) -> Scene? = { _ in nil }) {
        self.display = display
        self.open = open
    }

    /// Carries out `commands`, in order, for `scene` (replaced when a drop opens a new one);
    /// true when one of them is quit, and the commands after it are not carried out.
    public func perform(_ commands: [AppCommand], on scene: inout Scene) -> Bool {
        for command in commands {
            switch command {
            case .quit: return true
            case let .setTitle(title): display.setTitle(title)
            case let .setFullscreen(on): display.setFullscreen(on)
            case let .setCursor(shape): display.setCursor(shape)
            case let .copyPhoto(path): display.offerClipboard(PhotoClipboard.photo(at: path))
            case let .copyPath(path): display.offerClipboard(PhotoClipboard.path(path))
            case let .open(paths): if let replacement = open(paths) { scene = replacement }
            }
        }
        return false
    }
}
