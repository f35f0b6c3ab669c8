/// One ordering of photos, and each photo's place in it found by its identity.
///
/// Invariant: no `PhotoID` appears twice. The grid and the pager show an ordering; the stores
/// hold what they have of a photo by its `PhotoID` and ask an ordering only where a place
/// matters (the neighbours of the photo in focus, the cells ahead of the scroll).
package struct PhotoOrder: Sendable {
    /// The photos, in order.
    package let photos: [Photo]
    /// Each photo's index in `photos`.
    private let places: [PhotoID: Int]

    package init(_ photos: [Photo]) {
        self.photos = photos
        places = Dictionary(photos.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    /// The place of photo `id` in the order, nil when it is not in it.
    package func index(of id: PhotoID) -> Int? { places[id] }

    /// True when photo `id` is in the order.
    package func contains(_ id: PhotoID) -> Bool { places[id] != nil }

    /// The photo at place `index`, nil outside the order.
    package func photo(at index: Int) -> Photo? { photos.indices.contains(index) ? photos[index] : nil }

    /// The photo `id` as this order has it (its path now), nil when it is not in it.
    package func photo(_ id: PhotoID) -> Photo? { places[id].map { photos[$0] } }
}
