import Foundation

/// lcms2's own command-line transform, `transicc` (liblcms2-utils): floating point and
/// unoptimised, the reference Riffle's 8-bit optimised transforms are held to.
public enum LCMSReference {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `colours` (8-bit R, G, B) transformed from the profile `from` to `to` (nil: lcms2's
    /// built-in sRGB) with the perceptual intent, bounded to the output's gamut, rounded to 8 bits.
    public static func transform(_ colours: [(Int, Int, Int)], from: [UInt8]?, to: [UInt8]?) throws -> [(Int, Int, Int)] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-lcms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        func argument(_ profile: [UInt8]?, _ name: String) throws -> String {
            guard let profile else { return "*sRGB" }
            let file = folder.appendingPathComponent(name + ".icc")
            try Data(profile).write(to: file)
            return file.path
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/transicc")
        process.arguments = ["-i" + (try argument(from, "in")), "-o" + (try argument(to, "out")), "-t0", "-n", "-s"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(colours.map { "\($0.0) \($0.1) \($0.2)\n" }.joined().utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // transicc prints a banner, then one line of three numbers for each line in.
        let rows = text.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }.filter { $0.count == 3 }
        guard rows.count == colours.count else { throw Failure(description: "transicc printed: \(text)") }
        return rows.map { (Int($0[0].rounded()), Int($0[1].rounded()), Int($0[2].rounded())) }
    }
}
