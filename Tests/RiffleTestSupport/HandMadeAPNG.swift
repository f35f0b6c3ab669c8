/// Animated PNGs put together byte by byte (the chunks and stored zlib streams of `HandMadePNG`),
/// for testing the decoder on frames whose every pixel is known: the APNG specification's
/// layout (https://wiki.mozilla.org/APNG_Specification): acTL before the image data, an fcTL
/// before each frame, the first frame's data as IDAT, the others' as fdAT, fcTL and fdAT
/// sharing one sequence from 0. Every frame is 8-bit RGBA (colour type 6), straight alpha.
public enum HandMadeAPNG {
    /// One frame and its fcTL.
    public struct Frame: Sendable {
        public var x, y, width, height: Int
        /// Straight R, G, B, A of each pixel, row by row (`width` × `height` entries).
        public var pixels: [[UInt8]]
        /// The delay: `delayNumerator` / `delayDenominator` seconds (a denominator of 0 means 100).
        public var delayNumerator, delayDenominator: Int
        /// dispose_op: 0 none, 1 background, 2 previous.
        public var dispose: Int
        /// blend_op: 0 source, 1 over.
        public var blend: Int

        public init(
            x: Int = 0, y: Int = 0, width: Int, height: Int, pixels: [[UInt8]], delayNumerator: Int = 1,
            delayDenominator: Int = 10, dispose: Int = 0, blend: Int = 0
        ) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.pixels = pixels
            self.delayNumerator = delayNumerator
            self.delayDenominator = delayDenominator
            self.dispose = dispose
            self.blend = blend
        }

        /// A frame of one straight RGBA colour.
        public static func solid(
            _ rgba: [UInt8], x: Int = 0, y: Int = 0, width: Int, height: Int, delayNumerator: Int = 1, delayDenominator: Int = 10,
            dispose: Int = 0, blend: Int = 0
        ) -> Frame {
            Frame(
                x: x, y: y, width: width, height: height, pixels: [[UInt8]](repeating: rgba, count: width * height),
                delayNumerator: delayNumerator, delayDenominator: delayDenominator, dispose: dispose, blend: blend)
        }
    }

    /// An APNG of a `width` × `height` canvas playing `frames` `plays` times (0: for ever). With
    /// a `defaultImage`, that is the IDAT image (left out of the animation) and every frame is
    /// fdAT; else the first frame is the IDAT image. `announced` overrides acTL's num_frames.
    public static func file(
        width: Int, height: Int, frames: [Frame], plays: Int = 0, defaultImage: Frame? = nil, announced: Int? = nil
    ) -> [UInt8] {
        var header = HandMadePNG.bigEndian(UInt32(width)) + HandMadePNG.bigEndian(UInt32(height))
        header += [8, 6, 0, 0, 0]
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + HandMadePNG.chunk("IHDR", header)
        out += HandMadePNG.chunk(
            "acTL", HandMadePNG.bigEndian(UInt32(announced ?? frames.count)) + HandMadePNG.bigEndian(UInt32(plays)))
        var sequence: UInt32 = 0
        if let defaultImage { out += HandMadePNG.chunk("IDAT", imageData(defaultImage)) }
        for (i, frame) in frames.enumerated() {
            var control = HandMadePNG.bigEndian(sequence)
            for value in [frame.width, frame.height, frame.x, frame.y] { control += HandMadePNG.bigEndian(UInt32(value)) }
            control += u16(frame.delayNumerator) + u16(frame.delayDenominator) + [UInt8(frame.dispose), UInt8(frame.blend)]
            out += HandMadePNG.chunk("fcTL", control)
            sequence += 1
            if i == 0 && defaultImage == nil {
                out += HandMadePNG.chunk("IDAT", imageData(frame))
            } else {
                out += HandMadePNG.chunk("fdAT", HandMadePNG.bigEndian(sequence) + imageData(frame))
                sequence += 1
            }
        }
        return out + HandMadePNG.chunk("IEND", [])
    }

    /// The frame's rows (filter type None, then R, G, B, A per pixel) as a stored zlib stream.
    static func imageData(_ frame: Frame) -> [UInt8] {
        var rows: [UInt8] = []
        for y in 0..<frame.height {
            rows.append(0)
            for x in 0..<frame.width { rows += frame.pixels[y * frame.width + x] }
        }
        return HandMadePNG.zlibStored(rows)
    }

    static func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
}
