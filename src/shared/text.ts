// Every text the API accepts is built from `text()`: a Zod string that refuses control characters
// and broken characters. PostgreSQL cannot store NUL (it answered 500), and no name, note or query
// needs the other controls. Half of a UTF-16 surrogate pair (JSON can carry "\ud800") has no UTF-8
// form: it was stored as U+FFFD, so the text kept was not the text sent.
import { z } from 'zod';

/** C0 controls except tab, line feed and carriage return (notes keep their lines), and DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
export const CONTROL_CHARACTERS_MESSAGE = 'Text must not contain control characters';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
export const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const UNPAIRED_SURROGATE_MESSAGE =
  'Text must not contain broken characters (half of an emoji or symbol)';

/**
 * Unicode's bidirectional controls: embeddings, overrides and isolates (U+202A-U+202E,
 * U+2066-U+2069) and the marks (U+200E, U+200F, U+061C). They reorder what is shown without
 * changing what is stored: `invoice\u202Efdp.exe` reads as "invoiceexe.pdf". No name, title or note
 * needs one (right-to-left scripts are laid out by the characters themselves).
 */
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
/** A name taken as sent (an uploaded file's) without its bidirectional controls. */
export const stripBidiControls = (value: string) => value.replace(new RegExp(BIDI_CONTROLS.source, 'g'), '');
export const BIDI_CONTROLS_MESSAGE = 'Text must not contain characters that change the reading direction';

/**
 * `z.string(params)` that refuses control, bidirectional-control and broken characters with a 400
 * and a plain message.
 */
export const text = (params?: Parameters<typeof z.string>[0]) =>
  z
    .string(params)
    .refine((value) => !CONTROL_CHARACTERS.test(value), CONTROL_CHARACTERS_MESSAGE)
    .refine((value) => !BIDI_CONTROLS.test(value), BIDI_CONTROLS_MESSAGE)
    .refine((value) => !UNPAIRED_SURROGATE.test(value), UNPAIRED_SURROGATE_MESSAGE);
