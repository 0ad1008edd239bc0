// Responses are written by a serializer compiled from the route's zod schema (fast-json-stringify,
// Fastify's own), not checked by zod and copied on every request (fastify-type-provider-zod's):
// on a page of 50 patients zod's encode and JSON.stringify took about 94 µs, the compiled one 48.
// Both keep only the properties the schema names, so nothing unlisted leaves the server. A schema
// JSON Schema cannot express (a transform, a date) keeps zod's serializer.
//
// With `check` (CHECK_RESPONSES=1: the tests) every response is written both ways: it
// must still pass zod, and the compiled text must parse to the same value as zod's. So every answer
// the test suite reads shows that the compiled serializer and the schema agree.
import { isDeepStrictEqual } from 'node:util';
import fastJson, { type Schema } from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type RouteSchema = Parameters<typeof zodSerializerCompiler>[0];
type Serialize = (data: unknown) => string;

/** The schema's compiled serializer, or null when JSON Schema cannot express its output. */
export function compileSerializer(schema: unknown): Serialize | null {
  // Any zod schema, of the full build or the mini one (the receipt's, src/shared/ledger/receipt.ts).
  if (!(schema instanceof z.core.$ZodType)) return null;
  let jsonSchema: Schema;
  try {
    jsonSchema = z.toJSONSchema(schema, {
      target: 'draft-07',
      io: 'output',
      unrepresentable: 'throw',
    }) as Schema;
  } catch {
    return null;
  }
  return fastJson(jsonSchema);
}

export class SerializerMismatchError extends Error {
  constructor(route: string, compiled: string, expected: string) {
    super(
      `The compiled serializer of ${route} wrote ${compiled.slice(0, 400)} where its schema gives ` +
        expected.slice(0, 400),
    );
  }
}

/** `compiled`, with every output checked against zod's for the same data (`route` names it). */
export function checkedAgainstZod(route: string, viaZod: Serialize, compiled: Serialize): Serialize {
  return (data) => {
    const expected = viaZod(data); // throws, as without the check, when the data breaks the schema
    const text = compiled(data);
    if (!isDeepStrictEqual(JSON.parse(text), JSON.parse(expected))) {
      throw new SerializerMismatchError(route, text, expected);
    }
    return text;
  };
}

/** Fastify's serializer compiler: compiled serializers, checked against zod when `check` is on. */
export function responseSerializerCompiler(check: boolean) {
  return (route: RouteSchema): Serialize => {
    const viaZod = zodSerializerCompiler(route);
    const compiled = compileSerializer(route.schema);
    if (!compiled) return viaZod;
    return check ? checkedAgainstZod(`${route.method} ${route.url}`, viaZod, compiled) : compiled;
  };
}
