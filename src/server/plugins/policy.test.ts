// The policy hook on a bare Fastify: what it refuses at start-up, and the guards it installs.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerPolicies, type RoutePolicy } from './policy.js';

const noBilling = { assertMayWrite: async () => undefined };

async function appWith(url: string, config: { policy?: RoutePolicy; cacheControl?: string }) {
  const app = Fastify({ logger: false });
  registerPolicies(app, noBilling);
  await app.register(async (scope) => {
    scope.get(url, { config }, async () => ({ ok: true }));
  });
  return app;
}

describe('registerPolicies', () => {
  it('refuses to start with an API route that declares no policy', async () => {
    await expect(appWith('/api/undeclared', {}).then((app) => app.ready())).rejects.toThrow(
      'GET /api/undeclared declares no policy',
    );
  });

  it('refuses health data declared cacheable', async () => {
    const policy: RoutePolicy = { roles: ['patient'], writeAccess: false, healthData: true };
    await expect(
      appWith('/api/cached', { policy, cacheControl: 'public, max-age=60' }).then((app) => app.ready()),
    ).rejects.toThrow('GET /api/cached answers health data: it cannot be cached');
  });

  it('leaves a route outside the API alone, and guards a declared one', async () => {
    const open = await appWith('/page', {});
    expect((await open.inject({ method: 'GET', url: '/page' })).statusCode).toBe(200);
    const guarded = await appWith('/api/guarded', {
      policy: { roles: ['hospital'], writeAccess: false, healthData: false, staffRoles: ['hospital_admin'] },
    });
    guarded.decorateRequest('user', null);
    expect((await guarded.inject({ method: 'GET', url: '/api/guarded' })).statusCode).toBe(401);
  });
});
