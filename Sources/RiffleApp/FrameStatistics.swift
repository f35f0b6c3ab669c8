import Glibc
import RiffleDisplay
import RiffleImageIO
import RifflePipeline

/// What `--stats` prints at exit: frame times, slow frames, decode times, whether photos were
/// sharp when their slide ended, memory. A photo is sharp once it shows at least
/// `PhotoDecoding.draftFraction` of its shown resolution (its draft or its real decode), and
/// refined once its real decode is there. It observes the views (`FrameObserver`) and the
/// display (`PresentationObserver`); the pipeline's own figures are read when the report is made.
public final class FrameStatistics: FrameObserver, PresentationObserver {
    /// A frame slower than this misses a 60 Hz display refresh.
    public static let frameBudget = 1.0 / 60

    private var frameSeconds: [Double] = []
    private var arrivals = 0
    private var sharpArrivals = 0
    private var passed = 0
    /// Seconds from launch to the first frame showing the current photo sharp.
    private(set) var firstSharpFrame: Double?
    /// Seconds from launch to the first frame showing the current photo's real decode.
    private(set) var firstRefinedFrame: Double?
    /// Seconds from launch to the first frame showing anything of the current photo.
    private(set) var firstPhotoFrame: Double?
    /// For each zoomed-in view of a huge photo: seconds from the view coming to rest to its
    /// tiles all being there.
    private var zoomedViewsSharp: [Double] = []
    /// Seconds from launch to the first frame of the library grid.
    private(set) var firstGridFrame: Double?
    /// Seconds from launch to the first frame with every visible cell showing its real
    /// thumbnail (or its broken-file mark).
    private(set) var gridSharp: Double?
    /// For each photo opened from the grid: seconds from the click to the flight's first frame.
    private var flightStarts: [Double] = []
    /// For each flight into a photo: whether the photo was sharp when it landed.
    private var landings: [Bool] = []

    /// How frames reach the screen, as the display last said.
    private var presentationPath = "none (headless)"
    /// Seconds from input to the frame answering it on screen, for the frames the display saw shown.
    private var inputLatencies: [Double] = []

    public init() {}

    public func presentation(path: String) { presentationPath = path }

    public func frameShown(answeringInputAt inputTime: Double, at shownTime: Double) {
        inputLatencies.append(shownTime - inputTime)
    }

    /// For each time the navigator strip came to rest after the user drove it: seconds until the
    /// photo under its centre was sharp.
    private var scrubsSharp: [Double] = []
    /// The same, until its real decode was there.
    private var scrubsRefined: [Double] = []

    /// The photo the navigator strip came to rest on was sharp `seconds` after it rested.
    public func recordScrubSharp(after seconds: Double) { scrubsSharp.append(seconds) }

    /// The photo the navigator strip came to rest on was refined `seconds` after it rested.
    public func recordScrubRefined(after seconds: Double) { scrubsRefined.append(seconds) }

    /// The grid was drawn `sinceLaunch` seconds after launch, every visible cell sharp or not.
    public func recordGridFrame(sinceLaunch: Double, allSharp: Bool) {
        if firstGridFrame == nil { firstGridFrame = sinceLaunch }
        if allSharp && gridSharp == nil { gridSharp = sinceLaunch }
    }

    /// A photo's flight out of the grid showed its first frame `seconds` after the click.
    public func recordFlightStart(after seconds: Double) { flightStarts.append(seconds) }

    /// A flight into a photo landed; `sharp` when its real pixels were there.
    public func recordLanding(sharp: Bool) { landings.append(sharp) }

    /// One frame took `seconds` to composite and present.
    public func recordFrame(seconds: Double) { frameSeconds.append(seconds) }

    /// The user moved on before the slide to a photo ended.
    public func recordPassed() { passed += 1 }

    /// A slide ended on a photo; `sharp` when its real pixels were there.
    public func recordArrival(sharp: Bool) {
        arrivals += 1
        if sharp { sharpArrivals += 1 }
    }

    /// The frame drawn `sinceLaunch` seconds after launch showed the current photo, sharp and
    /// refined or not.
    public func recordPhotoFrame(sinceLaunch: Double, sharp: Bool, refined: Bool) {
        if firstPhotoFrame == nil { firstPhotoFrame = sinceLaunch }
        if sharp && firstSharpFrame == nil { firstSharpFrame = sinceLaunch }
        if refined && firstRefinedFrame == nil { firstRefinedFrame = sinceLaunch }
    }

    /// A zoomed-in view of a huge photo had all its tiles `seconds` after it came to rest.
    public func recordZoomedViewSharp(after seconds: Double) { zoomedViewsSharp.append(seconds) }

    /// The report, one figure a line, with the decode and thumbnail figures of `pipeline`.
    public func report(pipeline: PhotoPipeline) -> String {
        let store = pipeline.photoStore
        return report(
            decodeSeconds: store.decodeSeconds, previewSeconds: store.previewSeconds, draftSeconds: store.draftSeconds,
            cancelledDecodes: store.cancelledDecodes, tileDecodeSeconds: store.tileDecodeSeconds,
            tileOpenSeconds: store.tileOpenSeconds, thumbnailLookSeconds: pipeline.thumbnailStore.lookSeconds,
            thumbnailMakeSeconds: pipeline.thumbnailStore.makeSeconds, cacheHighWaterBytes: store.bytesHighWater,
            headStartTaken: pipeline.headStartTaken)
    }

    private func report(
        decodeSeconds: [Double], previewSeconds: [Double], draftSeconds: [Double], cancelledDecodes: Int, tileDecodeSeconds: [Double],
        tileOpenSeconds: [Double], thumbnailLookSeconds: [Double], thumbnailMakeSeconds: [Double], cacheHighWaterBytes: Int,
        headStartTaken: Bool?
    ) -> String {
        func ms(_ s: Double?) -> String { s.map { Self.fixed($0 * 1000, places: 2) + " ms" } ?? "n/a" }
        let frames = frameSeconds.sorted()
        let decodes = decodeSeconds.sorted()
        let previews = previewSeconds.sorted()
        let latencies = inputLatencies.sorted()
        var lines = [
            "presentation: \(presentationPath)",
            "input to photon (input to the frame answering it on screen): \(latencies.count) frames, p50 \(ms(percentile(latencies, 0.5))), p99 \(ms(percentile(latencies, 0.99)))",
            "frames: \(frames.count), p50 \(ms(percentile(frames, 0.5))), p99 \(ms(percentile(frames, 0.99))), max \(ms(frames.last)), over 16.7 ms: \(frames.filter { $0 > Self.frameBudget }.count)",
            "decodes: \(decodes.count) (and \(cancelledDecodes) given up part-way), p50 \(ms(percentile(decodes, 0.5))), max \(ms(decodes.last)), total \(ms(decodes.reduce(0, +)))",
            "previews (EXIF thumbnails, looked for or decoded, and 1/8 decodes): \(previews.count), p50 \(ms(percentile(previews, 0.5))), max \(ms(previews.last))",
            "drafts (the focused photo sharp at fit before its real decode): \(draftSeconds.count), p50 \(ms(percentile(draftSeconds.sorted(), 0.5))), max \(ms(draftSeconds.max()))",
            "tile decodes (each a view's worth): \(tileDecodeSeconds.count), times \(tileDecodeSeconds.map { ms($0) }.joined(separator: ", "))",
            "tile sources opened (a JPEG's scan indexed, a PNG's tiles cut): \(tileOpenSeconds.count), times \(tileOpenSeconds.map { ms($0) }.joined(separator: ", "))",
            "zoomed views sharp after coming to rest: \(zoomedViewsSharp.map { ms($0) }.joined(separator: ", "))",
            "photos sharp after the navigator strip came to rest on them: \(scrubsSharp.map { ms($0) }.joined(separator: ", ")); refined: \(scrubsRefined.map { ms($0) }.joined(separator: ", "))",
            "photos sharp when their slide ended: \(sharpArrivals) of \(arrivals) (\(passed) more passed before their slide ended)",
            "first photo on screen: \(ms(firstPhotoFrame)) after launch; first sharp frame: \(ms(firstSharpFrame)); refined: \(ms(firstRefinedFrame))",
            "first grid frame: \(ms(firstGridFrame)) after launch; every visible cell sharp: \(ms(gridSharp))",
            "thumbnails looked up (stored, else the camera's): \(thumbnailLookSeconds.count), p50 \(ms(percentile(thumbnailLookSeconds.sorted(), 0.5))); made: \(thumbnailMakeSeconds.count), p50 \(ms(percentile(thumbnailMakeSeconds.sorted(), 0.5))), max \(ms(thumbnailMakeSeconds.max()))",
            "photos opened from the grid: first flight frame \(flightStarts.map { ms($0) }.joined(separator: ", ")) after the click; sharp on landing: \(landings.filter { $0 }.count) of \(landings.count)",
            "decoded-pixel cache high-water: \(Self.fixed(Double(cacheHighWaterBytes) / 1_048_576, places: 1)) MiB",
        ]
        if let headStartTaken {
            // `riffle FILE`: whether the photo's decode from the process's first moment was for the
            // window's size and shown (`HeadStartDecode`).
            lines.append("the photo decoded from launch (head start): \(headStartTaken ? "taken" : "not taken")")
        }
        // VmHWM, not getrusage's ru_maxrss: Linux carries ru_maxrss over from the parent across
        // fork and exec, so a child of a big process would report its parent's peak.
        if let hwm = Self.statusField("VmHWM") {
            lines.append("peak RSS: \(Self.fixed(Double(hwm) / 1024, places: 1)) MiB")
        }
        var usage = rusage()
        if getrusage(RUSAGE_SELF.rawValue, &usage) == 0 {
            let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
            lines.append("CPU time: \(Self.fixed(cpu, places: 2)) s")
        }
        return lines.joined(separator: "\n")
    }

    /// A "Name:   1234 kB" field of /proc/self/status, in KiB.
    static func statusField(_ name: String) -> Int? {
        guard let bytes = try? FileBytes.read(atPath: "/proc/self/status") else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    /// `value` rounded to `places` decimals, written out with exactly that many ("12.30").
    package static func fixed(_ value: Double, places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let units = Int((abs(value) * Double(scale)).rounded())
        let fraction = String(units % scale)
        let sign = value < 0 && units > 0 ? "-" : ""
        guard places > 0 else { return sign + String(units) }
        return sign + String(units / scale) + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    /// The value below which a share `q` of the sorted `values` fall (nearest rank).
    func percentile(_ values: [Double], _ q: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        return values[min(values.count - 1, max(0, Int((q * Double(values.count)).rounded(.up)) - 1))]
    }
}
