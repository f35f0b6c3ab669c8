import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleDisplay
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// The photo a person waits for has the machine to itself: its decode takes both cores on a
/// focus worker, with no draft beside it, and nothing for the neighbours starts until it is
/// sharp.
@Suite(.serialized) struct FocusedPhotoFirstTests {
    static let friends = TestPaths.photos + "/2 friends.jpg"
    static let screen = PixelSize(width: 1920, height: 1080)

    /// friends.jpg (2056×3088) written again as a sequential JPEG (the file is progressive,
    /// which decodes on one core) and shown at 1080p decodes at 6/8 (1542×2316, 3.6 MP): on a
    /// focus worker on two cores, into exactly the pixels of the one-core decode, and its draft
    /// job gives way (`.redundantPreview`) instead of taking the second core. The progressive
    /// original keeps its draft.
    @Test func aFocusedFitTakesTwoCoresAndNoDraft() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-focused-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("friends-sequential.jpg").path
        try Data(JPEGEncoder.encode(ImageDecoder.decodeFile(atPath: Self.friends).pixels, quality: 90)).write(to: URL(fileURLWithPath: path))
        let decoding = standaloneDecoding()
        let info = try ImageDecoder.probeFile(atPath: path)
        #expect(ImageDecoder.decodesOnTwoCores(info, shrunkTo: PhotoDecoding.shownSize(of: info.uprightSize, in: Self.screen)))
        func perform(_ job: DecodeJob, focused: Bool, path: String = path) -> DecodeOutput {
            decoding.perform(DecodeRequest(photo: PhotoID(0), path: path, job: job), cancellation: DecodeCancellation(isFocused: focused))
        }
        guard case .photo(.image(let banded)) = perform(.fit(viewport: Self.screen), focused: true),
              case .photo(.image(let single)) = perform(.fit(viewport: Self.screen), focused: false)
        else {
            Issue.record("a fit decode failed")
            return
        }
        #expect(banded.pixels.size == single.pixels.size && !banded.isPreview)
        #expect(ImageDifference(banded.pixels, single.pixels, tolerance: 0).maxChannel == 0)
        guard case .redundantPreview = perform(.draft(viewport: Self.screen), focused: true) else {
            Issue.record("a focus worker made a draft beside a two-core fit")
            return
        }
        for (label, output) in [("off the focus workers", perform(.draft(viewport: Self.screen), focused: false)),
                                ("of a progressive file", perform(.draft(viewport: Self.screen), focused: true, path: Self.friends))] {
            guard case .photo(.image(let draft)) = output else {
                Issue.record("no draft \(label)")
                continue
            }
            #expect(draft.isDraft, "\(label)")
        }
    }

    /// With the focused photo's real decode held, the second worker starts no full decode of a
    /// neighbour, however long it waits; once the focused photo is sharp, the neighbours' decodes
    /// start.
    @Test func neighboursWaitUntilTheFocusedPhotoIsSharp() throws {
        let decoder = GatedDecoder()
        let display = HeadlessDisplay(size: PixelSize(width: 960, height: 600))
        let (v, pipeline) = viewer(decoder: decoder, display: display, workers: 2, startAt: Self.friends)
        defer { decoder.release(16); pipeline.shutdown() }
        let focused = PhotoID(1)
        func fullDecodes(of photo: PhotoID? = nil) -> [DecodeRequest] {
            decoder.started.filter { !$0.job.isPreview && (photo == nil || $0.photo == photo) }
        }
        eventually {
            v.advance(to: 0.1)
            return fullDecodes(of: focused).contains { if case .fit = $0.job { true } else { false } }
        }
        // Long enough for an idle worker to have taken anything queued (decodes of these photos
        // start within milliseconds), with the app's loop turning meanwhile.
        for step in 1...20 {
            v.advance(to: 0.1 + Double(step) * 0.01)
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(fullDecodes().allSatisfy { $0.photo == focused }, "a neighbour's full decode started: \(fullDecodes())")
        #expect(!pipeline.photoStore.isSharp(focused))
        decoder.release(1)
        eventually {
            v.advance(to: 0.5)
            return pipeline.photoStore.isSharp(focused)
        }
        eventually {
            v.advance(to: 0.6)
            return fullDecodes().contains { $0.photo != focused }
        }
    }
}
