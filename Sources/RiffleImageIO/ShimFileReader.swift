import CRiffleImaging
import Glibc

/// A shim row reader opened over a file: the file's descriptor (the caller closes it once the
/// reader is closed), the shim's reader and the picture's header.
struct ShimFileReader {
    let descriptor: Int32
    let reader: OpaquePointer?
    let info: ImageInfo

    /// The shim's `rfi_*_reader_open_file`: a descriptor in; the reader, the header and a message
    /// of `capacity` bytes out.
    typealias Open = (
        _ descriptor: Int32, _ reader: UnsafeMutablePointer<OpaquePointer?>, _ header: UnsafeMutablePointer<rfi_image_header>,
        _ message: UnsafeMutablePointer<CChar>, _ capacity: Int
    ) -> rfi_status

    /// Opens the file at `path` read-only and a `format` reader over it with `open`. Throws the
    /// OS's reason for a file that cannot be opened (what it is, for one that is not a regular
    /// file), and the decoder's for data that is not a readable picture of `format` (the file
    /// is closed again then).
    init(path: String, format: ImageFormat, open openReader: Open) throws(ImageDecodeError) {
        let file = try FileBytes.openRegularFile(atPath: path).descriptor
        var header = rfi_image_header()
        var message = MessageBuffer()
        var opened: OpaquePointer?
        let status = message.withPointer { openReader(file, &opened, &header, $0, $1) }
        do {
            try ImageDecoder.check(status, format: format, message: message.text)
        } catch {
            close(file)
            throw error
        }
        descriptor = file
        reader = opened
        info = ImageInfo(format: format, header: header)
    }
}
