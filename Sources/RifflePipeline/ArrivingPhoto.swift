import RiffleGeometry
import RiffleImageIO

/// How the pager shows a photo whose file is still being written (`Photo.isArriving`: a camera
/// card being copied into a watched folder).
///
/// The rule: while the file grows, nothing about it is called broken. What has arrived shows,
/// the part still to come left as the page's background (a truncated file's missing rows
/// decode grey, which would read as part of the picture), with a badge saying it is still
/// arriving; a file that cannot be decoded yet (its header not all there, or growing during
/// every read) says it is still arriving instead of showing an error page. Each write the
/// live folders report decodes it again, and its close decodes it whole. Once closed, what it
/// holds is final: a file that stays truncated shows its missing part grey with the badge of
/// an incomplete file, and one that is no image shows its error page, as any file does.
extension DecodedPhoto {
    /// The part of the upright picture, in full-resolution pixels (`fullSize`), that the
    /// file's data reached: all of it but the band `ImageDamage.MissingPart` names
    /// (for the bottom: 0 ≤ y < height × (1 − share)); the whole picture when nothing is
    /// missing or the loss is spread over all of it (a progressive JPEG).
    package var arrivedPart: Rect {
        let whole = Rect(origin: .zero, size: Size(fullSize))
        guard case .truncated(let missing?) = damage else { return whole }
        let w = whole.width, h = whole.height, kept = 1 - missing.share
        switch missing.side {
        case .bottom: return Rect(x: 0, y: 0, width: w, height: h * kept)
        case .top: return Rect(x: 0, y: h * missing.share, width: w, height: h * kept)
        case .right: return Rect(x: 0, y: 0, width: w * kept, height: h)
        case .left: return Rect(x: w * missing.share, y: 0, width: w * kept, height: h)
        }
    }

    /// The badge of a photo still arriving whose decode is incomplete, e.g. "Still arriving:
    /// the bottom 40% is yet to come"; nil for a clean decode (all of it is here, though the
    /// file is still open).
    package var arrivingText: String? {
        switch damage {
        case nil:
            return nil
        case .truncated(let missing?):
            return "Still arriving: the \(missing.wording.side) \(missing.wording.percent)% is yet to come"
        case .truncated(nil), .damagedData:
            return Self.stillArriving
        }
    }

    /// The badge of a photo still arriving without a better account of what is missing.
    static let stillArriving = "Still arriving"

    /// The words of the page of a photo still arriving that cannot be decoded yet.
    package static let arrivingDetail = "Still arriving: the file is being written, and shows as soon as enough of it is here"
}
