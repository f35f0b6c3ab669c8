import RiffleGeometry
import RiffleRaster

/// What the library's index keeps of a photo, read from the head of its file without decoding
/// a pixel: its format, upright size and orientation, when it was taken, and the camera and
/// lens for the info panel.
public struct PhotoFacts: Sendable, Hashable {
    /// The format its signature announces.
    public var format: ImageFormat
    /// Width and height as shown (the EXIF orientation applied).
    public var uprightSize: PixelSize
    /// The EXIF orientation.
    public var orientation: ImageOrientation
    /// When it was taken, from the file itself (`TakenDate.Source.exif` or `.xmp`); nil when
    /// the file does not say (the index then falls back on its modification time).
    public var taken: TakenDate?
    /// The camera, its model alone when the model repeats the make ("Canon EOS R5", not
    /// "Canon Canon EOS R5").
    public var camera: String?
    /// The lens model.
    public var lens: String?

    /// The facts given (for tests and callers that know them).
    public init(
        format: ImageFormat, uprightSize: PixelSize, orientation: ImageOrientation = .topLeft, taken: TakenDate? = nil,
        camera: String? = nil, lens: String? = nil
    ) {
        self.format = format
        self.uprightSize = uprightSize
        self.orientation = orientation
        self.taken = taken
        self.camera = camera
        self.lens = lens
    }

    /// The facts of the file at `path` whose first bytes (`ImageCodecs.headBytes` of them, or
    /// the whole of a shorter file) are `head`. The date taken is EXIF DateTimeOriginal with
    /// OffsetTimeOriginal, else the XMP packet's (`XMPDates`). Throws what the codec's probe
    /// throws for a file that is not a readable image.
    public static func read(head: [UInt8], path: String?) throws(ImageDecodeError) -> PhotoFacts {
        let codec = try ImageCodecs.codec(forHead: head)
        let info = try codec.probe(head: head, path: path)
        let exif = codec.exifDetails(head: head, path: path)
        let taken = exif?.dateTaken.flatMap { TakenDate.exif($0, offset: exif?.offsetTaken) } ?? XMPDates.taken(inHead: head)
        return PhotoFacts(
            format: info.format, uprightSize: info.uprightSize, orientation: info.orientation, taken: taken,
            camera: exif?.cameraName, lens: exif?.lens)
    }
}

extension ExifDetails {
    /// Make and model as one name: the model alone when it already starts with the make
    /// ("Canon" "Canon EOS R5" is "Canon EOS R5"); nil when neither is written.
    public var cameraName: String? {
        switch (make, model) {
        case let (make?, model?): model.hasPrefix(make) ? model : make + " " + model
        case let (make?, nil): make
        case let (nil, model?): model
        case (nil, nil): nil
        }
    }
}
