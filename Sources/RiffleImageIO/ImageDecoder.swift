import CRiffleImaging
import Glibc
import RiffleGeometry
import RiffleRaster

/// The front door of decoding: reads any format Riffle knows into upright premultiplied BGRA
/// pixel buffers, through the format's `ImageCodec` (chosen from the data's signature, never
/// from a file name), and holds the JPEG and PNG halves those codecs call.
///
/// EXIF orientation (JPEG APP1, PNG eXIf before the image data, …) is applied, so results are
/// upright. No colour management here: pixel values are the file's, without gamma or ICC
/// conversion.
///
/// Truncated image data is a success with a `warning` (and a `damage` saying what is missing):
/// the missing part is grey (libjpeg's fill, and for a PNG every row after the last one libpng
/// could inflate), and showing most of a half-copied photo beats showing none of it. Data cut
/// inside the header is an error. Damaged JPEG entropy-coded data is a success too, with a
/// warning quoting libjpeg ("Corrupt JPEG data: bad Huffman code"): it resynchronises at the
/// next restart marker, if the file has them, and the blocks in between are wrong. A PNG's
/// critical chunk (IHDR, IDAT) that fails its CRC, or image data that does not inflate, is an
/// error, since libpng cannot resume after a broken zlib stream: the reason quotes libpng,
/// naming the chunk ("IDAT: CRC error"). An ancillary chunk that fails its CRC is skipped, as
/// libpng does by default: the pixels are whole, so there is no warning, but an orientation in
/// a skipped eXIf chunk is lost.
///
/// A decode whose pixels or decoder working memory cannot be allocated throws ("There is not
/// enough memory to decode this 30000×30000 JPEG image"); nothing is left allocated.
public enum ImageDecoder {
    /// The default ceiling on decoded pixels, 2^28 (268 megapixels, 1 GiB of BGRA): larger than
    /// any camera's output, small enough that a hostile header cannot exhaust memory.
    public static let defaultPixelLimit = 1 << 28

    /// The DCT scale denominators of region and tile decoding (1/2^k), smallest reduction first.
    static let jpegScaleDenominators = [1, 2, 4, 8]

    /// Reads just the header of `bytes` (the whole data, or its first `ImageCodecs.headBytes`):
    /// format, stored size, orientation, profile.
    ///
    /// Cheap: no pixel is decoded and nothing proportional to the image size is allocated.
    public static func probe(_ bytes: [UInt8]) throws(ImageDecodeError) -> ImageInfo {
        try ImageCodecs.codec(forHead: bytes).probe(head: bytes, path: nil)
    }

    /// Reads just the header of the file at `path`, from its first `ImageCodecs.headBytes`
    /// (and, for a format whose header can lie further on, the rest of the file).
    public static func probeFile(atPath path: String) throws(ImageDecodeError) -> ImageInfo {
        let head = try FileBytes.read(atPath: path, upTo: ImageCodecs.headBytes)
        return try ImageCodecs.codec(forHead: head).probe(head: head, path: path)
    }

    /// Decodes `bytes` into an upright picture at least `target` in size where the format allows.
    ///
    /// - Parameters:
    ///   - target: the upright size the caller will show, or nil for full resolution. A JPEG is
    ///     decoded at the largest DCT reduction (1/2, 1/4, 1/8) whose upright result is still at
    ///     least `target` in both dimensions; other formats decode at full size (to decode one
    ///     smaller, use `decodeFile(atPath:shrunkTo:filter:pixelLimit:until:)`).
    ///   - pixelLimit: the most pixels the decoded buffer may hold. A JPEG too big at the
    ///     chosen scale is decoded at a greater reduction; one too big even at 1/8, or a picture
    ///     of another format too big at all, is refused before any pixel memory is allocated.
    public static func decode(
        _ bytes: [UInt8], atLeast target: PixelSize? = nil, pixelLimit: Int = defaultPixelLimit
    ) throws(ImageDecodeError) -> DecodedImage {
        try ImageCodecs.codec(forHead: bytes).decode(bytes, atLeast: target, pixelLimit: pixelLimit)
    }

    /// The JPEG half of `decode(_:atLeast:pixelLimit:)`, for the JPEG in `bytes` whose header is
    /// `info`.
    static func decodeJPEG(
        _ bytes: [UInt8], info: ImageInfo, atLeast target: PixelSize?, pixelLimit: Int
    ) throws(ImageDecodeError) -> DecodedImage {
        var decoded = rfi_pixels()
        var message = MessageBuffer()
        let eighths = try jpegScaleEighths(for: info, atLeast: target, pixelLimit: pixelLimit)
        let status = bytes.withUnsafeBufferPointer { data in
            message.withPointer { text, capacity in
                rfi_jpeg_decode(
                    data.baseAddress, data.count, Int32(eighths), Int64(pixelLimit), &decoded, text, capacity)
            }
        }
        try check(status, format: info.format, message: message.text, size: info.uprightSize, pixelLimit: pixelLimit)
        guard let pixels = decoded.pixels else {
            throw ImageDecodeError(reason: "The \(info.format.displayName) decoder returned no pixels")
        }
        let stored = PixelBuffer(
            wrapping: pixels, width: Int(decoded.width), height: Int(decoded.height),
            rowPixels: Int(decoded.width), release: { rfi_pixels_free($0) })
        return DecodedImage(
            pixels: info.orientation.upright(stored), info: info,
            warning: warningText(decoded.warning, format: info.format, message: message.text), isOpaque: true)
    }

    /// Decodes the file at `path` as `decode(_:atLeast:pixelLimit:)` does; a PNG is read from the
    /// file as it decodes, without holding the file.
    ///
    /// A missing or unreadable file throws with the operating system's reason.
    public static func decodeFile(
        atPath path: String, atLeast target: PixelSize? = nil, pixelLimit: Int = defaultPixelLimit
    ) throws(ImageDecodeError) -> DecodedImage {
        let head = try FileBytes.read(atPath: path, upTo: ImageFormat.signatureLength)
        return try ImageCodecs.codec(forHead: head).decodeFile(atPath: path, atLeast: target, pixelLimit: pixelLimit)
    }

    /// Rows a streamed decode asks the decoder for at a time: a JPEG's 4:2:0 iMCU row at full
    /// scale is 16 rows, so a call rarely stops inside one; the buffer is 16 decoded rows.
    static let streamedRows = 16

    /// Decodes the file at `path` into an upright picture shrunk by `filter` to `target(info)`
    /// (each side capped at what the decode yields), `info` being its header: the same pixels as
    /// `decode(_:atLeast:pixelLimit:)` at the size `jpegScaleEighths(for:shrunkTo:filter:pixelLimit:)`
    /// chooses, followed by `filter.shrink` (within 1 per channel for a JPEG turned upright
    /// through `.lanczos3`, which is resampled before it is turned, its float sums then added
    /// in another order).
    ///
    /// JPEG and PNG are streamed (other formats decode whole, then shrink: see their codecs): read from the file 64 KiB at a time and pushed through the
    /// filter's `RowResampler` `streamedRows` rows at a time as the decoder delivers them, so
    /// besides the result only a few decoded rows are held, never the file or the whole picture
    /// (1/2 of a 24 MP JPEG would be 23 MiB, a 54 MP PNG 216 MiB) — which is what keeps paging
    /// through big photos within a small peak of memory. A JPEG is decoded at the DCT scale
    /// `jpegScaleEighths(for:shrunkTo:filter:pixelLimit:)` picks, a PNG at full size (each row
    /// inflated, then resampled; see `decodePNG` for interlaced ones). A result over
    /// `pixelLimit` is refused for a JPEG even at 1/8 and, for a PNG, made smaller to fit; a PNG
    /// of more than `pngPixelLimit` pixels or `pngSideLimit` a side is refused.
    ///
    /// `stop` is asked between pieces (every `streamedRows` rows); once it says true the decode
    /// ends there, skipping the rest of the file, and throws `ImageDecodeError.stopped`.
    public static func decodeFile(
        atPath path: String, shrunkTo target: (ImageInfo) -> PixelSize, filter: DownscaleFilter = .lanczos3,
        pixelLimit: Int = defaultPixelLimit, until stop: () -> Bool = { false }
    ) throws(ImageDecodeError) -> DecodedImage {
        try decodeFile(
            atPath: path, shrunkTo: target, filter: filter, pixelLimit: pixelLimit,
            wholeInterlacedPixels: wholeInterlacedPixels, until: stop)
    }

    /// `decodeFile(atPath:shrunkTo:filter:pixelLimit:until:)` decoding interlaced PNGs of up to
    /// `wholeInterlacedPixels` whole.
    package static func decodeFile(
        atPath path: String, shrunkTo target: (ImageInfo) -> PixelSize, filter: DownscaleFilter = .lanczos3,
        pixelLimit: Int, wholeInterlacedPixels: Int, until stop: () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        let head = try FileBytes.read(atPath: path, upTo: ImageFormat.signatureLength)
        var codec = try ImageCodecs.codec(forHead: head)
        // Only the tests ask for another threshold than the codec's.
        if var png = codec as? PNGCodec {
            png.wholeInterlacedPixels = wholeInterlacedPixels
            codec = png
        }
        return try codec.decodeFile(atPath: path, shrunkTo: target, filter: filter, pixelLimit: pixelLimit, until: stop)
    }

    /// Starts `work` on another thread at the caller's priority (the photo decoder's thread
    /// pool, whichever the caller has) and returns at once.
    public typealias SecondCore = (_ work: @escaping @Sendable () -> Void) -> Void

    /// `decodeFile(atPath:shrunkTo:filter:pixelLimit:until:)` on two cores for a sequential JPEG
    /// shrunk with Lanczos-3 (`JPEGPipelinedDecode`), its Huffman pass on the thread `secondCore`
    /// starts; the same pixels, bit for bit, sooner. Other files and filters decode as there.
    public static func decodeFile(
        atPath path: String, shrunkTo target: (ImageInfo) -> PixelSize, filter: DownscaleFilter = .lanczos3,
        pixelLimit: Int = defaultPixelLimit, secondCore: SecondCore, until stop: @escaping @Sendable () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        let head = try FileBytes.read(atPath: path, upTo: ImageFormat.signatureLength)
        guard filter == .lanczos3, let jpeg = try ImageCodecs.codec(forHead: head) as? JPEGCodec else {
            return try decodeFile(atPath: path, shrunkTo: target, filter: filter, pixelLimit: pixelLimit, until: stop)
        }
        return try jpeg.decodeFile(atPath: path, shrunkTo: target, pixelLimit: pixelLimit, secondCore: secondCore, until: stop)
    }

    /// True when `decodeFile(atPath:shrunkTo:filter:pixelLimit:secondCore:until:)` decodes the
    /// image `info` shrunk with Lanczos-3 to `target` (upright) on two cores.
    public static func decodesOnTwoCores(_ info: ImageInfo, shrunkTo target: PixelSize, pixelLimit: Int = defaultPixelLimit) -> Bool {
        JPEGPipelinedDecode.plan(info, shrunkTo: target, pixelLimit: pixelLimit) != nil
    }

    /// The JPEG half of `decodeFile(atPath:shrunkTo:filter:pixelLimit:until:)`.
    static func decodeJPEG(
        _ reader: JPEGRowReader, shrunkTo target: (ImageInfo) -> PixelSize, filter: DownscaleFilter, pixelLimit: Int,
        until stop: () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        let info = reader.info
        let size = target(info)
        let eighths = try jpegScaleEighths(for: info, shrunkTo: size, filter: filter, pixelLimit: pixelLimit)
        let decodedSize = try reader.start(eighths: eighths, pixelLimit: pixelLimit)
        let storedTarget = info.orientation.storedSize(ofUpright: size)
        var resampler = filter.resampler(from: decodedSize, to: PixelSize(
            width: min(storedTarget.width, decodedSize.width), height: min(storedTarget.height, decodedSize.height)),
            kernels: .fastest)
        let rows = PixelBuffer(width: decodedSize.width, height: streamedRows)
        while !resampler.isComplete {
            if stop() {
                _ = reader.finish()
                throw .stopped
            }
            let count = try reader.read(into: rows.pixels, rowPixels: rows.rowPixels, maxRows: rows.height)
            guard count > 0 else { break }
            for y in 0..<count { resampler.push(rows.row(y)) }
        }
        let rowsWithData = reader.rowsBeforeEndOfData
        let warning = reader.finish()
        return DecodedImage(
            pixels: info.orientation.upright(resampler.result), info: info, warning: warning, isOpaque: true,
            damage: jpegDamage(warning: warning, rowsWithData: rowsWithData, info: info, decodedHeight: decodedSize.height))
    }

    /// What a JPEG decode that ended with `warning` lost: nothing without one; the share of rows
    /// after the last with data (`rowsWithData` of `decodedHeight`, at the side the stored
    /// picture's last rows are shown) when its data ran out; else damaged data.
    static func jpegDamage(warning: String?, rowsWithData: Int?, info: ImageInfo, decodedHeight: Int) -> ImageDamage? {
        warning.map { _ in
            guard let rowsWithData else { return ImageDamage.damagedData }
            // A progressive JPEG is read whole before its first row: what is missing lowers the
            // quality everywhere, no one part.
            guard !info.hasMultipleScans else { return ImageDamage.truncated(missing: nil) }
            return .truncated(missing: ImageDamage.MissingPart(
                share: 1 - Double(rowsWithData) / Double(decodedHeight), side: info.orientation.sideOfLastStoredRows))
        }
    }

    /// How many times the size shown a JPEG is decoded at least before `filter` shrinks it.
    ///
    /// Area averaging takes the smallest DCT scale that covers the size (1×). Lanczos-3 takes
    /// one at least twice the size: libjpeg's DCT scaling keeps each 8×8 block's lowest
    /// coefficients and inverse-transforms them on the smaller grid, which folds detail just
    /// above the scaled grid's Nyquist limit back into the picture as aliasing. At 1× the
    /// filter cannot undo it: on `FitQualityTests`' zone plates the aliased energy is 114 to
    /// 154 grey levels², as bad as area averaging, against 0.7 to 2.7 for Lanczos-3 of the full
    /// decode; at 1.875× (3/8 for 1200 shown 240) still 6.5 against 0.7. From 2× on the folded
    /// band lies beyond the filter's cut-off, which removes it (0.6 to 3.0), and the detail
    /// kept is as libjpeg decodes it at full size: mean gradients within 3 % of Lanczos-3 from
    /// full resolution (1× loses up to 9 %). The folding grows with the detail a block holds
    /// above the scaled grid's limit, so from 2/8 and 3/8 a zone plate (detail up to 4 and 2.7
    /// times that limit) still shows some at 2×: 21 and 4.8 against 0.6 and 0.5 (area
    /// averaging: 62 and 73); photos hold little detail that fine. Larger margins cost: 3/8,
    /// 5/8, 6/8 and 7/8 take plain-C scaled IDCTs, libjpeg-turbo having SIMD ones only for
    /// 2×2, 4×4 and 8×8 outputs (`start_pass` in its `jddctmgr.c`), so a 24 MP photo decodes at
    /// 5/8 in about twice the time of 4/8; `make bench` prints the decode beside area averaging.
    static func jpegOversampling(for filter: DownscaleFilter) -> Int {
        switch filter {
        case .area: 1
        case .lanczos3: 2
        }
    }

    /// The DCT scale, in eighths, for a decode of the JPEG described by `info` shrunk by `filter`
    /// to `target` (upright): the smallest covering `jpegOversampling(for:)` times `target`
    /// (8/8 when none does) — for a 6000×4000 photo shown 1200×800, 2/8 for `.area` and 4/8
    /// for `.lanczos3` — as `jpegScaleEighths(for:atLeast:pixelLimit:)` chooses it.
    public static func jpegScaleEighths(
        for info: ImageInfo, shrunkTo target: PixelSize, filter: DownscaleFilter, pixelLimit: Int
    ) throws(ImageDecodeError) -> Int {
        let margin = jpegOversampling(for: filter)
        return try jpegScaleEighths(
            for: info, atLeast: PixelSize(width: target.width * margin, height: target.height * margin), pixelLimit: pixelLimit)
    }

    /// The DCT scale, in eighths, for decoding the JPEG described by `info`: the smallest whose
    /// output still covers `target` (given upright, compared in stored orientation) — e.g. 3/8
    /// for a 6000×4000 photo shown 1620×1080, a third less to decode and hold than 1/2 — 8/8
    /// when none does, then lowered until the output fits `pixelLimit`.
    public static func jpegScaleEighths(
        for info: ImageInfo, atLeast target: PixelSize?, pixelLimit: Int
    ) throws(ImageDecodeError) -> Int {
        let stored = info.storedSize
        var chosen = 8
        if let target {
            let storedTarget = info.orientation.storedSize(ofUpright: target)
            chosen = (1...8).first { eighths in
                let scaled = scaledSize(stored, eighths: eighths)
                return scaled.width >= storedTarget.width && scaled.height >= storedTarget.height
            } ?? 8
        }
        for eighths in stride(from: chosen, through: 1, by: -1) where scaledSize(stored, eighths: eighths).area <= pixelLimit {
            return eighths
        }
        throw tooLarge(
            info.uprightSize, pixelLimit: pixelLimit,
            smallestScaled: (8, info.orientation.uprightSize(ofStored: scaledSize(stored, eighths: 1))))
    }

    /// The upright size of the JPEG `info` decoded at `eighths`/8 (libjpeg rounds each stored
    /// side up).
    public static func jpegScaledUprightSize(of info: ImageInfo, eighths: Int) -> PixelSize {
        info.orientation.uprightSize(ofStored: scaledSize(info.storedSize, eighths: eighths))
    }

    /// libjpeg's output size at `eighths`/8: each side rounded up (jdiv_round_up).
    package static func scaledSize(_ size: PixelSize, eighths: Int) -> PixelSize {
        PixelSize(width: (size.width * eighths + 7) / 8, height: (size.height * eighths + 7) / 8)
    }

    /// libjpeg's output size at 1/`denominator`: each side rounded up (jdiv_round_up).
    static func scaledSize(_ size: PixelSize, denominator: Int) -> PixelSize {
        PixelSize(
            width: (size.width + denominator - 1) / denominator,
            height: (size.height + denominator - 1) / denominator)
    }

    /// Throws the error for a shim call that returned `status` with `message`, if it failed.
    /// `size` (upright) and `pixelLimit` are the decode's, for the words of a refusal; a call
    /// that cannot be refused for size (reading a header) passes neither.
    static func check(
        _ status: rfi_status, format: ImageFormat, message: String, size: PixelSize? = nil, pixelLimit: Int = 0
    ) throws(ImageDecodeError) {
        switch status {
        case RFI_STATUS_OK:
            return
        case RFI_STATUS_TRUNCATED:
            throw ImageDecodeError(reason: "The \(format.displayName) data ends early (the file is truncated)")
        case RFI_STATUS_TOO_LARGE:
            throw tooLarge(size ?? .zero, pixelLimit: pixelLimit)
        case RFI_STATUS_OUT_OF_MEMORY:
            throw outOfMemory(size, format: format)
        case RFI_STATUS_INVALID_REQUEST, RFI_STATUS_UNSUPPORTED:
            throw ImageDecodeError(reason: "Cannot decode that part of the \(format.displayName) image: \(message)")
        case RFI_STATUS_LIBRARY_MISSING:
            throw ImageDecodeError(reason: "\(format.displayName) images cannot be read on this system: \(message)")
        default:
            throw ImageDecodeError(reason: "The \(format.displayName) data is damaged: \(message)")
        }
    }

    /// A zeroed buffer of `size` for decoding the image described by `info`; throws the decode's
    /// out-of-memory error, where `PixelBuffer(width:height:)` would stop the process, when the
    /// memory cannot be had (a header may claim gigapixels within a generous pixel limit). From
    /// calloc: a large buffer is fresh pages, zero without a pass over them, each faulted in by
    /// its first write as the decode reaches it, not all before the decode starts.
    static func zeroedPixels(_ size: PixelSize, for info: ImageInfo) throws(ImageDecodeError) -> PixelBuffer {
        guard let memory = calloc(max(1, size.area), MemoryLayout<UInt32>.size) else {
            throw outOfMemory(info.uprightSize, format: info.format)
        }
        return PixelBuffer(
            wrapping: memory.assumingMemoryBound(to: UInt32.self), width: size.width, height: size.height,
            rowPixels: size.width, release: { free($0) })
    }

    /// The error of a decode of an image of `size` (upright; nil when not known) whose memory
    /// cannot be had.
    static func outOfMemory(_ size: PixelSize?, format: ImageFormat) -> ImageDecodeError {
        let dimensions = size.map { "\($0.width)×\($0.height) " } ?? ""
        return ImageDecodeError(reason: "There is not enough memory to decode this \(dimensions)\(format.displayName) image")
    }

    static func warningText(_ warning: rfi_warning, format: ImageFormat, message: String) -> String? {
        switch warning {
        case RFI_WARNING_TRUNCATED:
            "The \(format.displayName) data ends early (the file is truncated); the missing part is grey"
        case RFI_WARNING_CORRUPT_DATA:
            "The \(format.displayName) data is damaged (\(message)); some of the picture may be wrong"
        default:
            nil
        }
    }

    static func tooLarge(
        _ size: PixelSize, pixelLimit: Int, smallestScaled: (denominator: Int, size: PixelSize)? = nil
    ) -> ImageDecodeError {
        let limit = describePixelCount(pixelLimit)
        let dimensions = "\(size.width)×\(size.height)"
        if let smallestScaled {
            let scaled = "\(smallestScaled.size.width)×\(smallestScaled.size.height)"
            return ImageDecodeError(
                reason: "The image is \(dimensions) pixels; even at 1/\(smallestScaled.denominator) scale (\(scaled)) "
                    + "that is more than Riffle's limit of \(limit)")
        }
        return ImageDecodeError(reason: "The image is \(dimensions) pixels, more than Riffle's limit of \(limit)")
    }

    /// "268 megapixels" for 2^28, "5000 pixels" below a megapixel.
    static func describePixelCount(_ count: Int) -> String {
        count >= 1_000_000 ? "\(count / 1_000_000) megapixels" : "\(count) pixels"
    }
}

/// A fixed C character buffer for the shim's messages.
struct MessageBuffer {
    private var storage = [CChar](repeating: 0, count: Int(RFI_MESSAGE_CAPACITY))

    /// Runs `body` with the buffer's address and capacity.
    mutating func withPointer<Result>(_ body: (UnsafeMutablePointer<CChar>, Int) -> Result) -> Result {
        storage.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
    }

    /// The NUL-terminated text written into the buffer.
    var text: String {
        storage.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
