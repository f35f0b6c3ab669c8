import CRiffleImaging
import Glibc
import RiffleGeometry
import RiffleRaster

/// A TIFF's first directory decoded a band of rows at a time through libtiff (`rfi_tiff_reader`),
/// from an open file (read where its strips and directory lie, never whole) or from bytes in
/// memory.
///
/// Order of use: `read(into:rowPixels:)` until it returns no row; the file stays open until the
/// reader goes away. One thread at a time.
final class TIFFRowReader {
    /// The header: stored size, Orientation tag, alpha, ICC profile.
    let info: ImageInfo
    /// Rows one read delivers at most (`rfi_tiff_reader_band_rows`).
    let bandRows: Int
    private let reader: OpaquePointer?
    private let descriptor: Int32
    private let memory: UnsafeMutableRawBufferPointer?

    /// Opens the TIFF file at `path` and reads its first directory. Throws with the OS's reason
    /// for a file that cannot be opened, and libtiff's for data it cannot read.
    init(path: String) throws(ImageDecodeError) {
        let file = try FileBytes.openRegularFile(atPath: path).descriptor
        do {
            (reader, info) = try Self.open { rfi_tiff_reader_open_file(file, $0, $1, $2, $3) }
        } catch {
            close(file)
            throw error
        }
        descriptor = file
        memory = nil
        bandRows = Int(rfi_tiff_reader_band_rows(reader))
    }

    /// Reads the TIFF in `bytes` (copied: the reader reads it as it goes).
    init(bytes: [UInt8]) throws(ImageDecodeError) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { copy.baseAddress!.copyMemory(from: base, byteCount: source.count) }
        }
        let data = copy.baseAddress!.assumingMemoryBound(to: UInt8.self)
        do {
            (reader, info) = try Self.open { rfi_tiff_reader_open_memory(data, bytes.count, $0, $1, $2, $3) }
        } catch {
            copy.deallocate()
            throw error
        }
        descriptor = -1
        memory = copy
        bandRows = Int(rfi_tiff_reader_band_rows(reader))
    }

    private static func open(
        _ body: (UnsafeMutablePointer<OpaquePointer?>, UnsafeMutablePointer<rfi_still_header>, UnsafeMutablePointer<CChar>, Int) -> rfi_status
    ) throws(ImageDecodeError) -> (OpaquePointer?, ImageInfo) {
        var opened: OpaquePointer?
        var header = rfi_still_header()
        var message = MessageBuffer()
        let status = message.withPointer { body(&opened, &header, $0, $1) }
        try ImageDecoder.check(status, format: .tiff, message: message.text)
        return (opened, StillDecoding.info(&header, format: .tiff))
    }

    deinit {
        rfi_tiff_reader_close(reader)
        if descriptor >= 0 { close(descriptor) }
        memory?.deallocate()
    }

    /// Decodes the next band into `rows` (room for `bandRows` rows, `rowPixels` apart) and
    /// returns how many rows it holds (0 once every row is in) and whether one is translucent.
    /// Throws libtiff's reason for data it cannot decode; `pixelLimit` bounds a band.
    func read(into rows: UnsafeMutablePointer<UInt32>, rowPixels: Int, pixelLimit: Int) throws(ImageDecodeError) -> (rows: Int, translucent: Bool) {
        var count: Int32 = 0
        var translucent: Int32 = 0
        var message = MessageBuffer()
        let status = message.withPointer {
            rfi_tiff_reader_read(reader, rows, Int32(rowPixels), Int64(pixelLimit), &count, &translucent, $0, $1)
        }
        try ImageDecoder.check(status, format: .tiff, message: message.text, size: info.uprightSize, pixelLimit: pixelLimit)
        return (Int(count), translucent != 0)
    }
}
