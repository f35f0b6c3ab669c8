import CRiffleImaging
import RiffleRaster

extension LanczosKernels {
    /// The resampler's loops in AVX2 on a CPU that has it (`lanczos_avx2.c`: the same bits as
    /// the Swift loops, in about 0.55 of their time), else the Swift loops. What every decode
    /// that shrinks with Lanczos-3 uses.
    package static let fastest: LanczosKernels = rfi_lanczos_avx2_available() != 0 ? avx2 : .reference

    /// The AVX2 loops, only where `rfi_lanczos_avx2_available()`.
    package static let avx2 = LanczosKernels(across: rfi_lanczos_across_avx2, down: rfi_lanczos_down_avx2)
}
