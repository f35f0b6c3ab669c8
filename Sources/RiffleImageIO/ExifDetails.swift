import CRiffleImaging

/// What a photo's EXIF block says about how it was taken (libexif): camera, lens, exposure, the
/// date it was taken and where. Every field is nil when the block lacks it.
public struct ExifDetails: Sendable, Hashable {
    /// IFD0 Make, e.g. "Canon".
    public var make: String?
    /// IFD0 Model, e.g. "Canon EOS 5D Mark IV".
    public var model: String?
    /// Exif LensModel.
    public var lens: String?
    /// Exif DateTimeOriginal as written, "YYYY:MM:DD HH:MM:SS" (the camera's clock; its zone is
    /// `offsetTaken` where written).
    public var dateTaken: String?
    /// Exif OffsetTimeOriginal as written, "+HH:MM" or "-HH:MM" (Exif 2.31): the zone of
    /// `dateTaken`.
    public var offsetTaken: String?
    /// Exif ExposureTime, seconds.
    public var exposureSeconds: Double?
    /// Exif FNumber (the f-number N of f/N).
    public var fNumber: Double?
    /// Exif ISOSpeedRatings.
    public var iso: Int?
    /// Exif FocalLength, millimetres.
    public var focalLengthMillimetres: Double?
    /// GPS latitude and longitude, degrees, north and east positive.
    public var position: (latitude: Double, longitude: Double)? {
        guard let latitude, let longitude else { return nil }
        return (latitude, longitude)
    }
    private var latitude: Double?
    private var longitude: Double?
    /// Exif ColorSpace: 1 for sRGB, 0xFFFF for uncalibrated (what a camera writes for Adobe RGB,
    /// naming the space in `interoperabilityIndex`), 2 from some cameras for Adobe RGB.
    public var colourSpace: Int?
    /// The Interoperability IFD's InteroperabilityIndex: "R98" (sRGB) or "R03" (Adobe RGB,
    /// DCF 2.0's optional colour space).
    public var interoperabilityIndex: String?

    /// True when the block says the pixels are Adobe RGB (1998) without a profile: ColorSpace
    /// uncalibrated with InteroperabilityIndex "R03" (CIPA DC-009, Design rule for Camera File
    /// system 2.0, 5.3.1.2), or the ColorSpace value 2 some cameras write instead.
    public var declaresAdobeRGB: Bool {
        (colourSpace == 0xFFFF && interoperabilityIndex == "R03") || colourSpace == 2
    }

    /// Details with every field as given (for tests and callers that know them).
    public init(
        make: String? = nil, model: String? = nil, lens: String? = nil, dateTaken: String? = nil, offsetTaken: String? = nil,
        exposureSeconds: Double? = nil,
        fNumber: Double? = nil, iso: Int? = nil, focalLengthMillimetres: Double? = nil, position: (latitude: Double, longitude: Double)? = nil,
        colourSpace: Int? = nil, interoperabilityIndex: String? = nil
    ) {
        self.colourSpace = colourSpace
        self.interoperabilityIndex = interoperabilityIndex
        self.make = make
        self.model = model
        self.lens = lens
        self.dateTaken = dateTaken
        self.offsetTaken = offsetTaken
        self.exposureSeconds = exposureSeconds
        self.fNumber = fNumber
        self.iso = iso
        self.focalLengthMillimetres = focalLengthMillimetres
        latitude = position?.latitude
        longitude = position?.longitude
    }

    /// The details in the EXIF (APP1) segment of the JPEG whose first bytes are `head`; nil
    /// when it has none, or the segment is cut off or unreadable.
    public static func read(fromJPEGHead head: [UInt8]) -> ExifDetails? {
        guard let segment = ExifThumbnail.exifSegment(inJPEGHead: head) else { return nil }
        return read(segment: head[segment])
    }

    /// The details in the eXIf chunk of the PNG whose first bytes are `head` (a bare TIFF
    /// structure, read as the APP1 segment "Exif\0\0" + TIFF it would be in a JPEG); nil when
    /// it has none before its image data, or the chunk is cut off or unreadable.
    public static func read(fromPNGHead head: [UInt8]) -> ExifDetails? {
        guard let chunk = PNGChunks.exifChunk(inPNGHead: head) else { return nil }
        return read(tiff: head[chunk])
    }

    /// The details in a bare EXIF block, the TIFF structure ("II*\0" or "MM\0*" and on) that a
    /// PNG's eXIf chunk and a WebP's EXIF chunk hold (read as the APP1 segment "Exif\0\0" +
    /// TIFF it would be in a JPEG); a block that already starts with "Exif\0\0", as some
    /// WebP writers make it, is taken as it is. Nil when libexif cannot read it.
    package static func read(tiff: some Collection<UInt8>) -> ExifDetails? {
        let prefix = Array("Exif".utf8) + [0, 0]
        return read(segment: tiff.starts(with: prefix) ? Array(tiff) : prefix + tiff)
    }

    /// The details in an APP1 payload ("Exif\0\0", then the TIFF structure), as a JPEG's
    /// segment or another format's EXIF block made into one; nil when libexif cannot read it.
    static func read<Bytes: Collection<UInt8>>(segment: Bytes) -> ExifDetails? {
        var raw = rfi_exif_details()
        let bytes = Array(segment)
        let status = bytes.withUnsafeBufferPointer { rfi_exif_read_details($0.baseAddress!, $0.count, &raw) }
        guard status == RFI_STATUS_OK else { return nil }
        return ExifDetails(raw)
    }

    /// The details the shim read (libexif, libtiff or LibRaw): empty text and numbers that are
    /// not positive are absent.
    init(_ raw: rfi_exif_details) {
        func text<T>(_ field: T) -> String? {
            let value = withUnsafeBytes(of: field) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            return value.isEmpty ? nil : value
        }
        func positive(_ value: Double) -> Double? { value > 0 ? value : nil }
        self.init(
            make: text(raw.make), model: text(raw.model), lens: text(raw.lens), dateTaken: text(raw.date_taken), offsetTaken: text(raw.offset_taken),
            exposureSeconds: positive(raw.exposure_seconds), fNumber: positive(raw.f_number), iso: raw.iso > 0 ? Int(raw.iso) : nil,
            focalLengthMillimetres: positive(raw.focal_length_mm),
            position: raw.has_position != 0 ? (raw.latitude, raw.longitude) : nil,
            colourSpace: raw.colour_space > 0 ? Int(raw.colour_space) : nil, interoperabilityIndex: text(raw.interoperability_index))
    }
}
