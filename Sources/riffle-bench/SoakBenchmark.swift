import Foundation
import Glibc

/// The soak: 10,000 page turns with zooms and pans (`SoakScript`) through the 30 distinct
/// 24-megapixel bench photos, by the real binary headless in real time at 1920×1080, its
/// resident memory read from /proc every 200 ms. It prints the median and peak RSS over the
/// first and the last thousand turns, the median of every thousand, and the drift between the
/// first and last medians (target: under 5 %). The byte budget is the least riffle takes,
/// 16 MiB: what the decoded-pixel cache holds at a moment depends on how many decodes the
/// machine finished, up to 192 MiB by default, and would swamp any drift; at 16 MiB it moves
/// RSS by one photo at most, so what the medians show is what the run kept.
/// Run against a binary built with AddressSanitizer (`make soak` does both), LeakSanitizer
/// reports at exit whatever the run leaked, and the bench prints its summary.
enum SoakBenchmark {
    static let flips = 10_000
    static let window = (width: 1920, height: 1080)
    /// The decoded-pixel cache's budget, in MiB: riffle's least (`--memory-budget`).
    static let memoryBudgetMiB = 16
    /// How often /proc/PID/status is read, in seconds.
    static let sampleInterval = 0.2

    static func run(workspace: URL, riffle: String) throws {
        let originals = try PagingBenchmark.originals(in: workspace)
        let soak = SoakScript(flips: flips, photoCount: 30, window: window)
        let script = try PagingBenchmark.script(named: "soak", in: workspace, lines: soak.lines)
        let minutes = Double(soak.flipTimes.last! + 2000) / 60_000
        print("soak: \(flips) page turns with a zoom and pan every \(SoakScript.zoomEvery), headless in real time "
            + "(\((minutes * 10).rounded() / 10) min), a \(memoryBudgetMiB) MiB budget, \(riffle)")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: riffle)
        process.arguments = [
            "--headless", "--real-time", "--stats", "--size", "\(window.width)x\(window.height)", "--replay", script.path,
            "--memory-budget", "\(memoryBudgetMiB)",
            originals.appendingPathComponent("photo00.jpg").path,
        ]
        // Both streams go to files, which never fill and block the run as an unread pipe would.
        let outPath = workspace.appendingPathComponent("soak.out"), errPath = workspace.appendingPathComponent("soak.err")
        try Data().write(to: outPath)
        try Data().write(to: errPath)
        process.standardOutput = try FileHandle(forWritingTo: outPath)
        process.standardError = try FileHandle(forWritingTo: errPath)
        try process.run()
        let start = Date()
        var samples: [(seconds: Double, kib: Int)] = []
        while process.isRunning {
            if let kib = residentKiB(of: process.processIdentifier) {
                samples.append((Date().timeIntervalSince(start), kib))
            }
            usleep(UInt32(sampleInterval * 1_000_000))
        }
        process.waitUntilExit()
        let stdoutText = (try? String(contentsOf: outPath, encoding: .utf8)) ?? ""
        let stderrText = (try? String(contentsOf: errPath, encoding: .utf8)) ?? ""

        // The replay starts once the library is listed and the first frame drawn, a fraction of
        // a second after launch; a window of a thousand turns lasts about two minutes.
        func samplesDuring(_ turns: Range<Int>) -> [Int] {
            let from = Double(soak.flipTimes[turns.lowerBound]) / 1000, to = Double(soak.flipTimes[turns.upperBound - 1]) / 1000
            return samples.filter { $0.seconds >= from && $0.seconds <= to }.map(\.kib)
        }
        let first = samplesDuring(0..<1000), last = samplesDuring((flips - 1000)..<flips)
        guard !first.isEmpty, !last.isEmpty else {
            print("  the run ended early (status \(process.terminationStatus)) after \(samples.count) samples")
            print(stderrText.split(separator: "\n").suffix(20).map { "  " + $0 }.joined(separator: "\n"))
            return
        }
        let firstMedian = median(first), lastMedian = median(last)
        let drift = Double(lastMedian - firstMedian) / Double(firstMedian) * 100
        print("  RSS over the first 1,000 turns: median \(mib(firstMedian)), peak \(mib(first.max()!)) (\(first.count) samples)")
        print("  RSS over the last 1,000 turns:  median \(mib(lastMedian)), peak \(mib(last.max()!)) (\(last.count) samples)")
        let medians = (0..<(flips / 1000)).map { k in samplesDuring((k * 1000)..<((k + 1) * 1000)) }.filter { !$0.isEmpty }.map(median)
        print("  median RSS of each thousand turns: " + medians.map(mib).joined(separator: ", "))
        print("  drift between the medians: \((drift * 100).rounded() / 100) % (target: under 5 %); "
            + "whole run: peak \(mib(samples.map(\.kib).max()!)), \(samples.count) samples")
        for line in stdoutText.split(separator: "\n") where ["frames", "slow", "peak RSS", "CPU", "decode"].contains(where: { line.hasPrefix($0) }) {
            print("  riffle --stats: \(line)")
        }
        let leakLines = stderrText.split(separator: "\n").filter { $0.contains("LeakSanitizer") || $0.hasPrefix("SUMMARY:") }
        if !leakLines.isEmpty {
            print("  sanitizer: " + leakLines.joined(separator: "\n  sanitizer: "))
        }
        print("  exit status \(process.terminationStatus)\(leakLines.isEmpty ? "" : " (the sanitizer's)")")
    }

    /// VmRSS of process `pid` in KiB, from /proc/PID/status; nil once it has gone.
    static func residentKiB(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    private static func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
    private static func mib(_ kib: Int) -> String { "\((Double(kib) / 1024 * 10).rounded() / 10) MiB" }
}
