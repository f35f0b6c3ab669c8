import RiffleX11
import Testing

/// INCR's chunks: in order, at most the chunk size, then one empty chunk, then nothing.
struct IncrementalTransferTests {
    @Test(arguments: [(10, 3), (9, 3), (1, 4), (0, 4), (5, 5)])
    func chunksCoverTheBytesThenEnd(count: Int, chunkSize: Int) {
        let bytes = (0..<count).map { UInt8($0) }
        var transfer = IncrementalTransfer(type: "image/png", bytes: bytes, chunkSize: chunkSize)
        var chunks: [[UInt8]] = []
        while let chunk = transfer.nextChunk() { chunks.append(Array(chunk)) }
        #expect(chunks.last == [])
        #expect(chunks.dropLast().allSatisfy { !$0.isEmpty && $0.count <= chunkSize })
        #expect(chunks.count == (count + chunkSize - 1) / chunkSize + 1)
        #expect(chunks.flatMap { $0 } == bytes)
        #expect(transfer.nextChunk() == nil)
    }

    @Test func onlyRepliesOverTheRequestLimitNeedINCR() {
        #expect(!IncrementalTransfer.isNeeded(byteCount: 1000, maxPropertyBytes: 1000))
        #expect(IncrementalTransfer.isNeeded(byteCount: 1001, maxPropertyBytes: 1000))
    }
}
