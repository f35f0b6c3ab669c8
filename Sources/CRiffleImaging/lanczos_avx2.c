/* The two inner loops of RiffleRaster's LanczosResampler (LanczosResample.swift) in AVX2, giving
 * the same floats and the same pixels, bit for bit.
 *
 * Why: a 24 MP photo's fit at 1080p spends about a third of its one-core decode in the
 * resampler (`riffle-bench decode`: 36 ms of 113). Swift builds for the x86-64 baseline, whose
 * 128-bit SSE holds one pixel's four channels: a tap across costs a shuffle (to spread its
 * weight over the channels), a multiply and an add, and four sums a pixel wait on the adder's
 * latency. Here a 256-bit register holds two taps' pixels, their weights are spread over the
 * channels by one in-lane permute, and four outputs are summed at once; down, a register holds
 * two pixels and eight are summed at once. The resampler alone (`riffle-bench decode`, one
 * core): 38 ms in Swift, 20 ms here.
 *
 * The same numbers: every sum adds the same products in the same order as the Swift loops, and
 * each product and sum is one IEEE single-precision operation (no fused multiply-add: the
 * functions are built for AVX2 alone, so the compiler cannot contract them). So
 *
 *   across, output x with groups g of four taps from source pixel first[x]:
 *       s_j = Σ_g src[first + 4g + j] · w[x][4g + j]   (g in order, j = 0..3, one vector lane
 *                                                       per channel)
 *       out[x] = (s_0 + s_1) + (s_2 + s_3)
 *   here s_0 and s_1 are the low and high halves of one register fed taps (4g, 4g + 1), s_2 and
 *   s_3 of another fed (4g + 2, 4g + 3); a group's weights come laid out for that (below);
 *
 *   down, output pixel x: sum = Σ_k row_k[x] · w_k (k in order), then clamped to [0, 255], its
 *   colours to at most its alpha, and rounded to the nearest integer, ties to even (the Swift
 *   code adds 1.5·2²³; cvtps2dq in the default rounding mode gives the same integer).
 *
 * `LanczosAVX2Tests` compares both with the Swift loops (`LanczosKernels.reference`), float for
 * float and pixel for pixel. */
#include "CRiffleImaging.h"

#include <immintrin.h>
#include <pthread.h>

static int rfi_lanczos_cpu_has_avx2;
static pthread_once_t rfi_lanczos_once = PTHREAD_ONCE_INIT;

static void rfi_lanczos_setup(void) {
    __builtin_cpu_init();
    rfi_lanczos_cpu_has_avx2 = __builtin_cpu_supports("avx2");
}

int32_t rfi_lanczos_avx2_available(void) {
    pthread_once(&rfi_lanczos_once, rfi_lanczos_setup);
    return rfi_lanczos_cpu_has_avx2;
}

#define RFI_AVX2 __attribute__((target("avx2")))

/* Output x across from its groups' weights, each laid out (w0, w2, w0, w2 | w1, w3, w1, w3):
 * one in-lane permute gives (w0 ×4 | w1 ×4), another (w2 ×4 | w3 ×4). */
RFI_AVX2 static inline __m128 rfi_lanczos_across_one(const float *source, const float *weights, ptrdiff_t groups) {
    __m256 a = _mm256_setzero_ps(), b = _mm256_setzero_ps();
    for (ptrdiff_t g = 0; g < groups; g++) {
        __m256 w = _mm256_loadu_ps(weights + 8 * g);
        a = _mm256_add_ps(a, _mm256_mul_ps(_mm256_loadu_ps(source + 16 * g), _mm256_permute_ps(w, 0x00)));
        b = _mm256_add_ps(b, _mm256_mul_ps(_mm256_loadu_ps(source + 16 * g + 8), _mm256_permute_ps(w, 0x55)));
    }
    __m128 s01 = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    __m128 s23 = _mm_add_ps(_mm256_castps256_ps128(b), _mm256_extractf128_ps(b, 1));
    return _mm_add_ps(s01, s23);
}

RFI_AVX2 void rfi_lanczos_across_avx2(
    const uint32_t *row, ptrdiff_t source_width, float *source, const ptrdiff_t *firsts, const float *weights,
    ptrdiff_t groups, ptrdiff_t width, float *out) {
    /* The row as floats, one pixel's four channels in a row, two pixels at a time. */
    ptrdiff_t x = 0;
    for (; x + 2 <= source_width; x += 2) {
        __m128i bytes = _mm_loadl_epi64((const __m128i *)(row + x));
        _mm256_storeu_ps(source + 4 * x, _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes)));
    }
    for (; x < source_width; x++) {
        __m128i bytes = _mm_cvtsi32_si128((int)row[x]);
        _mm_storeu_ps(source + 4 * x, _mm_cvtepi32_ps(_mm_cvtepu8_epi32(bytes)));
    }
    /* Four outputs at a time, so that eight sums are under way while each waits on its adds. */
    x = 0;
    for (; x + 4 <= width; x += 4) {
        const float *p[4], *w[4];
        __m256 a[4], b[4];
        for (int i = 0; i < 4; i++) {
            p[i] = source + 4 * firsts[x + i];
            w[i] = weights + 8 * groups * (x + i);
            a[i] = _mm256_setzero_ps();
            b[i] = _mm256_setzero_ps();
        }
        for (ptrdiff_t g = 0; g < groups; g++) {
            for (int i = 0; i < 4; i++) {
                __m256 wg = _mm256_loadu_ps(w[i] + 8 * g);
                a[i] = _mm256_add_ps(a[i], _mm256_mul_ps(_mm256_loadu_ps(p[i] + 16 * g), _mm256_permute_ps(wg, 0x00)));
                b[i] = _mm256_add_ps(b[i], _mm256_mul_ps(_mm256_loadu_ps(p[i] + 16 * g + 8), _mm256_permute_ps(wg, 0x55)));
            }
        }
        for (int i = 0; i < 4; i++) {
            __m128 s01 = _mm_add_ps(_mm256_castps256_ps128(a[i]), _mm256_extractf128_ps(a[i], 1));
            __m128 s23 = _mm_add_ps(_mm256_castps256_ps128(b[i]), _mm256_extractf128_ps(b[i], 1));
            _mm_storeu_ps(out + 4 * (x + i), _mm_add_ps(s01, s23));
        }
    }
    for (; x < width; x++) {
        _mm_storeu_ps(out + 4 * x, rfi_lanczos_across_one(source + 4 * firsts[x], weights + 8 * groups * x, groups));
    }
}

/* Two pixels' sums clamped to [0, 255], colours to at most alpha, rounded to integers. */
RFI_AVX2 static inline __m256i rfi_lanczos_round(__m256 sum) {
    __m256 v = _mm256_min_ps(_mm256_max_ps(sum, _mm256_setzero_ps()), _mm256_set1_ps(255.0f));
    v = _mm256_min_ps(v, _mm256_permute_ps(v, 0xFF));
    return _mm256_cvtps_epi32(v);
}

RFI_AVX2 void rfi_lanczos_down_avx2(
    const float *const *rows, const float *weights, ptrdiff_t taps, ptrdiff_t width, uint32_t *out) {
    /* Eight pixels (four registers of two) at a time, each sum over the taps in order. */
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    ptrdiff_t x = 0;
    for (; x + 8 <= width; x += 8) {
        __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
        for (ptrdiff_t k = 0; k < taps; k++) {
            const float *r = rows[k] + 4 * x;
            __m256 w = _mm256_broadcast_ss(weights + k);
            s0 = _mm256_add_ps(s0, _mm256_mul_ps(_mm256_loadu_ps(r), w));
            s1 = _mm256_add_ps(s1, _mm256_mul_ps(_mm256_loadu_ps(r + 8), w));
            s2 = _mm256_add_ps(s2, _mm256_mul_ps(_mm256_loadu_ps(r + 16), w));
            s3 = _mm256_add_ps(s3, _mm256_mul_ps(_mm256_loadu_ps(r + 24), w));
        }
        /* Lanes of (0 1), (2 3), (4 5), (6 7) packed to bytes in-lane give 0 2 4 6 | 1 3 5 7. */
        __m256i p01 = _mm256_packus_epi32(rfi_lanczos_round(s0), rfi_lanczos_round(s1));
        __m256i p23 = _mm256_packus_epi32(rfi_lanczos_round(s2), rfi_lanczos_round(s3));
        __m256i bytes = _mm256_packus_epi16(p01, p23);
        _mm256_storeu_si256((__m256i *)(out + x), _mm256_permutevar8x32_epi32(bytes, order));
    }
    for (; x < width; x++) {
        __m128 sum = _mm_setzero_ps();
        for (ptrdiff_t k = 0; k < taps; k++) sum = _mm_add_ps(sum, _mm_mul_ps(_mm_loadu_ps(rows[k] + 4 * x), _mm_set1_ps(weights[k])));
        __m128 v = _mm_min_ps(_mm_max_ps(sum, _mm_setzero_ps()), _mm_set1_ps(255.0f));
        v = _mm_min_ps(v, _mm_shuffle_ps(v, v, 0xFF));
        __m128i c = _mm_cvtps_epi32(v);
        c = _mm_packus_epi32(c, c);
        out[x] = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(c, c));
    }
}
