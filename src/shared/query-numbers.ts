// Numbers in a query string (?page=2, ?treeSize=10) are written in decimal digits only.
import { z } from 'zod';

const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * Lets only a plain decimal number reach `schema` (a z.coerce.number): Number() would also read
 * "0x10" as 16, "0b1" as 1, "1e1" as 10, " 1" as 1 and "" as 0, and a malformed link would be
 * answered as if it had asked for something else. Anything else becomes NaN, which the schema
 * refuses with its own "must be a number". The OpenAPI document still shows the schema's range.
 */
export const decimalOnly = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && !DECIMAL.test(value) ? Number.NaN : value), schema);
