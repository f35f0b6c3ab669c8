// swift-tools-version: 6.0
// Riffle: a photo browser for X11 with the feel of iOS Photos.
//
// The target graph is the architecture: the pure-Swift floors (geometry, physics, interaction,
// raster) depend on nothing but swift-numerics, so importing C, X or a clock there is a compile
// error. C lives in two prefixed shims: CRiffleX11 (Xlib, MIT-SHM, Present, RandR, XInput2, Xcursor, XFixes) and CRiffleImaging
// (libjpeg-turbo, libpng and its zlib, libexif, FreeType, fontconfig; libtiff, libheif, libjxl and
// LibRaw for the other still formats).
import PackageDescription

// Pixel loops (sampling, resampling, premultiplying, orienting) run 30-50x slower unoptimised,
// which makes a debug `swift test` of the headless app crawl; these targets are optimised in
// every configuration. (Safe Swift still: bounds and overflow checks stay.)
let pixelLoopsOptimised: [SwiftSetting] = [.unsafeFlags(["-O"])]

let package = Package(
    name: "Riffle",
    products: [
        .executable(name: "riffle", targets: ["riffle"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.0.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        // Insecure.MD5 for thumbnail names; 4.x imports FoundationEssentials only (3.x: all of Foundation).
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // SQLite for the library's index (over Debian's libsqlite3).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // MARK: C shims (the only C in the package)
        .target(
            name: "CRiffleX11",
            linkerSettings: [
                .linkedLibrary("X11"), .linkedLibrary("Xext"), .linkedLibrary("Xi"), .linkedLibrary("Xcursor"),
                .linkedLibrary("Xpresent"), .linkedLibrary("Xrandr"),
            ]
        ),
        // The other X clients the end-to-end tests and the benchmarks play against the window
        // (prefix rfx_test_); nothing that ships links it.
        .target(
            name: "CRiffleX11TestClients",
            dependencies: ["CRiffleX11"],
            linkerSettings: [
                // XFixes: the pointer's cursor read back (test_clients.c).
                .linkedLibrary("X11"), .linkedLibrary("Xext"), .linkedLibrary("Xi"), .linkedLibrary("Xrandr"),
                .linkedLibrary("Xfixes"),
            ]
        ),
        .target(
            name: "CRiffleImaging",
            cSettings: [.unsafeFlags(["-I/usr/include/freetype2"])],
            linkerSettings: [
                .linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("exif"),
                .linkedLibrary("freetype"), .linkedLibrary("fontconfig"), .linkedLibrary("lcms2"),
                // The still formats: TIFF here; HEIF/AVIF (libheif, and libde265 directly for the
                // HEICs libheif 1.15 refuses), JPEG XL (and its thread pool) and camera RAW
                // (libraw_r, LibRaw's reentrant build) are loaded on first use (lazy_codecs.h).
                .linkedLibrary("tiff"), .linkedLibrary("dl"),
                // The animated and web formats: WebP (and its demuxer), GIF.
                .linkedLibrary("webp"), .linkedLibrary("webpdemux"), .linkedLibrary("gif"),
            ]
        ),
        // pixman is the benchmark's yardstick only; nothing that ships links it.
        .systemLibrary(name: "CPixman", pkgConfig: "pixman-1"),

        // MARK: pure-Swift floors
        .target(name: "RiffleGeometry", dependencies: [.product(name: "RealModule", package: "swift-numerics")]),
        .target(
            name: "RifflePhysics",
            dependencies: ["RiffleGeometry", .product(name: "RealModule", package: "swift-numerics")]
        ),
        .target(
            name: "RiffleInteraction",
            dependencies: ["RiffleGeometry", "RifflePhysics", .product(name: "RealModule", package: "swift-numerics")]
        ),
        .target(
            name: "RiffleRaster",
            dependencies: ["RiffleGeometry", .product(name: "RealModule", package: "swift-numerics")],
            swiftSettings: pixelLoopsOptimised
        ),

        // MARK: IO and display
        .target(name: "RiffleImageIO", dependencies: ["CRiffleImaging", "RiffleRaster", "RiffleGeometry"], swiftSettings: pixelLoopsOptimised),
        .target(name: "RiffleDisplay", dependencies: ["RiffleRaster", "RiffleInteraction", "RiffleGeometry"]),
        .target(name: "RiffleX11", dependencies: ["CRiffleX11", "RiffleDisplay", "RiffleRaster", "RiffleInteraction", "RiffleGeometry"]),

        // MARK: the library, the pipeline, the app and the executables
        // The photo library: listing folders in natural order, each photo's identity, live
        // folders (inotify), file stamps and URIs.
        .target(name: "RiffleLibrary", dependencies: ["RiffleImageIO"]),
        // The library's index: what each file of a photo tree is (its stamp, size, date taken,
        // camera), cached in SQLite so that a file whose stamp is unchanged is never read again.
        .target(
            name: "RiffleIndex",
            dependencies: [
                "RiffleLibrary", "RiffleImageIO", "RiffleRaster", "RiffleGeometry", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's own API, for the one read that steps a statement by hand (`LibraryIndex.recall`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The photo pipeline: the decode service and its workers, the pager's and the thumbnail
        // stores, what a decode does (`PhotoDecoding`), the Freedesktop thumbnail cache, tiles and
        // animation frames.
        .target(
            name: "RifflePipeline",
            dependencies: [
                "RiffleLibrary", "RiffleImageIO", "RiffleRaster", "RiffleGeometry", .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The app: the scene, the views, the runtimes (live loop, replay) and the statistics.
        .target(
            name: "RiffleApp",
            dependencies: [
                "RiffleLibrary", "RiffleIndex", "RifflePipeline", "RiffleDisplay", "RiffleImageIO", "RiffleRaster",
                "RiffleInteraction", "RifflePhysics", "RiffleGeometry",
            ]
        ),
        .executableTarget(
            name: "riffle",
            dependencies: [
                "RiffleApp", "RiffleLibrary", "RiffleX11", "RiffleDisplay", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The Swift parsers' fuzz harnesses (`make fuzz`), a replayer of their inputs otherwise.
        .executableTarget(name: "riffle-fuzz", dependencies: ["RiffleApp", "RiffleLibrary", "RifflePipeline", "RiffleImageIO", "RiffleGeometry"]),
        .executableTarget(
            name: "riffle-bench",
            dependencies: [
                "RiffleApp", "RiffleLibrary", "RiffleIndex", "RifflePipeline", "RiffleDisplay", "RiffleInteraction", "RiffleImageIO",
                "RiffleRaster", "RiffleGeometry", "CPixman", "CRiffleImaging",
                "CRiffleX11TestClients",
            ]
        ),

        // MARK: tests
        // The reference resamplers here run over whole photos: optimised like the pixel loops.
        .target(name: "RiffleTestSupport", dependencies: ["RiffleRaster"], path: "Tests/RiffleTestSupport", swiftSettings: pixelLoopsOptimised),
        .testTarget(name: "RiffleGeometryTests", dependencies: ["RiffleGeometry"]),
        .testTarget(name: "RifflePhysicsTests", dependencies: ["RifflePhysics", "RiffleTestSupport"]),
        .testTarget(
            name: "RiffleInteractionTests",
            dependencies: ["RiffleInteraction", "RiffleTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "RiffleX11Tests", dependencies: ["RiffleX11", "RiffleDisplay"]),
        .testTarget(name: "RiffleRasterTests", dependencies: ["RiffleRaster", "RiffleImageIO", "RiffleTestSupport"]),
        .testTarget(name: "RiffleImageIOTests", dependencies: ["RiffleImageIO", "RiffleRaster", "RiffleTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "RiffleIndexTests", dependencies: ["RiffleIndex", "RiffleLibrary", "RiffleImageIO", "RiffleTestSupport"]),
        .testTarget(
            name: "RiffleAppTests",
            dependencies: ["RiffleApp", "RiffleLibrary", "RifflePipeline", "RiffleImageIO", "RiffleRaster", "RiffleDisplay", "RiffleTestSupport"],
            exclude: ["Goldens"]
        ),
        // Runs the `riffle` binary beside the test bundle: depending on the executable makes every
        // build of the tests (`swift test` builds only the tests and what they depend on) relink it,
        // so the window tests never run a stale one.
        .testTarget(
            name: "RiffleEndToEndTests",
            dependencies: ["riffle", "CRiffleX11TestClients", "RiffleImageIO", "RiffleRaster", "RiffleX11", "RiffleInteraction", "RiffleGeometry", "RiffleTestSupport"]
        ),
    ]
)
