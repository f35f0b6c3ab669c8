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
try PagingBenchmark.run(workspace: workspace)
