import RiffleGeometry

/// The decoded photos around the current one, and the decode work that brings them in.
///
/// Holds content only for photos within `radius` of the focus: memory stays bounded whatever the
/// library's size. Asks the decode service for what is missing, current photo first, then the
/// neighbours in the direction of travel first.
final class PhotoStore {
    /// How many photos on each side of the current one are kept decoded.
    static let radius = 2

    private struct Entry {
        var content: PhotoContent
        /// The request the content was decoded for.
        var request: DecodeRequest
    }

    let photos: [Photo]
    private let service: DecodeService<PhotoContent>
    private var entries: [Int: Entry] = [:]
    private var focus = 0
    private var viewport = PixelSize.zero
    private var direction = 0
    /// The zoom (relative to fit) the focused photo is shown at, for a sharper decode.
    private var detail = 1.0

    init(photos: [Photo], service: DecodeService<PhotoContent>) {
        self.photos = photos
        self.service = service
    }

    /// What is known of photo `index`: nil while it decodes.
    func content(at index: Int) -> PhotoContent? { entries[index]?.content }

    /// Centres the store on `index` for `viewport`: forgets photos out of reach and asks for the
    /// decodes still needed. `direction` (−1, 0, 1) puts that side's neighbours first.
    func focus(on index: Int, viewport: PixelSize, direction: Int) {
        if index != focus { detail = 1 }
        focus = index
        self.viewport = viewport
        self.direction = direction
        entries = entries.filter { abs($0.key - index) <= Self.radius }
        var order = [index]
        let lead = direction < 0 ? -1 : 1
        for d in 1...Self.radius { order += [index + lead * d, index - lead * d] }
        let wanted = order.filter { photos.indices.contains($0) && !isSatisfied($0) }
        service.want(wanted.map {
            DecodeRequest(index: $0, path: photos[$0].path, viewport: viewport, detail: $0 == index ? detail : 1)
        })
    }

    /// The focused photo is shown `detail` times larger than at fit; asks for a sharper decode
    /// when the pixels held are coarser than that (up to the photo's full resolution).
    func showFocused(atDetail detail: Double) {
        guard abs(detail - self.detail) > 1e-6 else { return }
        self.detail = detail
        focus(on: focus, viewport: viewport, direction: direction)
    }

    /// Takes finished decodes into the store and returns, for each photo that changed, its
    /// full-resolution size (nil for a photo that failed).
    func absorbResults() -> [(index: Int, fullSize: PixelSize?)] {
        var changed: [(index: Int, fullSize: PixelSize?)] = []
        for result in service.takeResults() where abs(result.request.index - focus) <= Self.radius {
            entries[result.request.index] = Entry(content: result.output, request: result.request)
            if case .image(_, let fullSize, _) = result.output {
                changed.append((result.request.index, fullSize))
            } else {
                changed.append((result.request.index, nil))
            }
        }
        if !changed.isEmpty { focus(on: focus, viewport: viewport, direction: direction) }
        return changed
    }

    /// Blocks until every requested decode has finished (headless snapshots are deterministic).
    func waitForDecodes() { service.waitUntilIdle() }

    /// True when photo `index` needs no (sharper) decode for the current viewport and zoom: it
    /// failed, is at full resolution, or was decoded for a viewport at least as large and (the
    /// focused photo) at least the detail it is shown at.
    private func isSatisfied(_ index: Int) -> Bool {
        guard let entry = entries[index] else { return false }
        switch entry.content {
        case .failure:
            return true
        case .image(let pixels, let fullSize, _):
            if pixels.width >= fullSize.width && pixels.height >= fullSize.height { return true }
            let wantedDetail = index == focus ? detail : 1
            return entry.request.viewport.width >= viewport.width && entry.request.viewport.height >= viewport.height
                && entry.request.detail >= wantedDetail - 1e-6
        }
    }
}
