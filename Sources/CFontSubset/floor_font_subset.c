#include "floor_font_subset.h"

#include <harfbuzz/hb-subset.h>
#include <stdlib.h>
#include <string.h>

unsigned char *floor_font_subset(const char *path, unsigned int index, const uint32_t *codepoints, size_t count,
                                 size_t *length) {
    *length = 0;
    hb_blob_t *file = hb_blob_create_from_file_or_fail(path);
    if (file == NULL) {
        return NULL;
    }
    hb_face_t *face = hb_face_create(file, index);
    hb_blob_destroy(file);
    hb_subset_input_t *input = hb_subset_input_create_or_fail();
    if (input == NULL) {
        hb_face_destroy(face);
        return NULL;
    }
    hb_set_t *unicodes = hb_subset_input_unicode_set(input);
    for (size_t i = 0; i < count; i++) {
        hb_set_add(unicodes, codepoints[i]);
    }
    hb_face_t *subset = hb_subset_or_fail(face, input);
    hb_subset_input_destroy(input);
    hb_face_destroy(face);
    if (subset == NULL) {
        return NULL;
    }
    hb_blob_t *bytes = hb_face_reference_blob(subset);
    unsigned int size = 0;
    const char *data = hb_blob_get_data(bytes, &size);
    unsigned char *copy = size > 0 ? malloc(size) : NULL;
    if (copy != NULL) {
        memcpy(copy, data, size);
        *length = size;
    }
    hb_blob_destroy(bytes);
    hb_face_destroy(subset);
    return copy;
}
