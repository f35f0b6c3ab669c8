import CPixman
import Dispatch
import Foundation
import RiffleGeometry
import RiffleRaster

/// Compositor frame time for a 6000×4000 photo in a frame at fit, 1:1 and 2×, beside a memcpy
/// of the frame and pixman's bilinear composite of the same transform, in the same run; and at
/// 1.5×, a zoom between the exact ones, for the general upscaling path.
///
/// Each case is drawn as the viewer draws it: from the pixels it holds for that zoom (at fit, the
/// photo decoded and area-averaged to the shown size; zoomed in, the full-resolution pixels) and
/// at whole-pixel offsets (`Viewer.pixelAligned`). pixman resamples the 24 MP original in every
/// case, the same transform from the photo to the screen.
enum CompositeBenchmark {
    struct Case {
        let name: String
        let scale: Double
        /// What the viewer's compositor does for it.
        let path: String
    }

    static func run(source: PixelBuffer, frame: PixelSize) {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let parallel: Compositor.ParallelRunner = { n, job in DispatchQueue.concurrentPerform(iterations: n, execute: job) }
        let fast = Compositor(path: .fast, parallel: parallel, bands: cores)
        let single = Compositor(path: .fast)
        let target = PixelBuffer(width: frame.width, height: frame.height)
        let copySource = PixelBuffer(width: frame.width, height: frame.height)
        let memcpyTime = Stopwatch.median {
            memcpy(target.pixels, copySource.pixels, frame.area * 4)
        }
        print("composite \(source.width)x\(source.height) -> \(frame.width)x\(frame.height) (\(cores) cores); memcpy of the frame: \(ms(memcpyTime))")
        let fit = AspectFit.scale(content: Size(source.size), viewport: Size(frame))
        let cases = [
            Case(name: "fit", scale: fit, path: "plain copy of the shown-size pixels"),
            Case(name: "1:1", scale: 1, path: "plain copy"),
            Case(name: "2x", scale: 2, path: "exact doubling"),
            Case(name: "1.5x", scale: 1.5, path: "separable bilinear"),
        ]
        for c in cases {
            // Centred on the photo's centre, at whole pixels, as the viewer shows it.
            let offset = Point(
                x: ((Double(frame.width) - Double(source.width) * c.scale) / 2).rounded(),
                y: ((Double(frame.height) - Double(source.height) * c.scale) / 2).rounded())
            let transform = ScaleTranslate(scale: c.scale, offset: offset)
            let held = c.scale < 1 ? shownSize(source, scale: c.scale) : source
            let tree = Layer(transform: transform, content: .image(ImageContent(pixels: held, size: Size(source.size), isOpaque: true)))
            let ours = Stopwatch.median { fast.render(tree, into: target) }
            let oursOne = Stopwatch.median { single.render(tree, into: target) }
            let pix = pixmanTime(source: source, target: target, transform: transform)
            var line = "  \(c.name.padding(toLength: 5, withPad: " ", startingAt: 0)) riffle \(ms(ours)) (1 core \(ms(oursOne)))"
            line += "  pixman \(ms(pix))  riffle/pixman \(ratio(ours, pix))  riffle/memcpy \(ratio(ours, memcpyTime))  [\(c.path)]"
            print(line)
            if c.scale < 1 {
                // What the viewer avoids: sampling the 24 MP original every frame.
                let original = Layer(transform: transform, content: .image(ImageContent(pixels: source, isOpaque: true)))
                let direct = Stopwatch.median { fast.render(original, into: target) }
                print("        (sampling the 24 MP original instead, which the viewer never does: \(ms(direct)), /pixman \(ratio(direct, pix)))")
            }
        }
        midTurn(shownSize(source, scale: fit), target: target, fast: fast, single: single)
    }

    /// A frame half way through a quarter turn (`r`): the shown-size pixels turned 45° about
    /// the frame's centre at 0.85 of their size (between the two fits), on black, beside
    /// pixman's bilinear affine composite of the same pixels and turn (OVER, no repeat).
    static func midTurn(_ held: PixelBuffer, target: PixelBuffer, fast: Compositor, single: Compositor) {
        let k = 0.85, angle = Double.pi / 4
        let centre = Point(x: Double(target.width) / 2, y: Double(target.height) / 2)
        let image = Layer(
            transform: ScaleTranslate(scale: k, offset: Point(x: -Double(held.width) * k / 2, y: -Double(held.height) * k / 2)),
            content: .image(ImageContent(pixels: held, isOpaque: true)))
        let turned = Layer(sublayers: [
            Layer(content: .fill(Rect(origin: .zero, size: Size(target.size)), .black)),
            Layer(transform: ScaleTranslate(offset: centre), rotation: Rotation(quarterTurns: 0.5), sublayers: [image]),
        ])
        let ours = Stopwatch.median { fast.render(turned, into: target) }
        let oursOne = Stopwatch.median { single.render(turned, into: target) }
        // Destination to source: q = R⁻¹(d − centre) / k + held / 2, R the clockwise turn.
        let c = Double.cos(angle) / k, s = Double.sin(angle) / k
        let pix = pixmanBilinearTime(
            source: held, target: target,
            rows: ((c, s, -c * centre.x - s * centre.y + Double(held.width) / 2),
                   (-s, c, s * centre.x - c * centre.y + Double(held.height) / 2)),
            operation: PIXMAN_OP_OVER, clearingFirst: true)
        print("  mid-turn (45°) riffle \(ms(ours)) (1 core \(ms(oursOne)))  pixman \(ms(pix)) (1 core, black first)  riffle/pixman \(ratio(ours, pix))  1 core riffle/pixman \(ratio(oursOne, pix))  [turned bilinear]")
    }

    /// `source` area-averaged to the size it is shown at `scale`, as the viewer holds a photo at fit.
    static func shownSize(_ source: PixelBuffer, scale: Double) -> PixelBuffer {
        AreaResample.shrink(
            source, toWidth: Int((Double(source.width) * scale).rounded(.up)), height: Int((Double(source.height) * scale).rounded(.up)))
    }

    /// pixman_image_composite32 with PIXMAN_FILTER_BILINEAR and the inverse transform
    /// (pixman maps destination to source), operator SRC over the whole frame.
    static func pixmanTime(source: PixelBuffer, target: PixelBuffer, transform: ScaleTranslate) -> Double {
        let inv = 1 / transform.scale
        return pixmanBilinearTime(
            source: source, target: target,
            rows: ((inv, 0, -transform.offset.x * inv), (0, inv, -transform.offset.y * inv)), operation: PIXMAN_OP_SRC)
    }

    /// The median time of pixman_image_composite32 with `operation` over the whole of `target`
    /// from `source` through the destination-to-source map `rows` ((a, b, c), (d, e, f): a
    /// destination point (x, y) samples the source at (a·x + b·y + c, d·x + e·y + f)),
    /// PIXMAN_FILTER_BILINEAR; `clearingFirst` blacks the frame before each composite.
    static func pixmanBilinearTime(
        source: PixelBuffer, target: PixelBuffer, rows: ((Double, Double, Double), (Double, Double, Double)),
        operation: pixman_op_t, clearingFirst: Bool = false
    ) -> Double {
        guard let src = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(source.width), Int32(source.height), source.pixels, Int32(source.rowPixels * 4)),
              let dst = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(target.width), Int32(target.height), target.pixels, Int32(target.rowPixels * 4))
        else { fatalError("pixman could not wrap the buffers") }
        defer {
            pixman_image_unref(src)
            pixman_image_unref(dst)
        }
        func fixed(_ v: Double) -> pixman_fixed_t { pixman_fixed_t((v * 65536).rounded()) }
        var m = pixman_transform()
        m.matrix = (
            (fixed(rows.0.0), fixed(rows.0.1), fixed(rows.0.2)),
            (fixed(rows.1.0), fixed(rows.1.1), fixed(rows.1.2)),
            (0, 0, fixed(1)))
        pixman_image_set_transform(src, &m)
        pixman_image_set_filter(src, PIXMAN_FILTER_BILINEAR, nil, 0)
        return Stopwatch.median {
            if clearingFirst { memset(target.pixels, 0, target.rowPixels * target.height * 4) }
            pixman_image_composite32(operation, src, nil, dst, 0, 0, 0, 0, 0, 0, Int32(target.width), Int32(target.height))
        }
    }
}
