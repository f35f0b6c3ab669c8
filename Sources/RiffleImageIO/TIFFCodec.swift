import CRiffleImaging
import Glibc
import RiffleGeometry
import RiffleRaster

/// TIFF through libtiff: the first page, streamed a band at a time into the filter's
/// `RowResampler` (16-bit colour samples dithered to 8 bits on the way, as `DeepSamples` says),
/// its Orientation tag applied after, its ICC profile in the header and its
/// EXIF details read from the EXIF and GPS directories. CIELab is converted to sRGB through
/// lcms2 as it is read (relative to the WhitePoint tag), so its header carries no profile. A camera RAW file built on TIFF
/// (`CameraTIFF`'s rule) is handed to `RAWCodec`, so its header says `.raw`.
///
/// Memory: besides the result, one band of decoded rows (`TIFFRowReader.bandRows` × width ×
/// 4 bytes) and libtiff's buffer for it: for the layouts of photographs (see
/// `rfi_tiff_reader`) a stripped file is read 16 scanlines at a time (one raw scanline held;
/// libtiff holds a compressed strip as stored) and a tiled one a row of tiles at a time (a tile
/// height × the width, raw and decoded); other layouts go through TIFFRGBAImage a strip or a row
/// of tiles at a time — which for a file stored as a single strip is the whole picture, refused
/// past the pixel limit.
struct TIFFCodec: ImageCodec {
    var format: ImageFormat { .tiff }

    func probe(head: [UInt8], path: String?) throws(ImageDecodeError) -> ImageInfo {
        if CameraTIFF.isCameraRaw(head) { return try RAWCodec().probe(head: head, path: path) }
        // The directory can lie anywhere in the file: libtiff reads it from the file when there is one.
        if let path { return try TIFFRowReader(path: path).info }
        return try TIFFRowReader(bytes: head).info
    }

    func decodeFile(
        atPath path: String, shrunkTo target: (ImageInfo) -> PixelSize, filter: DownscaleFilter, pixelLimit: Int,
        until stop: () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        if let camera = try cameraCodec(path: path) {
            return try camera.decodeFile(atPath: path, shrunkTo: target, filter: filter, pixelLimit: pixelLimit, until: stop)
        }
        let reader = try TIFFRowReader(path: path)
        let info = reader.info
        let stored = info.storedSize
        let storedTarget = Self.capped(info.orientation.storedSize(ofUpright: target(info)), pixelLimit: pixelLimit)
        var resampler = filter.resampler(from: stored, to: PixelSize(
            width: max(1, min(storedTarget.width, stored.width)), height: max(1, min(storedTarget.height, stored.height))), kernels: .fastest)
        let rows = try Self.band(of: reader, pixelLimit: pixelLimit)
        var translucent = false
        while !resampler.isComplete {
            if stop() { throw .stopped }
            let band = try reader.read(into: rows.pixels, rowPixels: rows.rowPixels, pixelLimit: pixelLimit)
            guard band.rows > 0 else { break }
            translucent = translucent || band.translucent
            for y in 0..<band.rows { resampler.push(rows.row(y)) }
        }
        return DecodedImage(pixels: info.orientation.upright(resampler.result), info: info, warning: nil, isOpaque: !translucent)
    }

    func decode(_ bytes: [UInt8], atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        if CameraTIFF.isCameraRaw(bytes) { return try RAWCodec().decode(bytes, atLeast: target, pixelLimit: pixelLimit) }
        return try Self.whole(TIFFRowReader(bytes: bytes), pixelLimit: pixelLimit)
    }

    func decodeFile(atPath path: String, atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        if let camera = try cameraCodec(path: path) { return try camera.decodeFile(atPath: path, atLeast: target, pixelLimit: pixelLimit) }
        return try Self.whole(TIFFRowReader(path: path), pixelLimit: pixelLimit)
    }

    func embeddedThumbnail(head: [UInt8], path: String, info: ImageInfo) -> PixelBuffer? {
        CameraTIFF.isCameraRaw(head) ? RAWCodec().embeddedThumbnail(head: head, path: path, info: info) : nil
    }

    func exifDetails(head: [UInt8], path: String?) -> ExifDetails? {
        if CameraTIFF.isCameraRaw(head) { return RAWCodec().exifDetails(head: head, path: path) }
        guard let path, let file = try? FileBytes.openRegularFile(atPath: path).descriptor else { return nil }
        defer { close(file) }
        var raw = rfi_exif_details()
        guard rfi_tiff_read_details(file, &raw) == RFI_STATUS_OK else { return nil }
        return ExifDetails(raw)
    }

    /// `size` made smaller, its aspect kept, until it holds at most `pixelLimit` pixels (a
    /// streamed decode of a huge TIFF zoomed in is shrunk to fit the limit, as a PNG's is).
    private static func capped(_ size: PixelSize, pixelLimit: Int) -> PixelSize {
        guard size.area > pixelLimit, pixelLimit > 0 else { return size }
        let scale = (Double(pixelLimit) / Double(size.area)).squareRoot()
        return PixelSize(width: max(1, Int(Double(size.width) * scale)), height: max(1, Int(Double(size.height) * scale)))
    }

    /// The RAW codec for a camera file at `path` (`CameraTIFF`), nil for a TIFF picture.
    private func cameraCodec(path: String) throws(ImageDecodeError) -> RAWCodec? {
        CameraTIFF.isCameraRaw(try FileBytes.read(atPath: path, upTo: CameraTIFF.headBytes)) ? RAWCodec() : nil
    }

    /// A buffer for one band of `reader`'s rows; refused, before it is allocated, when the band
    /// holds more than `pixelLimit` pixels (a huge picture stored as one strip and read through
    /// TIFFRGBAImage, whose band is the whole picture).
    private static func band(of reader: TIFFRowReader, pixelLimit: Int) throws(ImageDecodeError) -> PixelBuffer {
        let width = reader.info.storedSize.width
        guard reader.bandRows <= pixelLimit / max(1, width) else {
            throw ImageDecoder.tooLarge(reader.info.uprightSize, pixelLimit: pixelLimit)
        }
        return PixelBuffer(width: width, height: reader.bandRows)
    }

    /// Every row of `reader` at full size, upright; refused past `pixelLimit` pixels.
    private static func whole(_ reader: TIFFRowReader, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        let info = reader.info
        guard info.storedSize.area <= pixelLimit else { throw ImageDecoder.tooLarge(info.uprightSize, pixelLimit: pixelLimit) }
        let picture = PixelBuffer(width: info.storedSize.width, height: info.storedSize.height)
        let band = try Self.band(of: reader, pixelLimit: pixelLimit)
        var y = 0, translucent = false
        while y < picture.height {
            let read = try reader.read(into: band.pixels, rowPixels: band.rowPixels, pixelLimit: pixelLimit)
            guard read.rows > 0 else { break }
            translucent = translucent || read.translucent
            for row in 0..<min(read.rows, picture.height - y) { picture.row(y + row).update(from: band.row(row), count: picture.width) }
            y += read.rows
        }
        return StillDecoding.whole(picture, info: info, translucent: translucent)
    }
}
