import Foundation
import RiffleApp
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// The golden machinery itself: it catches a one-pixel change, every golden on disk is compared
/// by some test, record mode cannot run under CI, and the tables of scripts are not empty.
@Suite struct GoldenImageTests {
    /// Every golden PNG under `Goldens/`, by the name `GoldenImage.check` takes, sorted.
    static func goldensOnDisk() throws -> [String] {
        let root = TestPaths.goldens.standardizedFileURL.path + "/"
        guard let walk = FileManager.default.enumerator(atPath: root) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: root])
        }
        return walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".png") }.map { String($0.dropLast(".png".count)) }.sorted()
    }

    /// The goldens the tests compare: every `snapshot` line of every replay script (as
    /// `script/name`), and every literal `golden:` name in this target's sources.
    static func comparedGoldens() throws -> Set<String> {
        var names: Set<String> = []
        for script in try TestPaths.allScripts() {
            let text = try String(contentsOf: TestPaths.script(script), encoding: .utf8)
            for step in try ReplayScript(parsing: text).steps {
                if case .snapshot(let name) = step.command { names.insert("\(script)/\(name)") }
            }
        }
        let sources = try FileManager.default.contentsOfDirectory(at: TestPaths.appTests, includingPropertiesForKeys: nil)
        for source in sources where source.pathExtension == "swift" {
            let text = try String(contentsOf: source, encoding: .utf8)
            for match in text.matches(of: #/golden:\s*"([^"\\]+)"/#) { names.insert(String(match.1)) }
        }
        return names
    }

    /// Thirty-three scripts: one removed, renamed or no longer found changes this on purpose.
    /// (Tables of cases built from the folder would otherwise shrink, to none, and still pass.)
    @Test func scriptsFolderHoldsEveryScript() throws {
        let scripts = try TestPaths.allScripts()
        #expect(scripts.count == 33, "\(scripts)")
    }

    /// A golden nobody compares is dead weight that looks like coverage; a compared name with no
    /// golden fails its own test too, and is listed here beside the others.
    @Test func everyGoldenIsCompared() throws {
        let onDisk = Set(try Self.goldensOnDisk())
        let compared = try Self.comparedGoldens()
        #expect(!onDisk.isEmpty)
        #expect(onDisk.subtracting(compared).isEmpty, "goldens no test compares: \(onDisk.subtracting(compared).sorted())")
        #expect(compared.subtracting(onDisk).isEmpty, "compared without a golden: \(compared.subtracting(onDisk).sorted())")
    }

    /// The comparison the replay tests use catches one channel of one pixel moved by 4 (one past
    /// the tolerance of 3) and lets a move of 3 through. Nothing is written.
    @Test(arguments: try goldensOnDisk())
    func oneNudgedPixelFails(golden name: String) throws {
        let golden = try ImageDecoder.decodeFile(atPath: GoldenImage.file(name).path).pixels
        #expect(try GoldenImage.mismatch(golden, golden: name) == nil, "a golden matches itself")
        let (x, y) = (golden.width / 2, golden.height / 2)
        // Green, moved away from whichever end of 0...255 it is nearer.
        let green = Int((golden[x, y] >> 8) & 0xFF)
        let direction = green < 128 ? 1 : -1
        for (step, fails) in [(3, false), (4, true)] {
            let nudged = golden.copy()
            nudged[x, y] = golden[x, y] & 0xFFFF_00FF | UInt32(green + direction * step) << 8
            let mismatch = try GoldenImage.mismatch(nudged, golden: name)
            #expect((mismatch != nil) == fails, "\(name): green \(green) moved by \(direction * step)")
            if let mismatch { #expect(mismatch.message.contains("1 pixels differ"), "\(mismatch.message)") }
        }
        let cropped = golden.cropped(to: PixelRect(x: 0, y: 0, width: golden.width - 1, height: golden.height))
        #expect(try GoldenImage.mismatch(cropped, golden: name) != nil, "a frame one pixel narrower")
    }

    @Test func recordModeIsRefusedUnderCI() {
        #expect(GoldenImage.recordMode(environment: [:]) == .off)
        #expect(GoldenImage.recordMode(environment: ["CI": "true"]) == .off)
        #expect(GoldenImage.recordMode(environment: ["RIFFLE_RECORD_GOLDENS": "1"]) == .on)
        #expect(GoldenImage.recordMode(environment: ["RIFFLE_RECORD_GOLDENS": "1", "CI": "true"]) == .refused)
        #expect(GoldenImage.recordMode(environment: ["RIFFLE_RECORD_GOLDENS": "1", "CI": ""]) == .refused)
    }
}
