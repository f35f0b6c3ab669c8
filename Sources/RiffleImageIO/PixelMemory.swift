import CRiffleImaging

/// How the process allocates pixel memory.
public enum PixelMemory {
    /// Buffers of this size or more get their own mapping, returned to the system when freed:
    /// 256 KiB, below a stored x-large thumbnail (512×341, 682 KiB), a Lanczos ring (16 rows of
    /// a 1080p fit's floats, 405 KiB) and a JPEG band's rows, which at 1 MiB came from the heap
    /// of whichever thread decoded them and stayed there: paging 30 and 300 photos at 1080p
    /// peaked at 97 and 106 MiB, and 91 and 90 MiB at 256 KiB (`make bench BENCH=paging`).
    public static let ownMappingThreshold = 256 << 10

    /// Makes freed photo buffers leave the process instead of staying in the heap (see
    /// `rfi_set_mmap_threshold`); call once at start-up, before the first decode.
    public static func returnLargeBuffersToTheSystem() {
        _ = rfi_set_mmap_threshold(ownMappingThreshold)
    }
}
