/// Porter-Duff source-over on premultiplied BGRA pixels and related per-pixel arithmetic.
///
/// Channels are processed two at a time in the 0x00FF00FF lanes of a UInt32 (the classic
/// SWAR trick): (x · a + 128 + ((x · a + 128) >> 8)) >> 8 is the exact rounded x · a / 255.
enum PixelBlend {
    /// Each channel of `p` times `a`/255, rounded to nearest.
    @inline(__always)
    static func scale(_ p: UInt32, by a: UInt32) -> UInt32 {
        var rb = (p & 0x00FF_00FF) &* a &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((p >> 8) & 0x00FF_00FF) &* a &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    /// src over dst: src + dst · (255 − src.alpha)/255.
    @inline(__always)
    static func over(_ src: UInt32, _ dst: UInt32) -> UInt32 {
        let a = src >> 24
        if a == 255 { return src }
        if a == 0 && src == 0 { return dst }
        return src &+ scale(dst, by: 255 - a)
    }
}
