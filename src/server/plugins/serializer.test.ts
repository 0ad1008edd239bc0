// Responses written by serializers compiled from the routes' zod schemas (plugins/serializer.ts).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { meResponseSchema } from '../../shared/auth.js';
import { patientPageSchema } from '../../shared/patients.js';
import { loadConfig } from '../config.js';
import { createTestApp } from '../test/helpers.js';
import {
  checkedAgainstZod,
  compileSerializer,
  responseSerializerCompiler,
  SerializerMismatchError,
} from './serializer.js';

const patient = {
  id: '7d9f3c1e-1111-4222-8333-444455556666',
  patientId: 'MRN-2026-ABCDEF',
  userId: null,
  createdByHospitalId: '7d9f3c1e-1111-4222-8333-444455556667',
  firstName: 'Ada "quoted" \u2028',
  lastName: null,
  email: 'ada@example.org',
  dateOfBirth: '1815-12-10',
  gender: null,
  phone: null,
  insuranceProvider: null,
  insurancePolicy: null,
  primaryCarePhysician: null,
  address: null,
  preferredLanguage: null,
  emergencyContactName: null,
  emergencyContactPhone: null,
  createdAt: '2026-11-27T08:00:00.000Z',
  user: { firstName: 'Ada', lastName: null, email: 'ada@example.org' },
  lastVisit: null,
};

describe('compiled response serializers', () => {
  it("write what zod's serializer writes, and leave out what the schema does not name", () => {
    const compiled = compileSerializer(patientPageSchema)!;
    const page = {
      items: [
        { ...patient, password: 'argon2-hash', archivedAt: '2026-01-01' },
        { ...patient, user: null },
      ],
      total: 2,
      page: 1,
      pageSize: 50,
      internal: true,
    };
    const written = JSON.parse(compiled(page)) as { items: Record<string, unknown>[] };
    expect(written).toEqual(JSON.parse(responseSerializerCompiler(true)(route(patientPageSchema))(page)));
    expect(written).not.toHaveProperty('internal');
    expect(written.items[0]).not.toHaveProperty('password');
    expect(written.items[0]).not.toHaveProperty('archivedAt');
    expect(written.items[0].firstName).toBe('Ada "quoted" \u2028');
    expect(written.items[1].user).toBeNull();
  });

  it('are made for every response schema of the app but those JSON Schema cannot express', async () => {
    const schemas: { name: string; schema: unknown }[] = [];
    const { close } = await createTestApp(
      {},
      {
        onRoute: (route) => {
          const response = (route as { schema?: { response?: Record<string, unknown> } }).schema?.response;
          for (const [status, schema] of Object.entries(response ?? {}))
            schemas.push({ name: `${String(route.method)} ${route.url} ${status}`, schema });
        },
      },
    );
    await close();
    expect(schemas.length).toBeGreaterThan(80);
    const notCompiled = schemas.filter(({ schema }) => compileSerializer(schema) === null).map((s) => s.name);
    expect(notCompiled).toEqual([]);
  });

  it("fall back to zod's serializer for a schema JSON Schema cannot express", () => {
    expect(compileSerializer(z.object({ at: z.string().transform((s) => new Date(s)) }))).toBeNull();
    const dated = z.object({ at: z.date() });
    expect(compileSerializer(dated)).toBeNull();
    const serialize = responseSerializerCompiler(false)(route(dated));
    expect(serialize({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
  });

  describe('checked against zod (CHECK_RESPONSES)', () => {
    it('refuse data that breaks the schema, as zod does', () => {
      const serialize = responseSerializerCompiler(true)(route(meResponseSchema));
      let thrown: unknown;
      try {
        serialize({ user: { id: 42 } });
      } catch (err) {
        thrown = err;
      }
      expect(isResponseSerializationError(thrown)).toBe(true);
    });

    it('refuse a compiled text that differs from zod', () => {
      const viaZod = (data: unknown) => JSON.stringify(data);
      const serialize = checkedAgainstZod('GET /x', viaZod, () => '{"user":null}');
      expect(serialize({ user: null })).toBe('{"user":null}');
      expect(() => serialize({ user: { id: 'u' } })).toThrow(SerializerMismatchError);
    });

    it('are on only when CHECK_RESPONSES=1', () => {
      expect(loadConfig({}).checkResponses).toBe(false);
      expect(loadConfig({ CHECK_RESPONSES: '1' }).checkResponses).toBe(true);
    });
  });
});

/** What Fastify hands a serializer compiler for one response. */
function route(schema: z.ZodType) {
  return { schema, method: 'GET', url: '/test', httpStatus: '200' } as Parameters<
    ReturnType<typeof responseSerializerCompiler>
  >[0];
}
