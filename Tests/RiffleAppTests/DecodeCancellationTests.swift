import Dispatch
import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleGeometry
import RiffleImageIO
import Testing

/// Work for a photo that stops being wanted while it decodes is given up part-way.
@Suite(.serialized) struct DecodeCancellationTests {
    static func request(_ index: Int) -> DecodeRequest {
        DecodeRequest(photo: PhotoID(index), path: "photo\(index).jpg", job: .fit(viewport: PixelSize(width: 64, height: 48)))
    }

    /// A decode that runs until it is cancelled or let go, and says which.
    final class Blocking: @unchecked Sendable {
        let lock = NSLock()
        var started: [Int] = []
        let release = DispatchSemaphore(value: 0)

        func decode(_ request: DecodeRequest, _ cancellation: DecodeCancellation) -> String {
            lock.withLock { started.append(request.photo.number) }
            while !cancellation.isCancelled {
                if release.wait(timeout: .now() + .milliseconds(2)) == .success { return "done \(request.photo.number)" }
            }
            return "cancelled \(request.photo.number)"
        }
    }

    @Test("A running decode left out of the wanted list is cancelled; one still wanted is not")
    func runningDecodeLeftOutIsCancelled() {
        let blocking = Blocking()
        let service = DecodeService<String>(workers: 2, clock: { MonotonicClock().now() }, decode: { blocking.decode($0, $1) }, onResult: {})
        defer { service.shutdown() }
        service.want([Self.request(0), Self.request(1)], for: .pager)
        eventually { blocking.lock.withLock { blocking.started.count == 2 } }
        // Photo 0 stays wanted, photo 1 does not.
        service.want([Self.request(0), Self.request(5)], for: .pager)
        var outputs: [String] = []
        eventually {
            outputs += service.takeResults(for: .pager).map(\.output)
            return outputs.contains("cancelled 1")
        }
        #expect(outputs == ["cancelled 1"])
        // The freed worker took photo 5; let both finish.
        blocking.release.signal()
        blocking.release.signal()
        eventually {
            outputs += service.takeResults(for: .pager).map(\.output)
            return outputs.count == 3
        }
        #expect(outputs.sorted() == ["cancelled 1", "done 0", "done 5"])
    }

    @Test("A streamed JPEG decode stops where it is told to, with the stop error")
    func streamedDecodeStops() throws {
        let path = TestPaths.photos + "/10 hubble.jpg"
        var asked = 0
        #expect(throws: ImageDecodeError.stopped) {
            _ = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { $0.uprightSize }, until: {
                asked += 1
                return asked > 3
            })
        }
        #expect(asked == 4)
        let cancelled = DecodeCancellation()
        cancelled.cancel()
        let request = DecodeRequest(photo: PhotoID(0), path: path, job: .fit(viewport: PixelSize(width: 640, height: 480)))
        let output = standaloneDecoding().perform(request, cancellation: cancelled)
        guard case .cancelled = output else {
            Issue.record("a cancelled decode gave \(output)")
            return
        }
    }

    @Test("A streamed PNG decode stops where it is told to, with the stop error")
    func streamedPNGDecodeStops() throws {
        var asked = 0
        #expect(throws: ImageDecodeError.stopped) {
            _ = try ImageDecoder.decodeFile(atPath: TestPaths.photos + "/1 coffee.png", shrunkTo: { $0.uprightSize }, until: {
                asked += 1
                return asked > 3
            })
        }
        #expect(asked == 4)
    }

    /// Moving the focus past a photo whose decode is running cancels it once the photo leaves
    /// the ±1 neighbourhood, and coming back decodes it again.
    @Test("Paging away cancels a photo's running decode; paging back decodes it again")
    func pagingAwayCancelsAndComingBackRedecodes() throws {
        let dir = try linkedLibrary(count: 12)
        defer { try? FileManager.default.removeItem(at: dir) }
        let lock = NSLock()
        nonisolated(unsafe) var cancelledIndices: [Int] = []
        nonisolated(unsafe) var holdPhotoZero = true
        var problems: [String] = []
        let photos = PhotoLibrary.collect(paths: [dir.path], problems: &problems).photos
        let pipeline = PhotoPipeline(photos: photos, memoryBudget: 192 << 20, thumbnailFolder: nil, workers: 1, clock: { MonotonicClock().now() }, decode: { decoding, request, cancellation in
            // Photo 0's first full decode is held until its cancellation is raised.
            if request.photo.number == 0 && !request.job.isPreview && lock.withLock({ holdPhotoZero }) {
                while !cancellation.isCancelled { usleep(1000) }
                lock.withLock {
                    cancelledIndices.append(0)
                    holdPhotoZero = false
                }
            }
            return decoding.perform(request, cancellation: cancellation)
        })
        defer { pipeline.shutdown() }
        let store = pipeline.photoStore
        let viewport = PixelSize(width: 320, height: 200)
        store.focus(on: 0, viewport: viewport, direction: 1)
        eventually {
            _ = store.absorbResults()
            return store.content(of: PhotoID(0)) != nil  // its preview: the full decode is running now
        }
        store.focus(on: 3, viewport: viewport, direction: 1)
        eventually { lock.withLock { cancelledIndices == [0] } }
        #expect(lock.withLock { cancelledIndices } == [0])
        eventually {
            _ = store.absorbResults()
            return store.cancelledDecodes == 1
        }
        #expect(store.cancelledDecodes == 1)
        store.focus(on: 0, viewport: viewport, direction: -1)
        eventually {
            _ = store.absorbResults()
            return store.isSharp(PhotoID(0))
        }
        #expect(store.isSharp(PhotoID(0)))
    }
}
