/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Text that did not come from calvin itself (a VNF's counter names and
 * values, a guest agent's error line, a line of a VNF's log, a helper's
 * error message), made safe to show: nothing in it can move the cursor,
 * retitle or reprogram the terminal, or start a line of its own. */
#ifndef CALVIN_LIB_TEXT_ESCAPE_H
#define CALVIN_LIB_TEXT_ESCAPE_H

#include <stddef.h>

/* Room for the escaped form of n bytes: each may become \xNN. */
#define CALVIN_ESCAPED_LEN(n) (4 * (n) + 1)

/* in[0..len) into out (outlen bytes, NUL-terminated) as one line of valid
 * UTF-8 without control characters. Shown as \xNN, one per byte:
 * - C0 controls (tab and newline too), DEL, and the C1 controls
 *   U+0080..U+009F (their two UTF-8 bytes, or the lone byte);
 * - Unicode's bidirectional controls and its line and paragraph
 *   separators, which reorder or break what a terminal shows;
 * - every byte that is not part of valid UTF-8: a stray continuation
 *   byte, a sequence cut short, an overlong form, a surrogate, beyond
 *   U+10FFFF. Valid UTF-8 otherwise passes as it is (names in any script
 *   stay readable); invalid bytes are escaped, not replaced, so what
 *   was sent can be read back exactly.
 * A backslash becomes \\, so an escape in the input cannot pass for one
 * of ours. Cut at a character boundary when out is too small.
 * Returns out. */
const char *calvin_text_escape(const void *in, size_t len, char *out, size_t outlen);
/* The same for a NUL-terminated string. */
const char *calvin_text_escape_str(const char *s, char *out, size_t outlen);

#endif /* CALVIN_LIB_TEXT_ESCAPE_H */
