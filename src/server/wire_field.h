/* One length-delimited field read from a protobuf message's wire bytes (wire_field.c says why). */
#ifndef CUZK_SERVER_WIRE_FIELD_H
#define CUZK_SERVER_WIRE_FIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The bytes of the string, bytes or message field found by its field numbers from the top of
 * msg (path {1}: field 1; {1, 1}: field 1 of the message in field 1), the last occurrence as
 * protobuf's decoders take it. *out points into msg. False when the field is absent. */
bool cuzk_wire_field(const uint8_t *msg, size_t len, const unsigned *path, size_t depth, const uint8_t **out,
                     size_t *out_len);
/* The number of fields at the top of msg (every field, repeated ones once per occurrence), up
 * to limit + 1 (counting stops there); malformed framing ends the count (the decoder refuses). */
size_t cuzk_wire_count(const uint8_t *msg, size_t len, size_t limit);
/* The value of the varint field (an enum, an integer) at path, its last occurrence; false when
 * absent (the field's default, 0). Any message may be given: the framing is checked. */
bool cuzk_wire_varint(const uint8_t *msg, size_t len, const unsigned *path, size_t depth, uint64_t *out);

#endif
