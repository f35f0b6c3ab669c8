import RiffleGeometry
import RiffleImageIO
import RiffleLibrary
import Synchronization

/// The photo named on the command line, decoded from the first moment of the process, while the
/// X connection, the window and the session are still being made.
///
/// `riffle FILE` spends its first tens of milliseconds on things that do not need the photo:
/// connecting to the X server, creating the window and its shared-memory frames, listing the
/// folder, building the scene. A decode that waits for them starts that much later. The head
/// start decodes the photo at fit for the window size asked for, on both cores
/// (`ImageDecoder.decodesOnTwoCores`), at the process's priority, beside all that; the focus
/// worker that then takes the photo's fit decode (`PhotoDecoding.perform`) takes this one
/// instead, waiting for it if it is still running, and brings it into the display's colours
/// (known only once the X connection is up).
///
/// It is taken once, and only for the same file at the same viewport: the file is known by its
/// `FileStamp` (device and inode, however its path is spelled, and unchanged since the head start
/// began); otherwise it is dropped and the photo decodes as any other. Once the window is made,
/// a head start for another size than the window got (a window manager chose) is abandoned, and
/// one for the window's size begins (`riffle`'s main).
package final class HeadStartDecode: @unchecked Sendable {
    /// The window size in pixels the photo is decoded to fit.
    package let viewport: PixelSize
    private let stamp: FileStamp?
    /// Set by `abandon()`: the decode stops at its next rows and is never taken.
    private let abandoned = Atomic<Bool>(false)
    /// Guards `state`; signalled when the decode ends.
    private let lock = ConditionLock()
    private var state = State.running

    private enum State {
        case running
        case done(Result<DecodedImage, ImageDecodeError>)
        case taken
    }

    /// Starts decoding the photo at `path` for `viewport` (the window's size in pixels) on a
    /// thread of its own at the caller's priority.
    package init(path: String, viewport: PixelSize) {
        self.viewport = viewport
        stamp = FileStamp.current(ofFileAt: path)
        WorkerThread.start(stackBytes: DecodeService<DecodeOutput>.workerStackBytes, nicenessOffset: nil) { [self] in
            let decoded = Result { () throws(ImageDecodeError) -> DecodedImage in
                try ImageDecoder.decodeFile(
                    atPath: path, shrunkTo: { PhotoDecoding.target(for: $0.uprightSize, in: viewport, factor: 1) },
                    pixelLimit: PhotoDecoding.pixelLimit, secondCore: PhotoDecoding.secondCore,
                    until: { self.abandoned.load(ordering: .relaxed) })
            }
            lock.withLock {
                state = .done(decoded)
                lock.broadcast()
            }
        }
    }

    /// True once the pager's first fit decode of the photo has taken it.
    package var wasTaken: Bool {
        lock.withLock {
            if case .taken = state { return true }
            return false
        }
    }

    /// Stops the decode, whose viewport turned out not to be the window's (a window manager gave
    /// the window another size), so that it takes no more of the cores the photo's decode for
    /// the right size needs; it is never taken.
    package func abandon() {
        abandoned.store(true, ordering: .relaxed)
    }

    /// The head start's decode of the file at `path` at fit in `viewport`, waiting for it to
    /// end; nil when it is for another file or viewport, was taken already, or the file has
    /// changed since it began. Given once: later calls return nil.
    func take(path: String, viewport: PixelSize) -> Result<DecodedImage, ImageDecodeError>? {
        guard !abandoned.load(ordering: .relaxed), viewport == self.viewport, let stamp, FileStamp.current(ofFileAt: path) == stamp
        else { return nil }
        let result: Result<DecodedImage, ImageDecodeError>? = lock.withLock {
            while case .running = state { lock.wait() }
            guard case .done(let result) = state else { return nil }
            state = .taken
            return result
        }
        // Rewritten while it decoded: the pixels may mix two states of the file.
        guard let result, FileStamp.current(ofFileAt: path) == stamp else { return nil }
        return result
    }
}
