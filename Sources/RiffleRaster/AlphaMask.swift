/// An 8-bit coverage map (0 = nothing, 255 = fully covered), e.g. a line of anti-aliased text;
/// the compositor fills it with a colour.
public struct AlphaMask: Sendable {
    public let width: Int
    public let height: Int
    /// Row-major coverage, `width × height` bytes.
    public var coverage: [UInt8]

    /// A mask of the given size with no coverage.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0)
        self.width = width
        self.height = height
        coverage = [UInt8](repeating: 0, count: width * height)
    }

    /// Coverage at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> UInt8 {
        get { coverage[y * width + x] }
        set { coverage[y * width + x] = newValue }
    }
}
