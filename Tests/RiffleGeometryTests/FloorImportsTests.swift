import Foundation
import Testing

/// The pure floors stay pure: every source file of Geometry, Physics, Interaction and Raster
/// imports only the floors beneath it and swift-numerics' RealModule. No Glibc, Foundation,
/// Dispatch or C module: a floor that could read a clock, a file or the display could not be a
/// pure function of its inputs, and the package graph alone does not stop `import Glibc`.
///
/// An allow-list rather than a deny-list, so that any new import (FoundationEssentials, Musl, a
/// C module added later) fails until it is judged. Every form of import counts: `@testable`,
/// `@preconcurrency`, `import struct Foundation.Date`.
@Suite struct FloorImportsTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Each floor and what it may import.
    static let floors: [(name: String, allowed: Set<String>)] = [
        ("RiffleGeometry", ["RealModule"]),
        ("RifflePhysics", ["RealModule", "RiffleGeometry"]),
        ("RiffleInteraction", ["RealModule", "RiffleGeometry", "RifflePhysics"]),
        ("RiffleRaster", ["RealModule", "RiffleGeometry"]),
    ]

    @Test(arguments: floors.map(\.name))
    func aFloorImportsOnlyTheFloorsBeneathIt(floor: String) throws {
        let allowed = Self.floors.first { $0.name == floor }!.allowed
        let files = try Self.swiftFiles(in: Self.sources.appendingPathComponent(floor))
        #expect(!files.isEmpty, "no sources found for \(floor)")
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for module in Self.importedModules(in: text) where !allowed.contains(module) {
                Issue.record("\(floor)/\(file.lastPathComponent) imports \(module); a floor may import only \(allowed.sorted())")
            }
        }
    }

    /// The reader of imports itself: every spelling Swift accepts is seen.
    @Test func everyFormOfImportIsRead() {
        let text = """
            import RiffleGeometry
            @testable import Glibc
            @preconcurrency import Dispatch
            import struct Foundation.Date
            @_exported import CRiffleX11
              import   FoundationEssentials // indented
            let imported = "import Nothing"
            """
        #expect(Self.importedModules(in: text) == ["RiffleGeometry", "Glibc", "Dispatch", "Foundation", "CRiffleX11", "FoundationEssentials"])
    }

    /// The module of every import declaration in `text`: a line that, after attributes, starts
    /// with `import`, optionally followed by a kind (`struct`, `func`, ...), then the module's name
    /// (the part before the first dot).
    static func importedModules(in text: String) -> [String] {
        let kinds: Set = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
        return text.split(separator: "\n").compactMap { line in
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { return nil }
            let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
            return String(path.split(separator: ".").first ?? "")
        }
    }

    static func swiftFiles(in folder: URL) throws -> [URL] {
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }
}
