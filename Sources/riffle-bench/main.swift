import Foundation
import RiffleGeometry
import RiffleImageIO

// riffle-bench [composite] [decode] [webp] [colour] [dither] [stills] [physics] [chrome] [paging] [tiles] [png] [grid] [folder]
// [launch] [firstscreen] [library] [soak]: figures printed beside anchors measured in the same run (memcpy, pixman, libjpeg-turbo, libwebp and
// libpng at full size); nothing is asserted. With no argument every benchmark runs but the soak (18 minutes; `make
// soak`). RIFFLE_BENCH_WORKSPACE names a folder to keep the generated photos in from one run to the next (else a
// temporary one, removed); RIFFLE_BENCH_RIFFLE names the riffle binary the runs launch (else the one beside this);
// RIFFLE_BENCH_UNPACED draws the library's timeline frames back to back rather than at 60 Hz (`FramePacer`).
let all = ["composite", "decode", "webp", "colour", "dither", "stills", "physics", "chrome", "paging", "tiles", "png", "grid", "folder", "launch", "firstscreen", "library"]
let chosen = CommandLine.arguments.dropFirst().isEmpty ? all : Array(CommandLine.arguments.dropFirst())
if let unknown = chosen.first(where: { !all.contains($0) && $0 != "soak" }) {
    FileHandle.standardError.write(Data("riffle-bench: no benchmark \"\(unknown)\"; choose from \((all + ["soak"]).joined(separator: ", "))\n".utf8))
    exit(2)
}
let width = 6000, height = 4000
if chosen.contains("composite") || chosen.contains("decode") || chosen.contains("webp") || chosen.contains("colour") {
    print("riffle-bench: making a \(width)x\(height) camera-like photo…")
    let photo = SyntheticPhoto.make(width: width, height: height)
    if chosen.contains("composite") {
        print("")
        CompositeBenchmark.run(source: photo, frame: PixelSize(width: 1920, height: 1080))
        print("")
        CompositeBenchmark.run(source: photo, frame: PixelSize(width: 3840, height: 2160))
    }
    if chosen.contains("decode") {
        print("")
        try DecodeBenchmark.run(jpeg: try JPEGEncoder.encode(photo, quality: 90), size: PixelSize(width: width, height: height))
    }
    if chosen.contains("webp") {
        print("")
        try WebPBenchmark.run(photo: photo)
    }
    if chosen.contains("colour") {
        print("")
        try ColourBenchmark.run(photo: photo, jpeg: try JPEGEncoder.encode(photo, quality: 90))
    }
}
if chosen.contains("dither") {
    print("")
    DitherBenchmark.run(width: width, height: height)
}
if chosen.contains("stills") {
    print("")
    let kept = ProcessInfo.processInfo.environment["RIFFLE_BENCH_WORKSPACE"].map { URL(fileURLWithPath: $0) }
    let workspace = kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-stills-\(getpid())")
    try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
    defer { if kept == nil { try? FileManager.default.removeItem(at: workspace) } }
    try StillsBenchmark.run(workspace: workspace)
}
if chosen.contains("library") {
    print("")
    let kept = ProcessInfo.processInfo.environment["RIFFLE_BENCH_WORKSPACE"].map { URL(fileURLWithPath: $0) }
    let workspace = kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-library-\(getpid())")
    try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
    defer { if kept == nil { try? FileManager.default.removeItem(at: workspace) } }
    try LibraryBenchmark.run(workspace: workspace)
}
if chosen.contains("physics") {
    print("")
    InteractionBenchmark.run()
}
if chosen.contains("chrome") {
    print("")
    let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-chrome-\(getpid())")
    try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: workspace) }
    try ChromeBenchmark.run(workspace: workspace)
}
if chosen.contains("paging") || chosen.contains("tiles") || chosen.contains("png") || chosen.contains("grid") || chosen.contains("folder") || chosen.contains("launch") || chosen.contains("firstscreen") || chosen.contains("soak") {
    print("")
    let kept = ProcessInfo.processInfo.environment["RIFFLE_BENCH_WORKSPACE"].map { URL(fileURLWithPath: $0) }
    let workspace = kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-\(getpid())")
    defer { if kept == nil { try? FileManager.default.removeItem(at: workspace) } }
    let riffle = ProcessInfo.processInfo.environment["RIFFLE_BENCH_RIFFLE"]
        ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("riffle").path
    if FileManager.default.isExecutableFile(atPath: riffle) {
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        if chosen.contains("paging") {
            try PagingBenchmark.run(workspace: workspace, riffle: riffle)
            print("")
        }
        if chosen.contains("tiles") {
            try TiledZoomBenchmark.run(workspace: workspace, riffle: riffle)
            print("")
        }
        if chosen.contains("png") {
            try PNGBenchmark.run(workspace: workspace, riffle: riffle)
            print("")
        }
        if chosen.contains("grid") { try GridBenchmark.run(workspace: workspace, riffle: riffle) }
        if chosen.contains("folder") { try FolderBenchmark.run(workspace: workspace, riffle: riffle) }
        if chosen.contains("launch") { try LaunchBenchmark.run(workspace: workspace, riffle: riffle) }
        if chosen.contains("firstscreen") {
            print("")
            try FirstScreenBenchmark.run(workspace: workspace, riffle: riffle)
        }
        if chosen.contains("soak") { try SoakBenchmark.run(workspace: workspace, riffle: riffle) }
    } else {
        print("\(riffle) is missing: build it with `swift build -c release --product riffle` for the paging, zoom and PNG runs")
    }
}
