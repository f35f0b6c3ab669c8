import RiffleImageIO

/// The tile decoder of the huge photo being zoomed, kept between tile requests: opening one
/// reads the whole file and its header, which every request would otherwise repeat. One is
/// kept (only the current photo is ever zoomed); safe from any decode worker.
final class TileSources: @unchecked Sendable {
    static let shared = TileSources()

    private let lock = ConditionLock()
    private var current: (path: String, decoder: TileDecoder)?

    /// The decoder for the file at `path`, opened on first use.
    func decoder(forPath path: String) throws(ImageDecodeError) -> TileDecoder {
        if let held = lock.withLock({ current }), held.path == path { return held.decoder }
        let decoder = try TileDecoder(bytes: try FileBytes.read(atPath: path), pixelLimit: PhotoDecoding.pixelLimit)
        lock.withLock { current = (path, decoder) }
        return decoder
    }

    /// Lets go of the held file (its bytes can be tens of megabytes).
    func release(path: String) {
        lock.withLock { if current?.path == path { current = nil } }
    }
}
