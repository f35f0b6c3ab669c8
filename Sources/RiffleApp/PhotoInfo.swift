import Glibc
import RiffleGeometry
import RiffleImageIO
import RiffleLibrary
import RifflePipeline

/// What the info panel says about one photo, read from its file: its name and folder,
/// dimensions, megapixels, file size, format, an animation's frames and length, the date taken
/// (else the file's modification time, labelled so), then the camera's EXIF details (libexif, on
/// the block the format's codec finds: a JPEG's APP1 segment, a PNG's eXIf chunk, …). A detail
/// the file lacks has no row: the panel lists what it knows, nothing else.
struct PhotoInfo: Hashable, Sendable {
    /// One line of the panel: what it is and what the file says.
    struct Row: Hashable, Sendable {
        let label: String
        let value: String
    }

    /// Every label a row can have, in the panel's order.
    static let labels = [
        "Name", "Folder", "Dimensions", "Megapixels", "File size", "Format", "Animation", "Taken", "Modified", "Camera", "Lens",
        "Exposure", "Aperture", "ISO", "Focal length", "Location",
    ]

    /// The rows with something to say, in `labels`' order.
    let rows: [Row]
    /// When the photo was taken (EXIF DateTimeOriginal), else when its file was last modified,
    /// written "24 Nov 2026, 15:19"; nil when neither can be read.
    let date: String?

    /// What is known of the photo at `path` before its file is read: its name.
    static func unread(path: String) -> PhotoInfo { PhotoInfo(rows: [Row(label: "Name", value: FilePaths.name(of: path))], date: nil) }

    private init(rows: [Row], date: String?) {
        self.rows = rows
        self.date = date
    }

    /// The value of the row labelled `label`, nil when the panel has no such row.
    func value(_ label: String) -> String? { rows.first { $0.label == label }?.value }

    /// The details of the file at `path`, read now (its head and a stat(2): well under a
    /// millisecond for a local file; an animation's frames are decoded once more to count them
    /// and sum their durations).
    init(path: String) {
        let head = (try? FileBytes.read(atPath: path, upTo: PhotoDecoding.headerBytes)) ?? []
        let codec = try? ImageCodecs.codec(forHead: head)
        let info = try? codec?.probe(head: head, path: path)
        let exif = info == nil ? nil : codec?.exifDetails(head: head, path: path)
        var status = stat()
        let statted = FileSystemPath.withSystemPath(path) { stat($0, &status) } == 0
        let modified = statted ? Self.localDate(secondsSince1970: Int(status.st_mtim.tv_sec)) : nil
        let taken = exif?.dateTaken.flatMap(Self.exifDate)
        let animation = info?.isAnimated == true ? codec.flatMap { Self.animationTiming($0, path: path) } : nil
        self.init(
            path: path, size: info?.uprightSize, fileBytes: statted ? Int(status.st_size) : nil, format: info?.format.displayName,
            animation: animation, taken: taken, modified: modified, exif: exif)
    }

    /// The rows for what is known of the photo at `path` (each nil when unknown): its upright
    /// `size`, `fileBytes`, `format`'s name, an `animation`'s frames and seconds, the date it was
    /// `taken` and its file `modified` (both already written as dates), the `exif` details.
    init(
        path: String, size: PixelSize?, fileBytes: Int?, format: String?, animation: (frames: Int, seconds: Double)?,
        taken: String?, modified: String?, exif: ExifDetails?
    ) {
        date = taken ?? modified
        let camera = [exif?.make, exif?.model].compactMap { $0 }
        let values: [String?] = [
            FilePaths.name(of: path),
            Self.folderName(of: path),
            size.map { "\($0.width) × \($0.height)" },
            size.map { Self.megapixels(width: $0.width, height: $0.height) },
            fileBytes.map(Self.byteCount),
            format,
            animation.map { "\(Self.grouped($0.frames)) frames, " + Self.decimal($0.seconds, places: 2) + " s" },
            taken,
            taken == nil ? modified : nil,
            // A model often repeats its make ("Canon" "Canon EOS R5"): say it once.
            camera.count == 2 && camera[1].hasPrefix(camera[0]) ? camera[1] : camera.isEmpty ? nil : camera.joined(separator: " "),
            exif?.lens,
            exif?.exposureSeconds.map(Self.exposure),
            exif?.fNumber.map { "ƒ/" + Self.decimal($0, places: Self.writtenPlaces) },
            exif?.iso.map { "ISO \($0)" },
            exif?.focalLengthMillimetres.map { Self.decimal($0, places: Self.writtenPlaces) + " mm" },
            exif?.position.map(Self.position),
        ]
        rows = zip(Self.labels, values).compactMap { label, value in value.map { Row(label: label, value: $0) } }
    }

    /// The name of the folder holding `path`, as a file manager titles it ("Pictures" for
    /// "~/Pictures/a.jpg"; the folder is resolved first, so "a.jpg" given alone names the
    /// working directory, not "."); nil at the root.
    static func folderName(of path: String) -> String? {
        let folder = FilePaths.folder(of: path)
        let resolved = FileSystemPath.withSystemPath(folder) { realpath($0, nil) }.map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        } ?? folder
        let name = FilePaths.name(of: resolved)
        return name.isEmpty || name == "." ? nil : name
    }

    /// Decimals kept of what a camera wrote as a rational (a focal length of 415/100 mm, an
    /// f-number of 28/10): 3, enough for the hundredths and thousandths cameras write, trailing
    /// zeros dropped, so "4.15 mm", "2.8 mm" and "50 mm" read as written.
    static let writtenPlaces = 3

    /// Megapixels to the precision the size has: one decimal from 1 MP up ("12.2 MP"), two
    /// significant digits below ("0.0068 MP" for 100 × 68), never "0 MP".
    static func megapixels(width: Int, height: Int) -> String {
        let value = Double(width) * Double(height) / 1e6
        guard value < 1, value > 0 else { return decimal(value, places: 1) + " MP" }
        var places = 1
        while value * pow(10, Double(places)) < 10 { places += 1 }
        return decimal(value, places: places) + " MP"
    }

    /// The frames of the animation at `path` and the seconds one loop plays (each frame as long
    /// as it is shown, `FrameDuration`'s rule applied); nil when it cannot be read through.
    static func animationTiming(_ codec: any ImageCodec, path: String) -> (frames: Int, seconds: Double)? {
        guard let animation = try? codec.animation(atPath: path, fitting: PixelSize(width: 16, height: 16), pixelLimit: PhotoDecoding.pixelLimit)
        else { return nil }
        var seconds = 0.0
        for _ in 0..<animation.frameCount {
            guard let frame = try? animation.nextFrame() else { return nil }
            seconds += frame.duration
        }
        return (animation.frameCount, seconds)
    }

    /// "1/250 s" below a second (the nearest whole reciprocal, as cameras show it), else "2.5 s".
    static func exposure(_ seconds: Double) -> String {
        seconds < 1 ? "1/\(Int((1 / seconds).rounded())) s" : decimal(seconds, places: 1) + " s"
    }

    /// "48.8584° N, 2.2945° E".
    static func position(_ position: (latitude: Double, longitude: Double)) -> String {
        let latitude = decimal(abs(position.latitude), places: 4) + "° " + (position.latitude < 0 ? "S" : "N")
        let longitude = decimal(abs(position.longitude), places: 4) + "° " + (position.longitude < 0 ? "W" : "E")
        return latitude + ", " + longitude
    }

    /// "812 KB", "4.3 MB" (decimal units, as file managers show them), "512 bytes".
    static func byteCount(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) bytes" }
        if bytes < 1_000_000 { return decimal(Double(bytes) / 1e3, places: 0) + " KB" }
        if bytes < 1_000_000_000 { return decimal(Double(bytes) / 1e6, places: 1) + " MB" }
        return decimal(Double(bytes) / 1e9, places: 1) + " GB"
    }

    /// `value` rounded to `places` decimals, trailing zeros of the fraction dropped ("2.8", "50").
    static func decimal(_ value: Double, places: Int) -> String {
        let factor = (0..<places).reduce(1.0) { product, _ in product * 10 }
        let scaled = Int((value * factor).rounded())
        var text = "\(scaled / Int(factor))"
        var fraction = String(scaled % Int(factor))
        if places > 0 {
            fraction = String(repeating: "0", count: places - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            if !fraction.isEmpty { text += "." + fraction }
        }
        return text
    }

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "24 Nov 2026, 15:19" from EXIF's "2026:11:24 15:19:13"; nil when it is not that shape.
    static func exifDate(_ text: String) -> String? {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == " " }).map { Int($0) }
        guard parts.count >= 5, let year = parts[0], let month = parts[1], let day = parts[2], let hour = parts[3], let minute = parts[4],
              (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return date(year: year, month: month, day: day, hour: hour, minute: minute)
    }

    /// A time in seconds since 1970 as the local calendar writes it, "24 Nov 2026, 15:19".
    static func localDate(secondsSince1970: Int) -> String? {
        var seconds = time_t(secondsSince1970)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return nil }
        return date(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday), hour: Int(parts.tm_hour),
            minute: Int(parts.tm_min))
    }

    private static func date(year: Int, month: Int, day: Int, hour: Int, minute: Int) -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(day) \(monthNames[month - 1]) \(year), \(two(hour)):\(two(minute))"
    }

    /// "3 of 1,204": `index` from 0, thousands grouped with commas.
    static func position(index: Int, count: Int) -> String { "\(grouped(index + 1)) of \(grouped(count))" }

    /// 1204 → "1,204".
    static func grouped(_ n: Int) -> String {
        var digits = String(n), out = ""
        while digits.count > 3 {
            out = "," + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return digits + out
    }
}
