/// The drop target's half of XDND version 5 (https://www.freedesktop.org/wiki/Specifications/XDND/),
/// as a value: each message from a drag source in, what the window must answer out. It holds no
/// X resource; `X11Display` carries its actions out on the wire.
///
/// Invariants: a drag is accepted exactly when its XdndEnter offered `text/uri-list`; every
/// XdndPosition of the current source is answered with an XdndStatus saying so; the highlight
/// shows from an accepted XdndEnter until its XdndLeave or XdndDrop (a message from any other
/// window is ignored); an accepted drop asks for the data, and its XdndFinished (success when the
/// data came) is sent once the data arrives; a refused drop is finished at once, unsuccessfully.
public struct XdndTarget: Hashable, Sendable {
    /// The only type Riffle takes: a list of files (RFC 2483).
    public static let acceptedType = "text/uri-list"
    /// The newest protocol version the window speaks, advertised in XdndAware.
    public static let version = 5

    /// A message from a drag source (`source` is its window).
    public enum Message: Hashable, Sendable {
        /// XdndEnter: the drag came over the window speaking `version`, offering `types`.
        case enter(source: UInt, version: Int, types: [String])
        /// XdndPosition: the pointer moved over the window.
        case position(source: UInt)
        /// XdndLeave: the drag left the window, or was cancelled.
        case leave(source: UInt)
        /// XdndDrop at server time `time` (the selection is converted at that time).
        case drop(source: UInt, time: UInt32)
        /// The XdndSelection's text/uri-list arrived (nil: the source refused to convert it).
        case dataArrived(uriList: String?)
    }

    /// What the window must do, in order.
    public enum Action: Hashable, Sendable {
        /// XdndStatus to `source`: the drop would be accepted (copy) or not.
        case sendStatus(to: UInt, accept: Bool)
        /// XConvertSelection(XdndSelection, text/uri-list) at `time`.
        case requestData(time: UInt32)
        /// XdndFinished to `source`, successful or not.
        case sendFinished(to: UInt, success: Bool)
        /// Show (true) or hide the drop highlight.
        case highlight(Bool)
        /// Open the files of this text/uri-list.
        case open(uriList: String)
    }

    private enum State: Hashable, Sendable {
        case idle
        /// A drag from `source` is over the window; `accepts` it when it offers a URI list.
        case hovering(source: UInt, accepts: Bool)
        /// `source` dropped; its data is on the way.
        case awaitingData(source: UInt)
    }

    private var state = State.idle

    public init() {}

    /// True while the drop highlight shows.
    public var isHighlighted: Bool {
        if case .hovering(_, true) = state { return true }
        return false
    }

    /// Takes in `message`; returns the actions it calls for, in order.
    public mutating func receive(_ message: Message) -> [Action] {
        switch (message, state) {
        case let (.enter(source, version, types), .idle), let (.enter(source, version, types), .hovering):
            // A newer source than the window never sends this; one that does is not understood.
            guard version <= Self.version else { return [] }
            let wasHighlighted = isHighlighted
            let accepts = types.contains(Self.acceptedType)
            state = .hovering(source: source, accepts: accepts)
            return accepts != wasHighlighted ? [.highlight(accepts)] : []
        case let (.position(source), .hovering(current, accepts)) where source == current:
            return [.sendStatus(to: source, accept: accepts)]
        case let (.leave(source), .hovering(current, accepts)) where source == current:
            state = .idle
            return accepts ? [.highlight(false)] : []
        case let (.drop(source, time), .hovering(current, accepts)) where source == current:
            guard accepts else {
                state = .idle
                return [.sendFinished(to: source, success: false)]
            }
            state = .awaitingData(source: source)
            return [.highlight(false), .requestData(time: time)]
        case let (.dataArrived(uriList), .awaitingData(source)):
            state = .idle
            guard let uriList else { return [.sendFinished(to: source, success: false)] }
            return [.open(uriList: uriList), .sendFinished(to: source, success: true)]
        default:
            return []
        }
    }
}
