import RiffleImageIO
import RiffleLibrary

/// The tile decoder of the huge photo being zoomed, kept between tile requests: opening one
/// reads the whole file and indexes its scan (a JPEG: `JPEGScanIndex`, about as long as a
/// 1/8-scaled decode) or cuts every tile (a PNG: a full decode and deflating the tiles), which
/// every request would otherwise repeat. One is kept (only the current photo is
/// ever zoomed); safe from any decode worker, and a worker asking for the file another is
/// opening waits for that one instead of opening it again. One per app: its `PhotoPipeline`
/// owns it, its decode workers open files with it and its `PhotoStore` lets them go.
final class TileSources: @unchecked Sendable {
    private let lock = ConditionLock()
    private var current: (path: String, decoder: TileDecoder)?
    /// The file some worker is opening now.
    private var opening: String?

    /// The decoder for the file at `path`, opened on first use; opening throws
    /// `ImageDecodeError.stopped`, keeping nothing, once `stop` says true.
    func decoder(forPath path: String, until stop: () -> Bool = { false }) throws(ImageDecodeError) -> TileDecoder {
        lock.lock()
        while opening == path { lock.wait() }
        if let held = current, held.path == path {
            lock.unlock()
            return held.decoder
        }
        opening = path
        lock.unlock()
        let opened = Result { () throws(ImageDecodeError) in
            try TileDecoder(path: path, pixelLimit: PhotoDecoding.pixelLimit, until: stop)
        }
        lock.lock()
        opening = nil
        if case .success(let decoder) = opened { current = (path, decoder) }
        lock.broadcast()
        lock.unlock()
        return try opened.get()
    }

    /// Lets go of the held file (a JPEG's bytes can be tens of megabytes, a PNG's tiles as many
    /// in the temporary folder).
    func release(path: String) {
        lock.withLock { if current?.path == path { current = nil } }
    }
}
