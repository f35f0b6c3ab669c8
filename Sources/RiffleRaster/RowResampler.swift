import RiffleGeometry

/// Shrinks a picture to an exact size as its rows arrive, top to bottom — straight from a
/// decoder's scanlines — so the picture is never held whole at its source size.
///
/// Any row source (a JPEG's scanlines, a PNG's rows, a buffer in memory) pushes its rows in
/// order; `result` is complete once `isComplete`.
public protocol RowResampler {
    /// The picture being filled, the target size; complete once every source row is pushed.
    var result: PixelBuffer { get }
    /// True once every source row has been pushed.
    var isComplete: Bool { get }
    /// Takes the next source row: source-width premultiplied BGRA pixels.
    mutating func push(_ row: UnsafePointer<UInt32>)
}

extension AreaResampler: RowResampler {}
extension LanczosResampler: RowResampler {}

/// The filter a picture is shrunk with to the size it is shown at.
public enum DownscaleFilter: Sendable, Hashable {
    /// `AreaResampler`: the mean of the area each output pixel covers (a box as wide as one
    /// output pixel). Soft, and passes some detail above the output's Nyquist limit as aliasing.
    case area
    /// `LanczosResampler`: Lanczos-3 scaled by the reduction, sharp up to the output's Nyquist
    /// limit and nearly flat beyond it (the photographic standard: Pillow's `LANCZOS`).
    case lanczos3

    /// A resampler from pictures of `source` size to `target` (each side no larger, at least 1);
    /// Lanczos-3's loops are `kernels`.
    public func resampler(from source: PixelSize, to target: PixelSize, kernels: LanczosKernels = .reference) -> any RowResampler {
        switch self {
        case .area: AreaResampler(from: source, to: target)
        case .lanczos3: LanczosResampler(from: source, to: target, kernels: kernels)
        }
    }

    /// `source` shrunk to `target` (each side no larger, at least 1), its rows pushed through
    /// `resampler(from:to:kernels:)` one at a time; `source` itself when the sizes are equal.
    public func shrink(_ source: PixelBuffer, to target: PixelSize, kernels: LanczosKernels = .reference) -> PixelBuffer {
        if target == source.size { return source }
        var resampler = resampler(from: source.size, to: target, kernels: kernels)
        for y in 0..<source.height { resampler.push(source.row(y)) }
        return resampler.result
    }
}
