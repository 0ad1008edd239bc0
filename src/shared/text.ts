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

/** `z.string(params)` that refuses control and broken characters with a 400 and a plain message. */
export const text = (params?: Parameters<typeof z.string>[0]) =>
  z
    .string(params)
    .refine((value) => !CONTROL_CHARACTERS.test(value), CONTROL_CHARACTERS_MESSAGE)
    .refine((value) => !UNPAIRED_SURROGATE.test(value), UNPAIRED_SURROGATE_MESSAGE);
