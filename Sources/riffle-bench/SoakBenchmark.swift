import Foundation
import Glibc

/// The soak: 10,000 page turns with zooms and pans (`SoakScript`) through the 30 distinct
/// 24-megapixel bench photos, by the real binary headless in real time at 1920×1080, its
/// resident memory read from /proc every 200 ms. The byte budget is the least riffle takes,
/// 16 MiB, so the decoded-pixel cache moves RSS by a photo or two at most.
///
/// Two figures of drift. The medians over the first and the last thousand turns, as skimmed
/// (their rests left out): they hold whatever decodes were in flight at each sample, which
/// depends on how much CPU the machine had to spare, a photo's worth (6–8 MiB) either way.
/// And the settled drift, the target (under 5 %): the resident size during the rest in the
/// first and in the last thousand turns (`SoakScript.rests`), read only while riffle is idle
/// (under `idleTicks` of CPU time since the sample before: no decode running), when the cache
/// holds what it holds for any photo looked at, so the two states differ only by what the run
/// kept. Each rest's figure is split into anonymous and file-backed pages, with the thread
/// count beside it.
/// Run against a binary built with AddressSanitizer (`make soak` does both), LeakSanitizer
/// reports at exit whatever the run leaked, and the bench prints its summary.
enum SoakBenchmark {
    static let flips = 10_000
    static let window = (width: 1920, height: 1080)
    /// The decoded-pixel cache's budget, in MiB: riffle's least (`--memory-budget`).
    static let memoryBudgetMiB = 16
    /// How often /proc/PID/status is read, in seconds.
    static let sampleInterval = 0.2
    /// Most CPU time, in clock ticks (10 ms), riffle may have used since the sample before for
    /// a sample to count as idle: 10 % of a core over 200 ms, where one decode running uses all of one.
    static let idleTicks = 2

    /// One reading of /proc/PID/status and /proc/PID/stat: sizes in KiB, CPU time in clock ticks.
    struct Sample {
        var seconds: Double
        var resident: Int, anonymous: Int, fileBacked: Int
        var threads: Int
        var cpuTicks: Int
    }

    static func run(workspace: URL, riffle: String) throws {
        let originals = try PagingBenchmark.originals(in: workspace)
        let soak = SoakScript(flips: flips, photoCount: 30, window: window)
        let script = try PagingBenchmark.script(named: "soak", in: workspace, lines: soak.lines)
        let minutes = Double(soak.duration) / 60_000
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
        var samples: [Sample] = []
        while process.isRunning {
            if let sample = Self.sample(of: process.processIdentifier, at: Date().timeIntervalSince(start)) {
                samples.append(sample)
            }
            usleep(UInt32(sampleInterval * 1_000_000))
        }
        process.waitUntilExit()
        let stdoutText = (try? String(contentsOf: outPath, encoding: .utf8)) ?? ""
        let stderrText = (try? String(contentsOf: errPath, encoding: .utf8)) ?? ""

        // The replay starts once the library is listed and the first frame drawn, a fraction of
        // a second after launch; a window of a thousand turns lasts about two minutes. Its rest
        // is left out: these figures are of riffle skimming.
        func samplesDuring(_ turns: Range<Int>) -> [Int] {
            let from = Double(soak.flipTimes[turns.lowerBound]) / 1000, to = Double(soak.flipTimes[turns.upperBound - 1]) / 1000
            let resting = soak.rests.map { Double($0.lowerBound) / 1000...Double($0.upperBound) / 1000 }
            return samples.filter { sample in
                sample.seconds >= from && sample.seconds <= to && !resting.contains { $0.contains(sample.seconds) }
            }.map(\.resident)
        }
        // The samples of a rest at which riffle was idle (that lag only shortens the rest's
        // first idle stretch).
        func settled(_ rest: Range<Int>) -> [Sample] {
            let from = Double(rest.lowerBound) / 1000, to = Double(rest.upperBound) / 1000
            return zip(samples.dropFirst(), samples).filter { sample, before in
                sample.seconds >= from && sample.seconds <= to && sample.cpuTicks - before.cpuTicks <= idleTicks
            }.map(\.0)
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
        print("  drift between the medians: \(percent(drift)); whole run: peak \(mib(samples.map(\.resident).max()!)), "
            + "\(samples.count) samples")
        let rests = soak.rests.map(settled).filter { !$0.isEmpty }
        if rests.count == soak.rests.count {
            let resident = rests.map { median($0.map(\.resident)) }
            print("  settled RSS in the rest of each thousand turns: " + resident.map(mib).joined(separator: ", "))
            print("    of it anonymous: " + rests.map { mib(median($0.map(\.anonymous))) }.joined(separator: ", "))
            print("    file-backed: " + rests.map { mib(median($0.map(\.fileBacked))) }.joined(separator: ", "))
            print("    threads: " + rests.map { String($0.map(\.threads).max()!) }.joined(separator: ", "))
            print("    idle samples: " + rests.map { String($0.count) }.joined(separator: ", "))
            let settledDrift = Double(resident.last! - resident.first!) / Double(resident.first!) * 100
            print("  settled drift, the first thousand's rest to the last's: \(percent(settledDrift)) (target: under 5 %)")
        } else {
            print("  riffle was idle in only \(rests.count) of the \(soak.rests.count) rests; no settled drift")
        }
        for line in stdoutText.split(separator: "\n") where ["frames", "slow", "peak RSS", "CPU", "decode"].contains(where: { line.hasPrefix($0) }) {
            print("  riffle --stats: \(line)")
        }
        let leakLines = stderrText.split(separator: "\n").filter { $0.contains("LeakSanitizer") || $0.hasPrefix("SUMMARY:") }
        if !leakLines.isEmpty {
            print("  sanitizer: " + leakLines.joined(separator: "\n  sanitizer: "))
        }
        print("  exit status \(process.terminationStatus)\(leakLines.isEmpty ? "" : " (the sanitizer's)")")
    }

    /// Process `pid`'s resident sizes and thread count from /proc/PID/status, its CPU time
    /// (utime + stime, the 14th and 15th fields) from /proc/PID/stat; nil once it has gone.
    static func sample(of pid: Int32, at seconds: Double) -> Sample? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let nameEnd = stat.range(of: ") ", options: .backwards)
        else { return nil }
        // After the command name in parentheses, the fields from the 3rd (state) on.
        let after = stat[nameEnd.upperBound...].split(separator: " ")
        guard after.count > 12, let user = Int(after[11]), let system = Int(after[12]) else { return nil }
        var fields: [Substring: Int] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if words.count >= 2, let value = Int(words[1]) { fields[words[0]] = value }
        }
        guard let resident = fields["VmRSS:"], let anonymous = fields["RssAnon:"], let fileBacked = fields["RssFile:"],
            let threads = fields["Threads:"]
        else { return nil }
        return Sample(
            seconds: seconds, resident: resident, anonymous: anonymous, fileBacked: fileBacked, threads: threads,
            cpuTicks: user + system)
    }

    private static func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
    private static func percent(_ value: Double) -> String { "\((value * 100).rounded() / 100) %" }
    private static func mib(_ kib: Int) -> String { "\((Double(kib) / 1024 * 10).rounded() / 10) MiB" }
}
