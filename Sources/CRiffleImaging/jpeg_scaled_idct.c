/* The scaled inverse DCTs of a 5/8 decode (5×5 for full-resolution components, 10×10 for
 * chroma subsampled 2×2), in AVX2, bit for bit libjpeg-turbo's own.
 *
 * Why: a 5/8 decode (the fit of a 24 MP photo at 1080p) spends 40 % of its time in libjpeg's
 * jpeg_idct_10x10 and jpeg_idct_5x5, which libjpeg-turbo has in scalar C only (`perf record` of
 * `djpeg -scale 5/8`: 26.6 % and 14.6 %). Its 8×8 IDCT is SIMD, so a full-size decode is faster
 * than a 5/8 one. docs/jpeg-idct.md has the measurements.
 *
 * What: each of those IDCTs (Vollbeding's factorisations in IJG's jidctint.c, as libjpeg-turbo
 * ships it: https://github.com/libjpeg-turbo/libjpeg-turbo/blob/main/jidctint.c) is a column pass
 * and a row pass, and each pass is, in exact integer arithmetic, one linear form followed by one
 * arithmetic right shift: with in[] the pass's 8 inputs (dequantised coefficients for the
 * columns, the first pass's results for the rows),
 *
 *     pass 1:  ws[r]  = (Σₖ M[r][k]·in[k] + 2¹⁰) >> 11
 *     pass 2:  out[j] = limit[((Σₖ M[j][k]·ws[k] + 2¹⁷) >> 18) & 1023]
 *
 * with the same integer matrix M for both passes: the factorisation only ever adds, subtracts,
 * multiplies by its FIX() constants and shifts left, and its one intermediate right shift
 * (jpeg_idct_10x10's tmp22) is of a sum to which only multiples of 2¹¹ are added afterwards, so
 * it can move to the end. M is worked out once here by running the factorisation on unit
 * vectors (`rfi_idct10_linear`, `rfi_idct5_linear`); `limit` is libjpeg's range-limit table,
 * which is clamp(sign-extended 10-bit value + 128, 0, 255) (checked against the table itself
 * before use).
 *
 * Both passes then run as 16-bit multiply-adds (`vpmaddwd`), whose 32-bit sums are exact while
 * every input fits in 14 bits: |in| ≤ 8191 gives |Σ| ≤ Σₖ|M[j][k]|·8191 + 2¹⁷ < 2³¹ (checked
 * for M at set-up). Real photos stay far inside that (a pass's values are at most about 32× a
 * sample's distance from mid-grey); a block that does not (a hostile file, a 16-bit
 * quantisation table) is handed to libjpeg's own function, so the result is libjpeg's for every
 * input.
 *
 * The functions replace libjpeg's in `cinfo->idct->inverse_DCT[]` after jpeg_start_decompress,
 * only where libjpeg chose jpeg_idct_5x5 or jpeg_idct_10x10, only on a CPU with AVX2, and only
 * when the component's multiplier table is libjpeg-turbo's SIMD layout (16-bit, equal to the
 * quantisation table). Elsewhere nothing changes. */
#define JPEG_INTERNALS
#include "internal.h"

#include <stdint.h>
#include <stdio.h> /* before jpeglib.h, which uses FILE */
#include <string.h>
#include <pthread.h>

#include <jpeglib.h>

/* libjpeg-turbo's scalar IDCTs (jdct.h, not installed; exported from libjpeg.so.62). */
extern void jpeg_idct_5x5(j_decompress_ptr cinfo, jpeg_component_info *compptr, JCOEFPTR coef_block,
                          JSAMPARRAY output_buf, JDIMENSION output_col);
extern void jpeg_idct_10x10(j_decompress_ptr cinfo, jpeg_component_info *compptr, JCOEFPTR coef_block,
                            JSAMPARRAY output_buf, JDIMENSION output_col);

#if defined(__x86_64__)

#include <immintrin.h>

/* FIX(x) of jidctint.c: x in 13-bit fixed point, rounded. */
#define RFI_FIX(x) ((int64_t)((x) * 8192.0 + 0.5))

/* jpeg_idct_10x10's 10-point pass as one linear form: out[j] = Σₖ M[j][k]·in[k] + bias before
 * the pass's shift (in[0] enters as in[0]·2¹³ + bias, which is how both passes add their
 * rounding). Each output is the factorisation's sum, the odd part's early shift folded in; its
 * left shifts are written as products (a negative value's left shift is undefined in C). */
static void rfi_idct10_linear(const int64_t in[8], int64_t bias, int64_t out[10]) {
    const int64_t dc = in[0] * 8192 + bias;
    const int64_t c4 = in[4] * RFI_FIX(1.144122806), c8 = in[4] * RFI_FIX(0.437016024);
    const int64_t even0 = dc + c4, even1 = dc - c8, even2 = dc - (c4 - c8) * 2;
    const int64_t c6 = (in[2] + in[6]) * RFI_FIX(0.831253876);
    const int64_t a = c6 + in[2] * RFI_FIX(0.513743148), b = c6 - in[6] * RFI_FIX(2.176250899);
    const int64_t t20 = even0 + a, t24 = even0 - a, t21 = even1 + b, t23 = even1 - b;

    const int64_t sum37 = in[3] + in[7], difference37 = in[3] - in[7];
    const int64_t half = difference37 * RFI_FIX(0.309016994);
    const int64_t five = in[5] * 8192;
    int64_t z2 = sum37 * RFI_FIX(0.951056516), z4 = five + half;
    const int64_t t10 = in[1] * RFI_FIX(1.396802247) + z2 + z4;
    const int64_t t14 = in[1] * RFI_FIX(0.221231742) - z2 + z4;
    z2 = sum37 * RFI_FIX(0.587785252);
    z4 = five - half - difference37 * 4096;
    const int64_t t12 = (in[1] - difference37 - in[5]) * 8192;
    const int64_t t11 = in[1] * RFI_FIX(1.260073511) - z2 - z4;
    const int64_t t13 = in[1] * RFI_FIX(0.642039522) - z2 + z4;

    out[0] = t20 + t10, out[9] = t20 - t10;
    out[1] = t21 + t11, out[8] = t21 - t11;
    out[2] = even2 + t12, out[7] = even2 - t12;
    out[3] = t23 + t13, out[6] = t23 - t13;
    out[4] = t24 + t14, out[5] = t24 - t14;
}

/* jpeg_idct_5x5's 5-point pass as one linear form, as rfi_idct10_linear (in[5..7] unused). */
static void rfi_idct5_linear(const int64_t in[8], int64_t bias, int64_t out[5]) {
    int64_t dc = in[0] * 8192 + bias;
    const int64_t z1 = (in[2] + in[4]) * RFI_FIX(0.790569415), z2 = (in[2] - in[4]) * RFI_FIX(0.353553391);
    const int64_t t10 = dc + z2 + z1, t11 = dc + z2 - z1;
    dc -= z2 * 4;
    const int64_t c3 = (in[1] + in[3]) * RFI_FIX(0.831253876);
    const int64_t t0 = c3 + in[1] * RFI_FIX(0.513743148), t1 = c3 - in[3] * RFI_FIX(2.176250899);
    out[0] = t10 + t0, out[4] = t10 - t0;
    out[1] = t11 + t1, out[3] = t11 - t1;
    out[2] = dc;
}

/* The largest input magnitude the 16-bit multiply-adds take (14 bits). */
enum { rfi_idct_input_limit = 8191 };

/* One size's IDCT prepared for the multiply-adds. */
struct rfi_vector_idct {
    int size; /* 5 or 10 outputs a side */
    /* Pass 1, output row r: the pair (M[r][2p], M[r][2p+1]) as one 32-bit lane, for vpmaddwd
     * against columns' interleaved coefficient pairs. */
    int32_t column_pairs[10][4];
    /* Pass 2: for pair p, outputs j = 0..7 (and 8, 9 in `row_pairs_high`) in 16-bit pairs. */
    __m256i row_pairs[4];
    __m256i row_pairs_high[4];
    int32_t rounding1[10]; /* the pass-1 bias of each output row: 2¹⁰ */
    __m256i rounding2, rounding2_high; /* the pass-2 bias of each output: 2¹⁷ */
    int usable;
};

static struct rfi_vector_idct rfi_idct5, rfi_idct10;
static pthread_once_t rfi_vector_idct_once = PTHREAD_ONCE_INIT;
static int rfi_cpu_has_avx2;

/* Works out M, the biases and their bounds for one size; `usable` stays 0 if a weight does not
 * fit 16 bits or a sum could leave 32. */
static void rfi_vector_idct_prepare(struct rfi_vector_idct *idct, int size,
                                    void (*linear)(const int64_t *, int64_t, int64_t *)) {
    int64_t matrix[10][8], zero[8] = {0}, unit[8], out[10], bias1[10], bias2[10];
    idct->size = size;
    for (int k = 0; k < 8; k++) {
        memset(unit, 0, sizeof unit);
        unit[k] = 1;
        linear(unit, 0, out);
        for (int j = 0; j < size; j++) matrix[j][k] = out[j];
    }
    linear(zero, 1 << 10, bias1);
    linear(zero, 1 << 17, bias2);
    int16_t low[4][16], high[4][16];
    memset(low, 0, sizeof low);
    memset(high, 0, sizeof high);
    for (int j = 0; j < size; j++) {
        int64_t reach = 0;
        for (int k = 0; k < 8; k++) {
            if (matrix[j][k] < INT16_MIN || matrix[j][k] > INT16_MAX) return;
            reach += (matrix[j][k] < 0 ? -matrix[j][k] : matrix[j][k]) * rfi_idct_input_limit;
        }
        if (reach + bias2[j] >= INT32_MAX || bias1[j] != 1 << 10 || bias2[j] != 1 << 17) return;
        for (int p = 0; p < 4; p++) {
            idct->column_pairs[j][p] = (int32_t)((uint32_t)(uint16_t)matrix[j][2 * p] |
                                                 (uint32_t)(uint16_t)matrix[j][2 * p + 1] << 16);
            int16_t *lanes = j < 8 ? low[p] : high[p];
            lanes[2 * (j % 8)] = (int16_t)matrix[j][2 * p];
            lanes[2 * (j % 8) + 1] = (int16_t)matrix[j][2 * p + 1];
        }
        idct->rounding1[j] = (int32_t)bias1[j];
    }
    for (int p = 0; p < 4; p++) {
        memcpy(&idct->row_pairs[p], low[p], sizeof low[p]);
        memcpy(&idct->row_pairs_high[p], high[p], sizeof high[p]);
    }
    int32_t rounding[16] = {0};
    for (int j = 0; j < size; j++) rounding[j] = (int32_t)bias2[j];
    memcpy(&idct->rounding2, rounding, 32);
    memcpy(&idct->rounding2_high, rounding + 8, 32);
    idct->usable = 1;
}

static void rfi_vector_idct_setup(void) {
    __builtin_cpu_init();
    rfi_cpu_has_avx2 = __builtin_cpu_supports("avx2");
    rfi_vector_idct_prepare(&rfi_idct5, 5, rfi_idct5_linear);
    rfi_vector_idct_prepare(&rfi_idct10, 10, rfi_idct10_linear);
}

#define RFI_AVX2 __attribute__((target("avx2")))

/* Dequantises coefficient rows 0..rows-1 (16-bit products, as libjpeg-turbo's DEQUANTIZE) and
 * interleaves them in pairs for pass 1: pairs[p] holds (row 2p, row 2p+1) for columns 0..7.
 * Returns 0 when a product the IDCT reads (columns 0..columns-1) is outside ±8191. */
RFI_AVX2 static int rfi_dequantise(const JCOEF *coefficients, const int16_t *multipliers, int rows, int columns,
                                   __m256i pairs[4]) {
    __m128i dequantised[8], outside = _mm_setzero_si128();
    for (int k = 0; k < rows; k++) {
        const __m128i c = _mm_loadu_si128((const __m128i *)(coefficients + 8 * k));
        const __m128i q = _mm_loadu_si128((const __m128i *)(multipliers + 8 * k));
        const __m128i low = _mm_mullo_epi16(c, q), high = _mm_mulhi_epi16(c, q);
        const __m128i sign = _mm_srai_epi16(low, 15);
        /* In range when the high half is the low half's sign and bits 13..15 of the low half are too. */
        outside = _mm_or_si128(outside, _mm_or_si128(_mm_xor_si128(high, sign), _mm_xor_si128(_mm_srai_epi16(low, 13), sign)));
        dequantised[k] = low;
    }
    for (int k = rows; k < 8; k++) dequantised[k] = _mm_setzero_si128();
    const __m128i wanted = _mm_cmplt_epi16(_mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7), _mm_set1_epi16((short)columns));
    if (!_mm_testz_si128(outside, wanted)) return 0;
    for (int p = 0; p < 4; p++) {
        const __m128i lowColumns = _mm_unpacklo_epi16(dequantised[2 * p], dequantised[2 * p + 1]);
        const __m128i highColumns = _mm_unpackhi_epi16(dequantised[2 * p], dequantised[2 * p + 1]);
        pairs[p] = _mm256_set_m128i(highColumns, lowColumns);
    }
    return 1;
}

/* Pass 1: workspace row r (16-bit, columns 0..7) for r < size. Returns 0 when a value pass 2
 * reads (columns 0..columns-1) is outside ±8191. */
RFI_AVX2 static int rfi_column_pass(const struct rfi_vector_idct *idct, const __m256i pairs[4], int pair_count,
                                    int columns, int16_t workspace[10][8]) {
    __m256i outside = _mm256_setzero_si256(), previous = _mm256_setzero_si256();
    for (int r = 0; r < idct->size; r++) {
        __m256i sum = _mm256_set1_epi32(idct->rounding1[r]);
        for (int p = 0; p < pair_count; p++)
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(pairs[p], _mm256_set1_epi32(idct->column_pairs[r][p])));
        const __m256i row = _mm256_srai_epi32(sum, 11);
        if (r % 2 == 0 && r + 1 < idct->size) {
            previous = row;
            continue;
        }
        /* Two rows (or the last one alone) to 16 bits, saturating: a saturated value is out of range too. */
        const __m256i packed = _mm256_permute4x64_epi64(
            _mm256_packs_epi32(r % 2 ? previous : row, r % 2 ? row : _mm256_setzero_si256()), 0xD8);
        const __m256i sign = _mm256_srai_epi16(packed, 15);
        outside = _mm256_or_si256(outside, _mm256_xor_si256(_mm256_srai_epi16(packed, 13), sign));
        _mm256_storeu_si256((__m256i *)workspace[r - r % 2], packed);
    }
    const __m128i columnMask = _mm_cmplt_epi16(_mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7), _mm_set1_epi16((short)columns));
    const __m256i wanted = _mm256_set_m128i(columnMask, columnMask);
    return _mm256_testz_si256(outside, wanted);
}

/* libjpeg's range limit of a pass-2 sum: ((sum >> 18) & 1023) sign-extended, plus 128; the
 * caller's unsigned saturation to 8 bits is the clamp to [0, 255]. */
RFI_AVX2 static inline __m256i rfi_range_limit(__m256i sum) {
    return _mm256_add_epi32(_mm256_srai_epi32(_mm256_slli_epi32(sum, 4), 22), _mm256_set1_epi32(128));
}

/* Pass 2 for workspace row r: its `size` samples written to out. */
RFI_AVX2 static void rfi_row_pass(const struct rfi_vector_idct *idct, const int16_t row[8], int pair_count, JSAMPROW out) {
    __m256i sum = idct->rounding2, sumHigh = idct->rounding2_high;
    for (int p = 0; p < pair_count; p++) {
        int32_t pair;
        memcpy(&pair, row + 2 * p, sizeof pair);
        const __m256i inputs = _mm256_set1_epi32(pair);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(inputs, idct->row_pairs[p]));
        if (idct->size > 8) sumHigh = _mm256_add_epi32(sumHigh, _mm256_madd_epi16(inputs, idct->row_pairs_high[p]));
    }
    const __m256i limited = rfi_range_limit(sum);
    const __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(limited), _mm256_extracti128_si256(limited, 1));
    if (idct->size > 8) {
        const __m256i limitedHigh = rfi_range_limit(sumHigh);
        const __m128i highWords = _mm_packs_epi32(_mm256_castsi256_si128(limitedHigh), _mm_setzero_si128());
        const __m128i bytes = _mm_packus_epi16(words, highWords);
        _mm_storel_epi64((__m128i *)out, bytes);
        const uint16_t last = (uint16_t)_mm_extract_epi16(bytes, 4);
        memcpy(out + 8, &last, 2);
    } else {
        const __m128i bytes = _mm_packus_epi16(words, words);
        const uint32_t first = (uint32_t)_mm_cvtsi128_si32(bytes);
        memcpy(out, &first, 4);
        out[4] = (JSAMPLE)_mm_extract_epi8(bytes, 4);
    }
}

/* One block through `idct`, whose passes read its first `inputs` coefficient rows and columns
 * (8 for the 10-point transform, 5 for the 5-point one); handed to libjpeg's `scalar` function
 * instead when a value is past the multiply-adds' range. */
RFI_AVX2 static inline void rfi_vector_idct_block(const struct rfi_vector_idct *idct, int inputs, inverse_DCT_method_ptr scalar,
                                                  j_decompress_ptr cinfo, jpeg_component_info *compptr, JCOEFPTR coef_block,
                                                  JSAMPARRAY output_buf, JDIMENSION output_col) {
    __m256i pairs[4];
    int16_t workspace[10][8];
    const int pair_count = (inputs + 1) / 2;
    if (!rfi_dequantise(coef_block, compptr->dct_table, inputs, inputs, pairs) ||
        !rfi_column_pass(idct, pairs, pair_count, inputs, workspace)) {
        scalar(cinfo, compptr, coef_block, output_buf, output_col);
        return;
    }
    for (int r = 0; r < idct->size; r++) rfi_row_pass(idct, workspace[r], pair_count, output_buf[r] + output_col);
}

RFI_AVX2 static void rfi_idct_10x10(j_decompress_ptr cinfo, jpeg_component_info *compptr, JCOEFPTR coef_block,
                                    JSAMPARRAY output_buf, JDIMENSION output_col) {
    rfi_vector_idct_block(&rfi_idct10, 8, jpeg_idct_10x10, cinfo, compptr, coef_block, output_buf, output_col);
}

RFI_AVX2 static void rfi_idct_5x5(j_decompress_ptr cinfo, jpeg_component_info *compptr, JCOEFPTR coef_block,
                                  JSAMPARRAY output_buf, JDIMENSION output_col) {
    rfi_vector_idct_block(&rfi_idct5, 5, jpeg_idct_5x5, cinfo, compptr, coef_block, output_buf, output_col);
}

/* libjpeg's post-IDCT range-limit table is clamp(sign-extended 10-bit index + 128, 0, 255). */
static int rfi_range_limit_is_standard(j_decompress_ptr cinfo) {
    const JSAMPLE *limit = cinfo->sample_range_limit + CENTERJSAMPLE;
    for (int v = 0; v < 1024; v++) {
        const int value = (v ^ 512) - 512 + 128;
        if (limit[v] != (value < 0 ? 0 : value > 255 ? 255 : value)) return 0;
    }
    return 1;
}

/* The component's multipliers are libjpeg-turbo's 16-bit ones, each its quantisation value. */
static int rfi_multipliers_are_16_bit(const jpeg_component_info *compptr) {
    const JQUANT_TBL *table = compptr->quant_table;
    const int16_t *multipliers = compptr->dct_table;
    if (table == NULL || multipliers == NULL) return 0;
    int odd = 0;
    for (int i = 0; i < DCTSIZE2; i++) {
        if (multipliers[i] != (int16_t)table->quantval[i]) return 0;
        odd |= i % 2 && table->quantval[i] != 0;
    }
    /* With 32-bit multipliers every odd 16-bit half would be 0: some odd value must not be. */
    return odd;
}

int32_t rfi_jpeg_use_vector_idct(j_decompress_ptr cinfo) {
    pthread_once(&rfi_vector_idct_once, rfi_vector_idct_setup);
    if (!rfi_cpu_has_avx2 || cinfo->data_precision != 8 ||
        cinfo->idct == NULL || !rfi_range_limit_is_standard(cinfo))
        return 0;
    int32_t replaced = 0;
    for (int ci = 0; ci < cinfo->num_components; ci++) {
        jpeg_component_info *compptr = &cinfo->comp_info[ci];
        inverse_DCT_method_ptr *method = &cinfo->idct->inverse_DCT[ci];
        if (!compptr->component_needed || !rfi_multipliers_are_16_bit(compptr)) continue;
        if (*method == jpeg_idct_5x5 && rfi_idct5.usable) *method = rfi_idct_5x5, replaced++;
        else if (*method == jpeg_idct_10x10 && rfi_idct10.usable) *method = rfi_idct_10x10, replaced++;
    }
    return replaced;
}

int32_t rfi_jpeg_vector_idct_available(void) {
    pthread_once(&rfi_vector_idct_once, rfi_vector_idct_setup);
    return rfi_cpu_has_avx2 && rfi_idct5.usable && rfi_idct10.usable;
}

#else

int32_t rfi_jpeg_use_vector_idct(j_decompress_ptr cinfo) {
    (void)cinfo;
    return 0;
}

int32_t rfi_jpeg_vector_idct_available(void) { return 0; }

#endif
