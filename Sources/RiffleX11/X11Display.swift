import CRiffleX11
import Glibc
import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
import RiffleRaster

/// A window on an X server, drawn pixel by pixel: the app renders into an MIT-SHM image (or, where
/// the server cannot share memory, a client-side image sent with XPutImage) and `present()`
/// copies it into the window.
///
/// Pointer input comes from XInput 2 when the server speaks 2.1 or later (smooth scrolling in
/// fractional notches, trackpad pinches from 2.4), from core events otherwise; event times are
/// mapped from the server's clock onto the app's. Expose runs and resizes within one
/// `pollEvents()` are coalesced; pointer moves never are, since a release's velocity is fitted to
/// every one of them (the app handles them all before it draws, so a frame costs the same).
///
/// The window is a drop target (XDND version 5, `XdndTarget` deciding the answers) and owns the
/// CLIPBOARD while it offers something (`ClipboardTargets`, INCR for a reply larger than one
/// request: `IncrementalTransfer`); their messages are answered as they are read, never queued,
/// except a request for a photo's PNG, which waits while a background thread makes it
/// (`BackgroundConversion`) and is answered by the first `pollEvents()` after it is ready.
///
/// The window, images and connection are released when the display is, except that a
/// `frameBuffer()` the app still holds keeps its image (and so the connection) alive.
public final class X11Display: Display {
    /// The window manager is asked not to shrink the window below this.
    public static let minimumSize = PixelSize(width: 320, height: 240)

    /// The window's size in pixels, updated as ConfigureNotify events are drained.
    public private(set) var size: PixelSize
    private let connection: X11Connection
    private var frame: X11Frame
    private var buffer: PixelBuffer
    /// Frames shown at vblanks through Present, when the server offers it (and
    /// `RIFFLE_PRESENT` is not 0); nil: `frame` goes through XShmPutImage or XPutImage.
    private let presenter: X11Presenter?
    private let now: () -> Double
    private var timeMapping = ServerTimeMapping()
    private var queue: [InputEvent] = []
    /// The running pinch's scale since it began, as the server reports it.
    private var pinchScale = 1.0
    /// True once a quit signal has been turned into a `.close` event.
    private var quitSignalSeen = false
    /// True once the window's cursor has been set; until then it shows the root window's.
    private var cursorSet = false
    /// The drag and drop over the window (XDND's target side).
    private var dropTarget = XdndTarget()
    /// What the window offers on the CLIPBOARD and the server time it claimed it at, while it
    /// owns it; `produced` makes the offer's slow bytes (a photo's PNG) once first asked for.
    private var clipboard: (offer: ClipboardOffer, claimedAt: UInt32, produced: BackgroundConversion?)?
    /// Requests for the bytes `clipboard.produced` is making, with their type, oldest first:
    /// answered when the bytes are ready, refused when the offer goes first.
    private var waitingRequests: [(request: rfx_selection_request, type: String)] = []
    /// INCR replies under way, by the requestor's window and property.
    private var transfers: [PropertyKey: IncrementalTransfer] = [:]
    /// The monitor's refresh interval as RandR last gave it (nil: unknown) and when it was
    /// asked, on the app's clock.
    private var monitorRefresh: (interval: Double?, askedAt: Double)?
    /// Seconds before RandR is asked again, so that a window moved to another monitor, or a
    /// mode changed, is followed within that time (each asking is a few round trips).
    static let refreshRecheck = 1.0

    /// A property of another client's window.
    private struct PropertyKey: Hashable {
        let window: UInt
        let property: UInt
    }

    /// Opens the display named `displayName` (nil: `$DISPLAY`), shows a `size` window titled
    /// `title` and waits for it to be mapped. A `fullscreen` window is the screen's size instead,
    /// mapped fullscreen (`rfx_open`). Either way `size` is then the size the window got, which a
    /// window manager may have chosen.
    ///
    /// - Parameter displayName: an X display name (":1"); a test gives its own server's instead
    ///   of setting `DISPLAY`, which other threads may be reading.
    /// - Parameter now: the app's monotonic clock in seconds; events are stamped on it.
    /// - Throws: `X11Error` when the display cannot be opened ("cannot open X display :0 — is
    ///   DISPLAY set?") or offers no 24/32-bit TrueColor visual.
    public init(displayName: String? = nil, size requested: PixelSize, fullscreen: Bool = false, title: String, now: @escaping () -> Double) throws {
        var width = Int32(requested.width), height = Int32(requested.height)
        let handle = try callingShim { error, length in
            func open(_ name: UnsafePointer<CChar>?) -> OpaquePointer? {
                rfx_open(
                    name, &width, &height, Int32(Self.minimumSize.width), Int32(Self.minimumSize.height), fullscreen ? 1 : 0,
                    title, error, length)
            }
            guard let displayName else { return open(nil) }
            return displayName.withCString { open($0) }
        }
        let size = PixelSize(width: Int(width), height: Int(height))
        connection = X11Connection(handle: handle)
        rfx_catch_quit_signals(handle)
        // A 1×1 image first: making it finds out whether MIT-SHM works on this connection, at no
        // cost; the window-sized one is made only when frames do not go through Present.
        frame = try X11Frame(connection: connection, size: PixelSize(width: 1, height: 1))
        presenter = Self.presenterWanted && frame.isShared ? try? X11Presenter(connection: connection, size: size) : nil
        if presenter == nil { frame = try X11Frame(connection: connection, size: size) }
        buffer = frame.pixelBuffer()
        self.size = size
        self.now = now
        presenter?.onInputAnswered = { [weak self] input, shown in
            self?.presentationObserver?.frameShown(answeringInputAt: input, at: shown)
        }
        presenter?.onVBlanksFoundMadeUp = { [weak self] in self?.tellPresentationPath() }
    }

    deinit {
        clipboard?.produced?.cancel()
    }

    /// The signal (SIGINT, SIGTERM or SIGHUP) that asked Riffle to quit since the window opened,
    /// or nil: it no longer kills the process but arrives as a `.close` event, so the app ends
    /// its loop, prints its statistics and exits with 128 + the signal, as a shell reports it.
    public var quitSignal: Int32? {
        let number = rfx_quit_signal()
        return number == 0 ? nil : number
    }

    /// `Xft.dpi` / 96 from the screen's resource database (what GTK and Qt scale by), else 1.
    public var pixelsPerPoint: Double {
        XftResolution.pixelsPerPoint(resources: rfx_resource_manager(connection.handle).map { String(cString: $0) })
    }

    /// The root window's `_ICC_PROFILE` (the X ICC Profiles convention, which colour managers
    /// such as colord and xiccd set for the monitor), read when asked; nil when there is none.
    public var colourProfile: [UInt8]? {
        var profile: UnsafeMutablePointer<UInt8>?
        let length = rfx_icc_profile(connection.handle, &profile)
        guard let profile else { return nil }
        defer { free(profile) }
        return Array(UnsafeBufferPointer(start: profile, count: length))
    }

    /// Whether frames reach the server through MIT-SHM (false: XPutImage, after a line on
    /// stderr saying why).
    public var usesSharedMemory: Bool { frame.isShared }

    /// The buffer for the next frame. Waits until the server has finished reading the shared
    /// image the previous `present()` sent, so drawing never tears a frame still being copied.
    public func frameBuffer() -> PixelBuffer {
        if let presenter {
            do {
                return try presenter.pixelBuffer(for: size)
            } catch {
                fatalError("riffle: \(error)")
            }
        }
        if frame.size != size {
            do {
                frame = try X11Frame(connection: connection, size: size)
            } catch {
                fatalError("riffle: \(error)")
            }
            buffer = frame.pixelBuffer()
        }
        rfx_image_wait(connection.handle)
        return buffer
    }

    /// Sends the frame buffer to the window. With MIT-SHM this returns once the request is
    /// flushed; the server's completion event is awaited by the next `frameBuffer()`, so the
    /// app's other work overlaps the copy.
    public func present() {
        if let presenter {
            presenter.present(now: now())
        } else {
            rfx_image_put(connection.handle, frame.image)
        }
        // The theme's arrow, after the first frame rather than at opening: the first cursor
        // loaded from a theme reads its files (0.5 to 8 ms here), which that frame need not wait for.
        if !cursorSet { setCursor(.arrow) }
        // Without Present the path names the monitor's rate, which RandR may change.
        if presenter == nil, presentationObserver != nil { tellPresentationPath() }
    }

    /// Hears how frames reach the screen: the path at once, then again when it changes (Present's
    /// completions found the vblanks made up, the monitor's rate changed), and each frame shown
    /// that answered input (Present only).
    public weak var presentationObserver: PresentationObserver? {
        didSet {
            toldPresentation = nil
            tellPresentationPath()
        }
    }

    /// What decided the path the observer was last told of: Present's vblanks found made up,
    /// the monitor's rate.
    private var toldPresentation: (madeUp: Bool?, refresh: Double?)?

    /// Tells the observer the presentation path if what decides it changed since it was told.
    /// (Never takes Present's completions itself: a frame's completion taken between its
    /// presenting and `presentedFrameAnswers` would lose the input it answers.)
    private func tellPresentationPath() {
        let now = (madeUp: presenter?.knownMadeUp, refresh: presenter == nil ? refreshInterval : nil)
        if let told = toldPresentation, told.madeUp == now.madeUp, told.refresh == now.refresh { return }
        toldPresentation = now
        presentationObserver?.presentation(path: presentationPath)
    }

    /// False when the environment says `RIFFLE_PRESENT=0`: frames then go through XShmPutImage
    /// (or XPutImage), as on a server without Present (for tests of those paths).
    static var presenterWanted: Bool { getenv("RIFFLE_PRESENT").map { String(cString: $0) != "0" } ?? true }

    /// For tests: a path named by `RIFFLE_TEST_CLIPBOARD_GATE`, which a photo's PNG for the
    /// clipboard waits to exist before it is made, so that a test can see what the window does
    /// while it is being made on any machine, however fast. Nil (unset): never held.
    static let clipboardGate: String? = getenv("RIFFLE_TEST_CLIPBOARD_GATE").map { String(cString: $0) }

    /// `produce`, started once a file exists at `gate` (looked for every 10 ms), or given up
    /// (nil) when cancelled first.
    private static func held(
        _ produce: @escaping @Sendable (_ isCancelled: @Sendable () -> Bool) -> [UInt8]?, until gate: String
    ) -> @Sendable (_ isCancelled: @Sendable () -> Bool) -> [UInt8]? {
        { isCancelled in
            while access(gate, F_OK) != 0 {
                if isCancelled() { return nil }
                usleep(10_000)
            }
            return produce(isCancelled)
        }
    }

    /// How frames reach the window, in words, for `--stats`.
    private var presentationPath: String {
        if let presenter {
            return presenter.knownMadeUp
                ? "Present (MIT-SHM pixmaps, copied at once: the server's vblanks are made up, it has no scanout)"
                : "Present (MIT-SHM pixmaps, shown at vblank)"
        }
        let pace = refreshInterval.map { "paced by the clock at \(Int((1 / $0).rounded())) Hz, the monitor's RandR mode" }
            ?? "paced by the clock at 60 Hz, the monitor's rate unknown"
        return frame.isShared ? "XShmPutImage (MIT-SHM, \(pace))" : "XPutImage (\(pace))"
    }

    /// The refresh interval of the monitor the window is on, from its RandR mode
    /// (`rfx_refresh_rate`), asked again after `refreshRecheck` seconds; nil when RandR does not
    /// know it (Xvfb's own mode).
    public var refreshInterval: Double? {
        let t = now()
        if let known = monitorRefresh, t - known.askedAt < Self.refreshRecheck { return known.interval }
        let rate = rfx_refresh_rate(connection.handle)
        let interval = rate >= 1 ? 1 / rate : nil
        monitorRefresh = (interval, t)
        return interval
    }

    /// With Present: when a frame started at `time` is shown and when the next one should start
    /// (`X11Presenter.frameTiming`); nil on the other paths (or before the first frame was
    /// shown), which the loop paces itself.
    public func frameTiming(startedAt time: Double) -> FrameTiming? { presenter?.frameTiming(startedAt: time) }

    /// With Present: the frame just presented answers input that arrived at `time`.
    public func presentedFrameAnswers(inputAt time: Double) { presenter?.latestFrameAnswers(inputAt: time) }

    /// Sets `_NET_WM_NAME` and `WM_NAME`; any UTF-8 (em dashes, non-ASCII file names).
    public func setTitle(_ title: String) {
        rfx_set_title(connection.handle, title)
    }

    /// Sends a `_NET_WM_STATE` fullscreen request to the window manager; without one, nothing
    /// happens. A resulting resize arrives as `.resize`.
    public func setFullscreen(_ on: Bool) {
        rfx_set_fullscreen(connection.handle, on ? 1 : 0)
    }

    /// Shows `cursor` from the user's cursor theme (libXcursor: XCURSOR_THEME, Xcursor.theme,
    /// else the default theme), falling back to the core cursor font when the theme lacks it;
    /// `.hidden` is an empty cursor. The arrow is set after the first frame if nothing was before.
    public func setCursor(_ cursor: PointerCursor) {
        cursorSet = true
        let shape: rfx_cursor = switch cursor {
        case .arrow: RFX_CURSOR_ARROW
        case .openHand: RFX_CURSOR_OPEN_HAND
        case .closedHand: RFX_CURSOR_CLOSED_HAND
        case .hidden: RFX_CURSOR_HIDDEN
        }
        rfx_set_cursor(connection.handle, shape)
    }

    /// Claims the CLIPBOARD selection at the last key's time and answers other programs' requests
    /// for it from `offer` (`ClipboardTargets`) until one of them claims it; nothing changes when
    /// the server refuses the claim (a later claim already holds it). The previous offer's PNG,
    /// if it was being made, is given up and the requests waiting for it are refused.
    public func offerClipboard(_ offer: ClipboardOffer) {
        var claimedAt: UInt32 = 0
        guard rfx_clipboard_claim(connection.handle, &claimedAt) != 0 else { return }
        dropClipboard()
        clipboard = (offer, claimedAt, nil)
    }

    /// Asks the server (and any window manager) for the new size; it arrives as `.resize` once
    /// the ConfigureNotify comes back, and the frame buffer follows it.
    public func requestResize(_ size: PixelSize) {
        rfx_resize(connection.handle, Int32(size.width), Int32(size.height))
    }

    /// Drains the X connection without blocking: translated events, oldest first, with runs
    /// of exposes and resizes coalesced. Answers the clipboard requests waiting for a PNG made
    /// since the last call.
    public func pollEvents() -> [InputEvent] {
        drain()
        answerWaitingRequests()
        // SIGINT, SIGTERM or SIGHUP: the window closes as if its close button were pressed.
        if quitSignal != nil, !quitSignalSeen {
            quitSignalSeen = true
            queue.append(.close)
        }
        defer { queue.removeAll() }
        return queue
    }

    /// Blocks on the X connection and the wake pipe; returns at once if events are queued,
    /// in this display or already read by Xlib.
    public func waitForEvents(timeout: Double?) {
        guard queue.isEmpty else { return }
        // Rounded up: a wait of 0.4 ms must not become a busy poll of 0 ms.
        let milliseconds = timeout.map { Int32(min(max(($0 * 1000).rounded(.up), 0), Double(Int32.max))) }
        rfx_wait(connection.handle, milliseconds ?? -1)
    }

    /// Writes a byte to the wake pipe (non-blocking); safe from any thread.
    public func wake() {
        rfx_wake(connection.handle)
    }

    /// Reads the window back from the server (XGetImage, as xwd does), alpha forced opaque.
    ///
    /// - Throws: `X11Error` when the server refuses (the window is unmapped or partly off the
    ///   screen).
    public func capture() throws -> PixelBuffer {
        // A frame presented for the next vblank is not in the window until then.
        presenter?.waitUntilShown(now: now)
        let out = PixelBuffer(width: size.width, height: size.height)
        let handle = connection.handle
        _ = try callingShim { reason, length -> Void? in
            rfx_capture(
                handle, out.pixels, Int32(out.width), Int32(out.height), Int32(out.rowPixels),
                reason, length) == 0 ? () : nil
        }
        return out
    }

    // MARK: events

    /// Moves every event the server has sent into `queue`, translated and coalesced; the events
    /// read together are stamped together (`ServerTimeMapping.appTimes`).
    private func drain() {
        var events: [rfx_event] = []
        var event = rfx_event()
        // Drag-and-drop and selection events are answered as they are read: their `data` lives
        // only until the next event.
        while rfx_next_event(connection.handle, &event) != 0 {
            if !answerProtocolEvent(event) { events.append(event) }
        }
        guard !events.isEmpty else { return }
        // Expose, configure, close and focus carry no server time and must not feed the mapping.
        // An event another client sent (xdotool --window, a test) carries CurrentTime, 0: it is
        // stamped with its arrival, and must not move the mapping.
        let timed = events.indices.filter { Self.carriesServerTime(events[$0]) && events[$0].server_time != 0 }
        let arrival = now()
        let times = timeMapping.appTimes(serverMilliseconds: timed.map { events[$0].server_time }, now: arrival)
        var stamps = [Double](repeating: arrival, count: events.count)
        for (index, time) in zip(timed, times) { stamps[index] = time }
        for (event, time) in zip(events, stamps) { enqueue(event, time: time) }
    }

    // MARK: drag and drop, clipboard

    /// Answers `event` when it belongs to XDND or to the CLIPBOARD; false for any other event.
    private func answerProtocolEvent(_ event: rfx_event) -> Bool {
        switch event.type {
        case RFX_EVENT_XDND:
            let source = UInt(event.window)
            let message: XdndTarget.Message
            switch event.xdnd {
            case RFX_XDND_ENTER:
                let types = (Self.text(of: event) ?? "").split(separator: "\n").map(String.init)
                message = .enter(source: source, version: Int(event.version), types: types)
            case RFX_XDND_POSITION: message = .position(source: source)
            case RFX_XDND_LEAVE: message = .leave(source: source)
            default: message = .drop(source: source, time: event.server_time)
            }
            perform(dropTarget.receive(message))
        case RFX_EVENT_DROP_DATA:
            perform(dropTarget.receive(.dataArrived(uriList: Self.text(of: event))))
        case RFX_EVENT_SELECTION_REQUEST:
            answer(event.request, target: Self.text(of: event) ?? "")
        case RFX_EVENT_SELECTION_CLEAR:
            dropClipboard()
        case RFX_EVENT_PROPERTY_DELETED:
            continueTransfer(PropertyKey(window: UInt(event.window), property: UInt(event.property)))
        default:
            return false
        }
        return true
    }

    /// The event's data as UTF-8 text, or nil when it has none (a refused conversion).
    private static func text(of event: rfx_event) -> String? {
        guard let data = event.data, event.data_length >= 0 else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: event.data_length), as: UTF8.self)
    }

    private func perform(_ actions: [XdndTarget.Action]) {
        for action in actions {
            switch action {
            case let .sendStatus(source, accept): rfx_xdnd_send_status(connection.handle, UInt(source), accept ? 1 : 0)
            case let .requestData(time): rfx_xdnd_request_uri_list(connection.handle, time)
            case let .sendFinished(source, success): rfx_xdnd_send_finished(connection.handle, UInt(source), success ? 1 : 0)
            case let .highlight(on): queue.append(.dropHighlight(on))
            case let .open(uriList): queue.append(.drop(uriList: uriList))
            }
        }
    }

    /// Replies to a request for `target` of the CLIPBOARD: at once when the reply fits in one
    /// request, else by INCR.
    private func answer(_ request: rfx_selection_request, target: String) {
        let handle = connection.handle
        var request = request
        guard let clipboard else { return rfx_selection_refuse(handle, &request) }
        switch ClipboardTargets.reply(to: target, offer: clipboard.offer, claimedAt: clipboard.claimedAt) {
        case let .atoms(names):
            var copies = names.map { strdup($0).map { UnsafePointer($0) } }
            defer { for copy in copies { free(UnsafeMutablePointer(mutating: copy)) } }
            rfx_selection_reply_atoms(handle, &request, &copies, Int32(copies.count))
        case let .integer(value):
            var item = Int(value)
            rfx_selection_reply(handle, &request, "INTEGER", 32, &item, 1)
        case let .bytes(type, bytes):
            send(bytes, type: type, to: request)
        case let .produced(type):
            guard let conversion = clipboard.produced ?? startProducing(clipboard.offer) else {
                return rfx_selection_refuse(handle, &request)
            }
            switch conversion.result {
            case let .some(bytes?): send(bytes, type: type, to: request)
            case .some(nil): rfx_selection_refuse(handle, &request)
            case nil: waitingRequests.append((request, type))
            }
        case .refusal:
            rfx_selection_refuse(handle, &request)
        }
    }

    /// Sends `bytes` of `type` as the answer to `request`: at once when they fit in one request,
    /// else by INCR.
    private func send(_ bytes: [UInt8], type: String, to request: rfx_selection_request) {
        let handle = connection.handle
        var request = request
        if IncrementalTransfer.isNeeded(byteCount: bytes.count, maxPropertyBytes: rfx_max_property_bytes(handle)) {
            let key = PropertyKey(window: UInt(request.requestor), property: UInt(request.property))
            transfers[key] = IncrementalTransfer(type: type, bytes: bytes, chunkSize: rfx_max_property_bytes(handle))
            rfx_selection_begin_incremental(handle, &request, bytes.count)
        } else {
            bytes.withUnsafeBytes { rfx_selection_reply(handle, &request, type, 8, $0.baseAddress, $0.count) }
        }
    }

    /// Starts making `offer`'s PNG on a background thread, which wakes the window's wait when it
    /// is done; nil for an offer that has none.
    private func startProducing(_ offer: ClipboardOffer) -> BackgroundConversion? {
        guard case let .photo(_, png) = offer else { return nil }
        let conversion = BackgroundConversion(produce: Self.clipboardGate.map { gate in Self.held(png, until: gate) } ?? png)
        clipboard?.produced = conversion
        // The handle outlives the conversion's wake: the display's deinit cancels it (no wake
        // after that) before the connection can close.
        nonisolated(unsafe) let handle = connection.handle
        conversion.start { rfx_wake(handle) }
        return conversion
    }

    /// Answers the requests waiting for the PNG once it is made (refused when it could not be).
    private func answerWaitingRequests() {
        guard !waitingRequests.isEmpty, let result = clipboard?.produced?.result else { return }
        let answered = waitingRequests
        waitingRequests.removeAll()
        for (request, type) in answered {
            if let bytes = result {
                send(bytes, type: type, to: request)
            } else {
                var request = request
                rfx_selection_refuse(connection.handle, &request)
            }
        }
    }

    /// Lets go of the clipboard's offer: its PNG, if being made, is given up and the requests
    /// waiting for it are refused (ICCCM 2.2: an owner that cannot convert answers property None).
    private func dropClipboard() {
        clipboard?.produced?.cancel()
        clipboard = nil
        for (request, _) in waitingRequests {
            var request = request
            rfx_selection_refuse(connection.handle, &request)
        }
        waitingRequests.removeAll()
    }

    /// Writes the next chunk of the INCR transfer into `key`, whose last one the requestor has
    /// just deleted; a deletion of any other property means nothing here.
    private func continueTransfer(_ key: PropertyKey) {
        guard var transfer = transfers[key], let chunk = transfer.nextChunk() else { return }
        transfers[key] = chunk.isEmpty ? nil : transfer
        chunk.withUnsafeBytes {
            rfx_property_write(connection.handle, key.window, key.property, transfer.type, $0.baseAddress, $0.count)
        }
    }

    private static func carriesServerTime(_ event: rfx_event) -> Bool {
        switch event.type {
        case RFX_EVENT_CONFIGURE, RFX_EVENT_EXPOSE, RFX_EVENT_CLOSE, RFX_EVENT_FOCUS: false
        default: true
        }
    }

    /// Translates `event`, stamped `time` on the app's clock (0 for events with no server
    /// time), onto the queue.
    private func enqueue(_ event: rfx_event, time: Double) {
        let position = Point(x: event.x, y: event.y)
        let modifiers = Self.modifiers(event.modifiers)
        switch event.type {
        case RFX_EVENT_BUTTON_PRESS, RFX_EVENT_BUTTON_RELEASE:
            guard let button = PointerButton(rawValue: Int(event.button)) else { return }
            queue.append(
                event.type == RFX_EVENT_BUTTON_PRESS
                    ? .pointerDown(position: position, button: button, modifiers: modifiers, time: time)
                    : .pointerUp(position: position, button: button, modifiers: modifiers, time: time))
        case RFX_EVENT_MOTION:
            queue.append(.pointerMove(position: position, modifiers: modifiers, time: time))
        case RFX_EVENT_SCROLL:
            queue.append(
                .scroll(
                    delta: Point(x: event.scroll_dx, y: event.scroll_dy), position: position,
                    modifiers: modifiers, precise: event.scroll_precise != 0, time: time))
        case RFX_EVENT_PINCH:
            // The server reports the scale since the gesture began; the app wants each update
            // relative to the previous one.
            let previous = event.phase == RFX_PHASE_BEGIN ? 1 : pinchScale
            pinchScale = event.pinch_scale
            let phase: GesturePhase =
                event.phase == RFX_PHASE_BEGIN ? .began : event.phase == RFX_PHASE_UPDATE ? .changed : .ended
            let factor = previous > 0 ? event.pinch_scale / previous : 1
            queue.append(.pinch(scaleFactor: factor, center: position, phase: phase, time: time))
        case RFX_EVENT_KEY:
            let name = withUnsafeBytes(of: event.keysym_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            // A key Riffle has no use for (a modifier key alone, a media key) is no event.
            guard let key = KeysymName.key(named: name) else { return }
            queue.append(.key(key, modifiers: modifiers, time: time, isRepeat: event.key_repeat != 0))
        case RFX_EVENT_CONFIGURE:
            // ConfigureNotify also reports moves; only a new size matters. The frame is
            // reallocated lazily by the next frameBuffer(), once per run of resizes.
            let newSize = PixelSize(width: Int(event.width), height: Int(event.height))
            guard newSize != size else { return }
            size = newSize
            queue.removeAll { if case .resize = $0 { true } else { false } }
            queue.append(.resize(newSize))
        case RFX_EVENT_EXPOSE:
            if !queue.contains(.expose) { queue.append(.expose) }
        case RFX_EVENT_CLOSE:
            queue.append(.close)
        case RFX_EVENT_FOCUS:
            queue.append(.focus(event.focused != 0))
        default:
            return
        }
    }

    private static func modifiers(_ bits: UInt32) -> Modifiers {
        var modifiers: Modifiers = []
        if bits & UInt32(RFX_MOD_SHIFT) != 0 { modifiers.insert(.shift) }
        if bits & UInt32(RFX_MOD_CONTROL) != 0 { modifiers.insert(.control) }
        if bits & UInt32(RFX_MOD_ALT) != 0 { modifiers.insert(.alt) }
        return modifiers
    }
}
