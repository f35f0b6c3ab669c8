/* Fonts: fontconfig finds the file, FreeType renders anti-aliased glyphs. */
#include "internal.h"

#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rfi_font {
    FT_Library library;
    FT_Face face;
    /* The last glyph's coverage, normalised to 8 bits a pixel, top row first. */
    uint8_t *scratch;
    size_t scratch_capacity;
};

/* FreeType's error texts by code, built the way fterrors.h documents: FT_Error_String returns
 * NULL unless FreeType was built with FT_CONFIG_OPTION_ERROR_STRINGS, which Debian's is not, and
 * "FreeType error 2" tells a person nothing. */
#undef FTERRORS_H_
#define FT_ERRORDEF(e, v, s) {e, s},
#define FT_ERROR_START_LIST {
#define FT_ERROR_END_LIST {0, NULL}};
static const struct {
    int code;
    const char *text;
} rfi_freetype_errors[] =
#include FT_ERRORS_H

static const char *rfi_freetype_error_text(FT_Error code) {
    const char *text = FT_Error_String(code);
    for (size_t i = 0; text == NULL && rfi_freetype_errors[i].text != NULL; i++) {
        if (rfi_freetype_errors[i].code == code) text = rfi_freetype_errors[i].text;
    }
    return text;
}

static void rfi_font_set_freetype_message(char *message, size_t message_capacity,
                                          const char *what, FT_Error code) {
    char text[RFI_MESSAGE_CAPACITY];
    const char *reason = rfi_freetype_error_text(code);
    if (reason != NULL) {
        snprintf(text, sizeof text, "%s: %s", what, reason);
    } else {
        snprintf(text, sizeof text, "%s: FreeType error %d", what, code);
    }
    rfi_set_message(message, message_capacity, text);
}

/* fontconfig's best match for the family and weight: its file path (malloc'ed) and face index. */
static char *rfi_font_match(const char *family, int32_t bold, int *face_index) {
    FcPattern *pattern = FcPatternCreate();
    if (pattern == NULL) return NULL;
    FcPatternAddString(pattern, FC_FAMILY, (const FcChar8 *)family);
    FcPatternAddInteger(pattern, FC_WEIGHT, bold ? FC_WEIGHT_BOLD : FC_WEIGHT_REGULAR);
    FcPatternAddBool(pattern, FC_SCALABLE, FcTrue);
    FcConfigSubstitute(NULL, pattern, FcMatchPattern);
    FcDefaultSubstitute(pattern);
    FcResult result = FcResultNoMatch;
    FcPattern *match = FcFontMatch(NULL, pattern, &result);
    FcPatternDestroy(pattern);
    if (match == NULL) return NULL;
    char *path = NULL;
    FcChar8 *file = NULL;
    if (FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch && file != NULL) {
        path = strdup((const char *)file);
        if (FcPatternGetInteger(match, FC_INDEX, 0, face_index) != FcResultMatch) *face_index = 0;
    }
    FcPatternDestroy(match);
    return path;
}

rfi_status rfi_font_open(const char *family, int32_t bold, rfi_font **font, char *message,
                         size_t message_capacity) {
    *font = NULL;
    rfi_set_message(message, message_capacity, "");
    int face_index = 0;
    char *path = rfi_font_match(family, bold, &face_index);
    if (path == NULL) {
        char text[RFI_MESSAGE_CAPACITY];
        snprintf(text, sizeof text, "fontconfig found no font for \"%s\"", family);
        rfi_set_message(message, message_capacity, text);
        return RFI_STATUS_FAILED;
    }
    rfi_font *opened = calloc(1, sizeof *opened);
    if (opened == NULL) {
        free(path);
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    FT_Error code = FT_Init_FreeType(&opened->library);
    if (code != 0) {
        free(path);
        free(opened);
        rfi_font_set_freetype_message(message, message_capacity, "cannot start FreeType", code);
        return RFI_STATUS_FAILED;
    }
    code = FT_New_Face(opened->library, path, face_index, &opened->face);
    if (code != 0) {
        char what[RFI_MESSAGE_CAPACITY];
        snprintf(what, sizeof what, "cannot open %s", path);
        rfi_font_set_freetype_message(message, message_capacity, what, code);
        free(path);
        FT_Done_FreeType(opened->library);
        free(opened);
        return RFI_STATUS_FAILED;
    }
    free(path);
    FT_Select_Charmap(opened->face, FT_ENCODING_UNICODE);
    *font = opened;
    return RFI_STATUS_OK;
}

void rfi_font_close(rfi_font *font) {
    if (font == NULL) return;
    FT_Done_Face(font->face);
    FT_Done_FreeType(font->library);
    free(font->scratch);
    free(font);
}

rfi_status rfi_font_set_pixel_height(rfi_font *font, int32_t pixel_height,
                                     rfi_font_metrics *metrics, char *message,
                                     size_t message_capacity) {
    memset(metrics, 0, sizeof *metrics);
    FT_Error code = FT_Set_Pixel_Sizes(font->face, 0, (FT_UInt)(pixel_height > 0 ? pixel_height : 1));
    if (code != 0) {
        rfi_font_set_freetype_message(message, message_capacity, "cannot set the size", code);
        return RFI_STATUS_FAILED;
    }
    metrics->ascender_64ths = (int32_t)font->face->size->metrics.ascender;
    metrics->descender_64ths = (int32_t)font->face->size->metrics.descender;
    return RFI_STATUS_OK;
}

static FT_UInt rfi_font_glyph_index(FT_Face face, uint32_t codepoint) {
    FT_UInt index = FT_Get_Char_Index(face, codepoint);
    if (index == 0) index = FT_Get_Char_Index(face, 0xFFFD); /* REPLACEMENT CHARACTER */
    return index; /* 0 is .notdef */
}

rfi_status rfi_font_render_glyph(rfi_font *font, uint32_t codepoint, rfi_glyph *glyph,
                                 char *message, size_t message_capacity) {
    memset(glyph, 0, sizeof *glyph);
    FT_UInt index = rfi_font_glyph_index(font->face, codepoint);
    FT_Error code = FT_Load_Glyph(font->face, index, FT_LOAD_DEFAULT);
    if (code == 0) code = FT_Render_Glyph(font->face->glyph, FT_RENDER_MODE_NORMAL);
    if (code != 0) {
        rfi_font_set_freetype_message(message, message_capacity, "cannot render a glyph", code);
        return RFI_STATUS_FAILED;
    }
    FT_GlyphSlot slot = font->face->glyph;
    FT_Bitmap *bitmap = &slot->bitmap;
    size_t width = bitmap->width, height = bitmap->rows;
    if (width * height > font->scratch_capacity) {
        uint8_t *grown = realloc(font->scratch, width * height);
        if (grown == NULL) {
            rfi_set_message(message, message_capacity, "out of memory");
            return RFI_STATUS_OUT_OF_MEMORY;
        }
        font->scratch = grown;
        font->scratch_capacity = width * height;
    }
    /* A negative pitch means rows are stored bottom-up; `pitch` always steps one row down. */
    const uint8_t *top = bitmap->buffer;
    if (bitmap->pitch < 0 && height > 0) top -= (ptrdiff_t)bitmap->pitch * (ptrdiff_t)(height - 1);
    for (size_t y = 0; y < height; y++) {
        const uint8_t *source = top + (ptrdiff_t)bitmap->pitch * (ptrdiff_t)y;
        uint8_t *target = font->scratch + y * width;
        if (bitmap->pixel_mode == FT_PIXEL_MODE_MONO) {
            for (size_t x = 0; x < width; x++) {
                target[x] = (source[x / 8] & (0x80 >> (x % 8))) ? 255 : 0;
            }
        } else if (bitmap->pixel_mode == FT_PIXEL_MODE_GRAY && bitmap->num_grays == 256) {
            memcpy(target, source, width);
        } else {
            rfi_set_message(message, message_capacity, "unsupported glyph bitmap format");
            return RFI_STATUS_FAILED;
        }
    }
    glyph->glyph_index = index;
    glyph->coverage = font->scratch;
    glyph->width = (int32_t)width;
    glyph->height = (int32_t)height;
    glyph->left = slot->bitmap_left;
    glyph->top = slot->bitmap_top;
    glyph->advance_64ths = (int32_t)slot->advance.x;
    return RFI_STATUS_OK;
}

int32_t rfi_font_kerning(rfi_font *font, uint32_t left_glyph_index, uint32_t right_glyph_index) {
    if (!FT_HAS_KERNING(font->face)) return 0;
    FT_Vector delta = {0, 0};
    if (FT_Get_Kerning(font->face, left_glyph_index, right_glyph_index, FT_KERNING_DEFAULT,
                       &delta) != 0) {
        return 0;
    }
    return (int32_t)delta.x;
}

int32_t rfi_font_has_kerning(const rfi_font *font) { return FT_HAS_KERNING(font->face) ? 1 : 0; }
