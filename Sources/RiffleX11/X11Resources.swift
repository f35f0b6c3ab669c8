import CRiffleX11
import RiffleGeometry
import RiffleRaster

/// Why the X11 display could not be set up or read back.
public struct X11Error: Error, CustomStringConvertible, Sendable {
    /// One line for a person: what failed and, where known, what to do about it.
    public let message: String

    /// Wraps `message`.
    public init(message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

/// Runs a shim call that reports failure by returning nil and writing a reason into a buffer.
func callingShim<T>(_ body: (UnsafeMutablePointer<CChar>, Int32) -> T?) throws -> T {
    var reason = [CChar](repeating: 0, count: 256)
    let result = reason.withUnsafeMutableBufferPointer { body($0.baseAddress!, Int32($0.count)) }
    guard let result else {
        let text = reason.withUnsafeBufferPointer { chars in
            String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        throw X11Error(message: text)
    }
    return result
}

/// The X connection and its window, closed when the last owner lets go: the display, or a
/// frame whose pixel buffer the app still holds.
// @unchecked Sendable only so a PixelBuffer's @Sendable release action may keep it alive; it is
// used from the app's thread alone (`rfx_wake` takes the handle but touches only a pipe).
final class X11Connection: @unchecked Sendable {
    let handle: OpaquePointer

    init(handle: OpaquePointer) { self.handle = handle }

    deinit { rfx_close(handle) }
}

/// One window-sized image the app draws into (MIT-SHM or client memory, as the shim decided),
/// alive while the display or a pixel buffer over it is: a frame replaced by a resize cannot
/// pull memory from under a buffer the app still holds.
// @unchecked Sendable for the same reason as X11Connection.
final class X11Frame: @unchecked Sendable {
    let connection: X11Connection
    let image: OpaquePointer
    let size: PixelSize

    /// Allocates a `size` image (each side at least 1 pixel: X has no empty images).
    init(connection: X11Connection, size: PixelSize) throws {
        let width = max(size.width, 1), height = max(size.height, 1)
        image = try callingShim { rfx_image_create(connection.handle, Int32(width), Int32(height), $0, $1) }
        self.connection = connection
        self.size = PixelSize(width: width, height: height)
    }

    deinit { rfx_image_destroy(connection.handle, image) }

    /// Whether the server reads this frame from shared memory.
    var isShared: Bool { rfx_image_is_shared(image) != 0 }

    /// A buffer over the image's memory that keeps the frame alive as long as it lives.
    func pixelBuffer() -> PixelBuffer {
        PixelBuffer(
            wrapping: rfx_image_pixels(image), width: size.width, height: size.height,
            rowPixels: Int(rfx_image_row_pixels(image)),
            release: { _ in withExtendedLifetime(self) {} }
        )
    }
}
