/// `jpeg` made `length` bytes long by a comment segment (COM, ITU-T T.81 B.2.4.5: the marker
/// FF FE, a two-byte length counting itself, then the comment's bytes) put right after its SOI:
/// the same picture, at any byte count from its own plus 4 on. Two pictures padded to one
/// length, written within one second, carry the same Freedesktop thumbnail stamp
/// (Thumb::MTime and Thumb::Size).
public func paddedJPEG(_ jpeg: [UInt8], to length: Int) -> [UInt8] {
    let text = length - jpeg.count - 4
    precondition(text >= 0 && text <= 0xFFFD, "a \(jpeg.count)-byte JPEG cannot be padded to \(length)")
    let segment: [UInt8] = [0xFF, 0xFE, UInt8((text + 2) >> 8), UInt8((text + 2) & 0xFF)] + Array(repeating: 0x20, count: text)
    return Array(jpeg[..<2]) + segment + Array(jpeg[2...])
}
