import Glibc
import RiffleImageIO
import RifflePipeline

/// What the info panel says about one photo, read from its file: dimensions, megapixels, file
/// size, format and date taken, then the camera's EXIF details (libexif, on the block the
/// format's codec finds: a JPEG's APP1 segment, a PNG's eXIf chunk, …). A detail the file
/// lacks reads "—", so the panel keeps its rows (and its size) from photo to photo.
struct PhotoInfo: Hashable {
    /// The rows' labels, in the panel's order.
    static let labels = [
        "Dimensions", "Megapixels", "File size", "Format", "Taken", "Camera", "Lens", "Exposure", "Aperture", "ISO",
        "Focal length", "Location",
    ]
    /// What a row without a value says.
    static let missing = "—"

    /// One value per label, in `labels`' order.
    let values: [String]
    /// When the photo was taken (EXIF DateTimeOriginal), else when its file was last modified,
    /// written "24 Nov 2026, 15:19"; nil when neither can be read.
    let date: String?

    /// The details of the file at `path`, read now (its head and a stat(2): well under a
    /// millisecond for a local file).
    init(path: String) {
        let head = (try? FileBytes.read(atPath: path, upTo: PhotoDecoding.headerBytes)) ?? []
        let codec = try? ImageCodecs.codec(forHead: head)
        let info = try? codec?.probe(head: head, path: path)
        let exif = info == nil ? nil : codec?.exifDetails(head: head, path: path)
        var status = stat()
        let statted = FileSystemPath.withSystemPath(path) { stat($0, &status) } == 0
        date = exif?.dateTaken.flatMap(Self.exifDate) ?? (statted ? Self.localDate(secondsSince1970: Int(status.st_mtim.tv_sec)) : nil)
        let size = info?.uprightSize
        let camera = [exif?.make, exif?.model].compactMap { $0 }
        values = [
            size.map { "\($0.width) × \($0.height)" },
            size.map { Self.decimal(Double($0.width * $0.height) / 1e6, places: 1) + " MP" },
            statted ? Self.byteCount(Int(status.st_size)) : nil,
            info.map(\.format.displayName),
            date,
            // A model often repeats its make ("Canon" "Canon EOS R5"): say it once.
            camera.count == 2 && camera[1].hasPrefix(camera[0]) ? camera[1] : camera.isEmpty ? nil : camera.joined(separator: " "),
            exif?.lens,
            exif?.exposureSeconds.map(Self.exposure),
            exif?.fNumber.map { "ƒ/" + Self.decimal($0, places: 1) },
            exif?.iso.map { "ISO \($0)" },
            exif?.focalLengthMillimetres.map { Self.decimal($0, places: 0) + " mm" },
            exif?.position.map(Self.position),
        ].map { $0 ?? Self.missing }
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
