import CRiffleImaging

/// How the process allocates pixel memory.
public enum PixelMemory {
    /// Buffers of this size or more get their own mapping, returned to the system when freed.
    public static let ownMappingThreshold = 1 << 20

    /// Makes freed photo buffers leave the process instead of staying in the heap (see
    /// `rfi_set_mmap_threshold`); call once at start-up, before the first decode.
    public static func returnLargeBuffersToTheSystem() {
        _ = rfi_set_mmap_threshold(ownMappingThreshold)
    }
}
