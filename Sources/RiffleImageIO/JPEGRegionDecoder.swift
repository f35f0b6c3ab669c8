import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// Part of a JPEG, decoded without decoding the rest: pixels in the stored orientation.
public struct DecodedRegion: Sendable {
    /// Premultiplied BGRA, exactly the requested rectangle, as stored (EXIF orientation not applied).
    public let pixels: PixelBuffer
    /// A problem the decoder recovered from (see `DecodedImage.warning`); nil for a clean decode.
    public let warning: String?
}

/// Decodes a rectangle of a JPEG at a DCT scale with libjpeg-turbo's crop and skip, in time and
/// memory proportional to the rectangle — plus, without an index, entropy decoding of every row
/// above it (Huffman codes have no row index); with a `JPEGScanIndex`, only the rectangle's own
/// rows and one of context on each side.
public enum JPEGRegionDecoder {
    /// As `decode(_:region:scaleDenominator:pixelLimit:)`, but entering the file at the region's
    /// rows through `index` (`JPEGBandStream`): the same pixels, exactly, for the cost of the
    /// rows the region spans rather than all the rows above it. Falls back to the plain decode
    /// (and its errors) for a region outside the picture, a scale libjpeg lacks, or tables that
    /// cannot carry the band's predictors.
    public static func decode(
        _ bytes: [UInt8], index: JPEGScanIndex, region: PixelRect, scaleDenominator d: Int,
        pixelLimit: Int = ImageDecoder.defaultPixelLimit
    ) throws(ImageDecodeError) -> DecodedRegion {
        let structure = index.structure
        let scaled = ImageDecoder.scaledSize(PixelSize(width: structure.width, height: structure.height), denominator: d)
        let mcuHeight = structure.mcuHeight
        guard ImageDecoder.jpegScaleDenominators.contains(d), !region.isEmpty,
              PixelRect(size: scaled).contains(region)
        else { return try decode(bytes, region: region, scaleDenominator: d, pixelLimit: pixelLimit) }
        // Stored rows the region covers, as MCU rows, with one of context each side: libjpeg's
        // upsampling blends each chroma row with its neighbours.
        let first = region.y * d / mcuHeight, last = ((region.y + region.height) * d - 1) / mcuHeight
        let rows = max(0, first - 1)..<min(structure.mcuRows, last + 2)
        // From the first row there is nothing to skip; and the band's carrier row would be the
        // first row's upsampling neighbour where the picture's edge is.
        guard rows.lowerBound > 0 else { return try decode(bytes, region: region, scaleDenominator: d, pixelLimit: pixelLimit) }
        let band = bytes.withUnsafeBufferPointer { JPEGBandStream.make($0, index: index, rows: rows) }
        guard let band else { return try decode(bytes, region: region, scaleDenominator: d, pixelLimit: pixelLimit) }
        // An MCU row (8 × the largest vertical sampling factor) is a whole number of rows at
        // every scale.
        let bandRegion = PixelRect(
            x: region.x, y: region.y - band.topRow * mcuHeight / d, width: region.width, height: region.height)
        return try decode(band.bytes, region: bandRegion, scaleDenominator: d, pixelLimit: pixelLimit)
    }

    /// The pixels `region` of `bytes` decoded at 1/`scaleDenominator` (1, 2, 4 or 8), `region`
    /// given in the scaled picture's stored-orientation pixels (⌈W/d⌉ × ⌈H/d⌉).
    ///
    /// Equal to the same rectangle of `ImageDecoder`'s decode at that scale before orientation.
    /// Throws for a region not inside the scaled picture, one of more than `pixelLimit` pixels,
    /// and a progressive JPEG whose stored size exceeds `pixelLimit` (libjpeg would have to hold
    /// all its coefficients; decode it whole at a reduced scale instead).
    public static func decode(
        _ bytes: [UInt8], region: PixelRect, scaleDenominator: Int, pixelLimit: Int = ImageDecoder.defaultPixelLimit
    ) throws(ImageDecodeError) -> DecodedRegion {
        var decoded = rfi_pixels()
        var message = MessageBuffer()
        let status = bytes.withUnsafeBufferPointer { data in
            message.withPointer { text, capacity in
                rfi_jpeg_decode_region(
                    data.baseAddress, data.count, Int32(scaleDenominator), Int32(clamping: region.x),
                    Int32(clamping: region.y), Int32(clamping: region.width), Int32(clamping: region.height),
                    Int64(pixelLimit), &decoded, text, capacity)
            }
        }
        if status == RFI_STATUS_TOO_LARGE {
            throw ImageDecodeError(reason: "Cannot decode that part of the JPEG image: \(message.text)")
        }
        try ImageDecoder.check(status, format: .jpeg, message: message.text, size: region.size, pixelLimit: pixelLimit)
        guard let pixels = decoded.pixels else {
            throw ImageDecodeError(reason: "The JPEG decoder returned no pixels")
        }
        let buffer = PixelBuffer(
            wrapping: pixels, width: Int(decoded.width), height: Int(decoded.height),
            rowPixels: Int(decoded.width), release: { rfi_pixels_free($0) })
        return DecodedRegion(pixels: buffer, warning: ImageDecoder.warningText(decoded.warning, format: .jpeg, message: message.text))
    }
}
