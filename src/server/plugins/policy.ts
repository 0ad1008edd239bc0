// Every route declares who may call it in its options (`config.policy`), and the one onRoute hook
// below turns that declaration into the route's guards: a route under /api/ without a policy stops
// the server at start-up. Services then ask access.ts only whose data it is, never which role asks.
import type { FastifyInstance, onRequestAsyncHookHandler, RouteOptions } from 'fastify';
import { TWO_FACTOR_MESSAGES } from '../../shared/account.js';
import { ROLES, type Role } from '../../shared/constants.js';
import { forbidden, unauthorized } from '../errors.js';

/** A route only signed-in accounts of the listed roles reach. */
export interface SignedInPolicy {
  /** The roles that may call it (401 signed out, 403 any other role); a list, new roles join it. */
  roles: readonly Role[];
  /** A write that needs write access: a hospital whose trial has ended unpaid is answered 402. */
  writeAccess: boolean;
  /** It answers health data: never kept by any cache (`private, no-store`). */
  healthData: boolean;
}

/**
 * A route without a session: its credential, if any, is something else (a token in the path, a
 * pending sign-in cookie, a bearer token, a webhook signature), checked by its handler.
 */
export interface PublicPolicy {
  public: true;
  healthData: boolean;
}

export type RoutePolicy = SignedInPolicy | PublicPolicy;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; required under /api/ (registerPolicies). */
    policy?: RoutePolicy;
  }
}

/** Every role: the routes about the signed-in account itself. */
export const EVERY_ROLE: readonly Role[] = ROLES;

const API_PATH = '/api/';
/** The API's own documentation (@fastify/swagger-ui's routes): public, and declared here for them. */
export const API_DOCS_PATH = '/api/docs';
const DOCS_POLICY: PublicPolicy = { public: true, healthData: false };
/** What a health data answer's Cache-Control is (plugins/security.ts sets it on every answer). */
export const HEALTH_DATA_CACHE_CONTROL = 'private, no-store';

export const isPublic = (policy: RoutePolicy): policy is PublicPolicy => 'public' in policy;

/**
 * An administrator's routes reach every account, application and subscription: without two-factor
 * sign-in an administrator reaches none of them, only the routes other roles share (the account's
 * own, where two-factor is set up). docs/decisions.md#sign-in-security.
 */
const administratorsOnly = (roles: readonly Role[]) =>
  roles.length > 0 && roles.every((r) => r === 'medledger_admin');

/** 401 when signed out, 403 for another role (or an administrator without two-factor on theirs). */
function roleGuard(roles: readonly Role[]): onRequestAsyncHookHandler {
  const allowed = new Set(roles);
  const needsTwoFactor = administratorsOnly(roles);
  return async (request) => {
    if (!request.user) throw unauthorized();
    if (!allowed.has(request.user.role)) throw forbidden();
    if (needsTwoFactor && !request.user.twoFactorEnabled)
      throw forbidden(TWO_FACTOR_MESSAGES.adminSetupRequired);
  };
}

export interface PolicyDeps {
  /** Throws (402) when the signed-in account may not write now (features/billing: the trial). */
  assertMayWrite: (user: { id: string; role: Role }) => Promise<void>;
}

/** The route's guards, in order, from its policy; they run before the body is read. */
function guardsOf(policy: RoutePolicy, deps: PolicyDeps): onRequestAsyncHookHandler[] {
  if (isPublic(policy)) return [];
  const guards = [roleGuard(policy.roles)];
  if (policy.writeAccess) {
    guards.push(async (request) => {
      // roleGuard ran first: the user is there.
      if (request.user) await deps.assertMayWrite(request.user);
    });
  }
  return guards;
}

const methodsOf = (route: RouteOptions) =>
  (Array.isArray(route.method) ? route.method : [route.method]).join(',');

/**
 * Installs each route's guards from its declared policy, ahead of any onRequest hook of its own
 * (the session hook, registered on the app, has already set request.user). Throws at start for a
 * route under /api/ that declares none, or for health data declared cacheable.
 */
export function registerPolicies(app: FastifyInstance, deps: PolicyDeps) {
  app.addHook('onRoute', (route) => {
    const declared = route.config?.policy;
    const policy = declared ?? (route.url.startsWith(API_DOCS_PATH) ? DOCS_POLICY : undefined);
    if (!policy) {
      if (route.url.startsWith(API_PATH)) {
        throw new Error(
          `${methodsOf(route)} ${route.url} declares no policy (config.policy, plugins/policy.ts)`,
        );
      }
      return;
    }
    if (policy.healthData) {
      const cacheControl = route.config?.cacheControl;
      if (cacheControl !== undefined && cacheControl !== HEALTH_DATA_CACHE_CONTROL) {
        throw new Error(`${methodsOf(route)} ${route.url} answers health data: it cannot be cached`);
      }
      // A copy: route options share config objects (and HEAD routes share the GET's).
      route.config = { ...route.config, cacheControl: HEALTH_DATA_CACHE_CONTROL };
    }
    if (declared === undefined) route.config = { ...route.config, policy };
    const own =
      route.onRequest === undefined
        ? []
        : Array.isArray(route.onRequest)
          ? route.onRequest
          : [route.onRequest];
    const guards = guardsOf(policy, deps);
    if (guards.length > 0) route.onRequest = [...guards, ...own];
  });
}
