/// Tells a camera RAW file built on TIFF (DNG, NEF, ARW, PEF, …: they share TIFF's signature)
/// from a TIFF picture, by the tags of its first directory (IFD0).
///
/// The rule: a file is a camera's when IFD0 has a DNGVersion tag (50706), or a Make tag (271)
/// together with a sensor's layout — PhotometricInterpretation CFA (32803) or LinearRaw
/// (34892) in IFD0 itself (PEF), or SubIFDs (330), where NEF, ARW and DNG keep the raw image
/// beside a small preview in IFD0. Cameras write IFD0 first, right after the header, so it lies
/// in the file's first `headBytes`; a TIFF whose IFD0 lies further (libtiff writes the
/// directory after the pixels) is a picture, never a camera's file.
enum CameraTIFF {
    /// How much of a file the rule reads: IFD0 of a camera file (a few dozen 12-byte entries
    /// after the 8-byte header) with room to spare.
    static let headBytes = 64 << 10

    /// True when the TIFF starting with `head` is a camera RAW file by the rule above.
    static func isCameraRaw(_ head: [UInt8]) -> Bool {
        guard head.count >= 8 else { return false }
        let little: Bool
        switch (head[0], head[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return false
        }
        func read(_ offset: Int, _ count: Int) -> Int? {
            guard offset >= 0, offset + count <= head.count else { return nil }
            var value = 0
            for i in 0..<count {
                let byte = Int(head[offset + (little ? count - 1 - i : i)])
                value = value << 8 | byte
            }
            return value
        }
        // BigTIFF (43) is not a camera's layout.
        guard read(2, 2) == 42, let directory = read(4, 4), let entries = read(directory, 2) else { return false }
        var make = false, sensorLayout = false
        for index in 0..<entries {
            let entry = directory + 2 + 12 * index
            guard let tag = read(entry, 2) else { break }
            switch tag {
            case 50706: return true
            case 271: make = true
            case 330: sensorLayout = true
            case 262:
                // A SHORT value lies in the first two bytes of the value field.
                if let photometric = read(entry + 8, 2), photometric == 32803 || photometric == 34892 { sensorLayout = true }
            default: break
            }
        }
        return make && sensorLayout
    }
}
