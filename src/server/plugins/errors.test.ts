// A fault of ours answers 500 with a fixed sentence and the request id, never the error itself;
// the log gets the error, under the same request id.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { answerFrameworkError, registerErrorHandling } from './errors.js';

function appWithFaults() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) };
  const app = Fastify({ logger: { level: 'error', stream } });
  registerErrorHandling(app);
  app.get('/fault', async () => {
    throw new Error('password=hunter2 at /srv/medledger/secret.ts:12');
  });
  app.get('/router-fault', async (request, reply) =>
    answerFrameworkError(
      Object.assign(new Error('router gave up: hunter2'), { code: 'FST_ERR_OTHER', name: 'FastifyError' }),
      request,
      reply,
    ),
  );
  return { app, lines };
}

describe('a fault of ours', () => {
  for (const [path, logged] of [
    ['/fault', 'unhandled error'],
    ['/router-fault', 'router error'],
  ] as const) {
    it(`answers 500 with the request id and nothing of the error (${logged})`, async () => {
      const { app, lines } = appWithFaults();
      const res = await app.inject({ method: 'GET', url: path });
      expect(res.statusCode).toBe(500);
      const body = res.json<{ message: string; requestId: string }>();
      expect(body).toEqual({
        message: 'Something went wrong on our side. Please try again.',
        requestId: expect.any(String),
      });
      expect(res.body).not.toMatch(/hunter2|secret\.ts|stack/);
      const line = lines.find((l) => l.msg === logged);
      expect(line).toMatchObject({ reqId: body.requestId });
      expect(JSON.stringify(line)).toContain('hunter2');
      await app.close();
    });
  }
});
