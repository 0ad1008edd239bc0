// Every text the API accepts is built from `text()`: a Zod string that refuses control characters.
// PostgreSQL cannot store NUL (it answered 500), and no name, note or query needs the others.
import { z } from 'zod';

/** C0 controls except tab, line feed and carriage return (notes keep their lines), and DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
export const CONTROL_CHARACTERS_MESSAGE = 'Text must not contain control characters';

/** `z.string(params)` that refuses control characters with a 400 and a plain message. */
export const text = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine((value) => !CONTROL_CHARACTERS.test(value), CONTROL_CHARACTERS_MESSAGE);
