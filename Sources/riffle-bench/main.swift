import Foundation
import RiffleGeometry
import RiffleImageIO

// riffle-bench: figures printed beside anchors measured in the same run (memcpy, pixman,
// libjpeg-turbo at full size); nothing is asserted.
let width = 6000, height = 4000
print("riffle-bench: making a \(width)x\(height) camera-like photo…")
let photo = SyntheticPhoto.make(width: width, height: height)
let jpeg = try JPEGEncoder.encode(photo, quality: 90)
print("")
CompositeBenchmark.run(source: photo, frame: PixelSize(width: 1920, height: 1080))
print("")
DecodeBenchmark.run(jpeg: jpeg, size: PixelSize(width: width, height: height))
print("")
InteractionBenchmark.run()
print("")
let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-\(getpid())")
defer { try? FileManager.default.removeItem(at: workspace) }
let riffle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("riffle").path
if FileManager.default.isExecutableFile(atPath: riffle) {
    try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
    try PagingBenchmark.run(workspace: workspace, riffle: riffle)
    print("")
    try TiledZoomBenchmark.run(workspace: workspace, riffle: riffle)
} else {
    print("\(riffle) is missing: build it with `swift build -c release --product riffle` for the paging and zoom runs")
}
