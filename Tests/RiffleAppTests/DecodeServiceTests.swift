import Dispatch
import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleGeometry
import Testing

/// The decode service with several clients: how their wish lists merge, where results go, and
/// that one client's list never drops or cancels another's work. Decodes are stand-ins that
/// run until let go or cancelled, named by their request's path ("p3" for the pager, "g3" for
/// the grid).
@Suite(.serialized) struct DecodeServiceTests {
    /// A decode that records its start and runs until it is let go (`release(_:)`) or
    /// cancelled, and says which.
    final class Held: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String] = []
        private let gate = DispatchSemaphore(value: 0)

        /// The names of the requests started, in order.
        var started: [String] { lock.withLock { names } }

        func decode(_ request: DecodeRequest, _ cancellation: DecodeCancellation) -> String {
            lock.withLock { names.append(request.path) }
            while !cancellation.isCancelled {
                if gate.wait(timeout: .now() + .milliseconds(2)) == .success { return "done \(request.path)" }
            }
            return "cancelled \(request.path)"
        }

        /// Lets `count` decodes finish, running or to come.
        func release(_ count: Int) { for _ in 0..<count { gate.signal() } }
    }

    static let viewport = PixelSize(width: 64, height: 48)

    /// The pager's real decode of photo `index`, named "p`index`".
    static func pager(_ index: Int) -> DecodeRequest {
        DecodeRequest(photo: PhotoID(index), path: "p\(index)", job: .fit(viewport: viewport))
    }

    /// The grid's thumbnail of photo `index`, named "g`index`".
    static func grid(_ index: Int) -> DecodeRequest {
        DecodeRequest(photo: PhotoID(index), path: "g\(index)", job: .makeThumbnail(.normal))
    }

    /// Takes `client`'s results until `count` have come, and returns their outputs.
    static func outputs(of service: DecodeService<String>, for client: DecodeClient, count: Int) -> [String] {
        var outputs: [String] = []
        eventually {
            outputs += service.takeResults(for: client).map(\.output)
            return outputs.count >= count
        }
        return outputs
    }

    @Test("Urgent requests first, then the front client's list, then the other's", arguments: [DecodeClient.pager, .grid])
    func mergeOrder(front: DecodeClient) {
        let held = Held()
        let service = DecodeService<String>(workers: 1, clock: { MonotonicClock().now() }, decode: { held.decode($0, $1) }, onResult: {})
        defer { service.shutdown() }
        // The one worker is busy while the lists are stated, so it then takes them in merged order.
        service.want([Self.grid(0)], for: .grid)
        eventually { held.started == ["g0"] }
        service.setFront(front)
        service.want([Self.pager(0), Self.pager(1), Self.pager(2)], for: .pager, urgent: 1)
        service.want([Self.grid(0), Self.grid(1), Self.grid(2)], for: .grid)
        held.release(6)
        service.waitUntilIdle()
        let expected = front == .pager ? ["g0", "p0", "p1", "p2", "g1", "g2"] : ["g0", "p0", "g1", "g2", "p1", "p2"]
        #expect(held.started == expected)
    }

    /// While the scene moves, the grid's urgent requests (its visible cells) go to the lowered
    /// worker and the pager's (the photo shown) still to the focus worker; at rest the grid's go
    /// to the focus worker again. Each decode reports whether a focus worker ran it.
    @Test func whileTheSceneMovesOnlyThePagersUrgentRequestsGoToTheFocusWorkers() {
        let service = DecodeService<String>(
            workers: 1, focusWorkers: 1, clock: { MonotonicClock().now() },
            decode: { request, cancellation in "\(request.path) \(cancellation.isFocused ? "focus" : "lowered")" }, onResult: {})
        defer { service.shutdown() }
        service.setSceneMoves(true)
        service.want([Self.grid(1), Self.grid(2)], for: .grid, urgent: 2)
        service.want([Self.pager(1)], for: .pager, urgent: 1)
        service.waitUntilIdle()
        #expect(Set(service.takeResults(for: .grid).map(\.output)) == ["g1 lowered", "g2 lowered"])
        #expect(service.takeResults(for: .pager).map(\.output) == ["p1 focus"])
        service.setSceneMoves(false)
        service.want([Self.grid(3), Self.grid(4)], for: .grid, urgent: 2)
        service.waitUntilIdle()
        #expect(Set(service.takeResults(for: .grid).map(\.output)) == ["g3 focus", "g4 focus"])
    }

    /// A scene that starts moving while the grid's visible cells wait (both workers busy) hands
    /// them to the lowered worker.
    @Test func aChangeOfMotionHandsWaitingCellsOver() {
        let held = Held()
        let service = DecodeService<String>(
            workers: 1, focusWorkers: 1, clock: { MonotonicClock().now() },
            decode: { request, cancellation in "\(held.decode(request, cancellation)) \(cancellation.isFocused ? "focus" : "lowered")" },
            onResult: {})
        defer { service.shutdown() }
        // Both workers busy: the focus worker with the pager's photo, the lowered one with prefetch.
        service.want([Self.pager(1), Self.pager(2)], for: .pager, urgent: 1)
        eventually { Set(held.started) == ["p1", "p2"] }
        service.want([Self.grid(1)], for: .grid, urgent: 1)
        service.setSceneMoves(true)
        held.release(3)
        service.waitUntilIdle()
        #expect(service.takeResults(for: .grid).map(\.output) == ["done g1 lowered"])
    }

    @Test("Each client takes only the results of what it asked for; a request both want is decoded once, for both")
    func resultsGoToTheClientsThatAsked() {
        let held = Held()
        let service = DecodeService<String>(workers: 2, clock: { MonotonicClock().now() }, decode: { held.decode($0, $1) }, onResult: {})
        defer { service.shutdown() }
        let shared = DecodeRequest(photo: PhotoID(9), path: "both", job: .openTiles)
        service.want([Self.pager(0), shared], for: .pager)
        service.want([shared, Self.grid(1)], for: .grid)
        held.release(3)
        let pager = Self.outputs(of: service, for: .pager, count: 2)
        let grid = Self.outputs(of: service, for: .grid, count: 2)
        #expect(pager.sorted() == ["done both", "done p0"])
        #expect(grid.sorted() == ["done both", "done g1"])
        #expect(held.started.filter { $0 == "both" }.count == 1)
        #expect(service.takeResults(for: .pager).isEmpty && service.takeResults(for: .grid).isEmpty)
    }

    // The grid restates its (empty) wishes every frame; the pager's list still named a job that
    // had just finished, and the merge ran it again (a huge PNG's tiles were cut three times).
    @Test("A finished job is not run again when another client restates its wishes")
    func aFinishedJobLeavesTheWishLists() {
        let held = Held()
        let service = DecodeService<String>(workers: 1, clock: { MonotonicClock().now() }, decode: { held.decode($0, $1) }, onResult: {})
        defer { service.shutdown() }
        service.want([Self.pager(0)], for: .pager)
        held.release(1)
        #expect(Self.outputs(of: service, for: .pager, count: 1) == ["done p0"])
        service.want([], for: .grid)
        held.release(1)
        service.waitUntilIdle()
        #expect(held.started == ["p0"])
    }

    // The pager says what it wants before it takes what has finished: a neighbour's EXIF
    // thumbnail that landed in between was looked for twice.
    @Test("A result waiting in a client's inbox is not decoded again when the client restates its wishes; once taken, it is")
    func aWaitingResultIsNotRunAgain() {
        let held = Held()
        let service = DecodeService<String>(workers: 1, clock: { MonotonicClock().now() }, decode: { held.decode($0, $1) }, onResult: {})
        defer { service.shutdown() }
        service.want([Self.pager(0)], for: .pager)
        held.release(1)
        service.waitUntilIdle()
        service.want([Self.pager(0), Self.pager(1)], for: .pager)
        // Enough for both to finish (a second p0 would take one), so the wait always ends.
        held.release(2)
        service.waitUntilIdle()
        #expect(held.started == ["p0", "p1"], "p0's result was waiting to be taken")
        #expect(Self.outputs(of: service, for: .pager, count: 2) == ["done p0", "done p1"])
        service.want([Self.pager(0)], for: .pager)
        held.release(1)
        service.waitUntilIdle()
        #expect(held.started == ["p0", "p1", "p0"], "asked for again once its result was taken")
    }

    @Test("A client's new list cancels and drops only its own work, never the other client's",
          arguments: [DecodeClient.pager, .grid])
    func cancellationIsPerClient(lettingGo: DecodeClient) {
        let held = Held()
        let service = DecodeService<String>(workers: 2, clock: { MonotonicClock().now() }, decode: { held.decode($0, $1) }, onResult: {})
        defer { service.shutdown() }
        let keeping: DecodeClient = lettingGo == .pager ? .grid : .pager
        func request(_ client: DecodeClient, _ index: Int) -> DecodeRequest {
            client == .pager ? Self.pager(index) : Self.grid(index)
        }
        let name = { (client: DecodeClient, index: Int) in request(client, index).path }
        service.want([request(keeping, 0)], for: keeping)
        // Started before the other list comes, which would otherwise take both workers.
        eventually { held.started == [name(keeping, 0)] }
        service.want([request(lettingGo, 1), request(lettingGo, 2)], for: lettingGo)
        eventually { Set(held.started) == [name(keeping, 0), name(lettingGo, 1)] }
        service.want([], for: lettingGo)
        #expect(Self.outputs(of: service, for: lettingGo, count: 1) == ["cancelled \(name(lettingGo, 1))"])
        #expect(service.takeResults(for: keeping).isEmpty, "the other client's decode still runs")
        held.release(1)
        #expect(Self.outputs(of: service, for: keeping, count: 1) == ["done \(name(keeping, 0))"])
        service.waitUntilIdle()
        #expect(!held.started.contains(name(lettingGo, 2)), "the pending request let go of was dropped")
    }

    @Test("A running decode two clients want is cancelled only once neither wants it")
    func sharedRunningDecodeCancelledWhenBothLetGo() {
        let held = Held()
        let service = DecodeService<String>(workers: 1, clock: { MonotonicClock().now() }, decode: { held.decode($0, $1) }, onResult: {})
        defer { service.shutdown() }
        let shared = DecodeRequest(photo: PhotoID(9), path: "both", job: .openTiles)
        service.want([shared], for: .pager)
        service.want([shared], for: .grid)
        eventually { held.started == ["both"] }
        service.want([], for: .grid)
        // Still running for the pager: no result yet, to anyone.
        Thread.sleep(forTimeInterval: 0.02)
        #expect(service.takeResults(for: .pager).isEmpty && service.takeResults(for: .grid).isEmpty)
        service.want([], for: .pager)
        // Both asked for it while it ran, so both hear that it was given up (and may ask again).
        #expect(Self.outputs(of: service, for: .pager, count: 1) == ["cancelled both"])
        #expect(Self.outputs(of: service, for: .grid, count: 1) == ["cancelled both"])
    }
}
