// Every route declares who may call it in its options (`config.policy`), and the one onRoute hook
// below turns that declaration into the route's guards: a route under /api/ without a policy stops
// the server at start-up. Services then ask access.ts only whose data it is, never which role asks.
import type { FastifyInstance, onRequestAsyncHookHandler, RouteOptions } from 'fastify';
import { TWO_FACTOR_MESSAGES } from '../../shared/account.js';
import { ROLES, STAFF_ROLES, type Role, type StaffRole } from '../../shared/constants.js';
import { STAFF_MESSAGES } from '../../shared/staff.js';
import { forbidden, unauthorized } from '../errors.js';

/** A route only signed-in accounts of the listed roles reach. */
export interface SignedInPolicy {
  /** The roles that may call it (401 signed out, 403 any other role); a list, new roles join it. */
  roles: readonly Role[];
  /** A write that needs write access: a hospital whose trial has ended unpaid is answered 402. */
  writeAccess: boolean;
  /** It answers health data: never kept by any cache (`private, no-store`). */
  healthData: boolean;
  /**
   * Which of a hospital's staff may call it (docs/decisions.md#staff-accounts): required on every
   * route hospitals reach, other than the account's own (EVERY_ROLE), so that a new route says
   * whether the front desk may call it. 403 for any other staff role.
   */
  staffRoles?: readonly StaffRole[];
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

/** The staff roles routes name (docs/decisions.md#staff-accounts has the matrix). */
export const ALL_STAFF: readonly StaffRole[] = STAFF_ROLES;
/** Who reads and writes records' contents: admins and clinicians, never the front desk. */
export const CLINICAL_STAFF: readonly StaffRole[] = ['hospital_admin', 'clinician'];
/** Staff, settings, billing and the organization's trail. */
export const HOSPITAL_ADMINS: readonly StaffRole[] = ['hospital_admin'];

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

/**
 * 401 when signed out, 403 for another role (or an administrator without two-factor on theirs), and
 * for a hospital member of another staff role, or without the two-factor their hospital requires
 * (the account's own routes, EVERY_ROLE, stay open: two-factor is set up there).
 */
function roleGuard(policy: SignedInPolicy): onRequestAsyncHookHandler {
  const allowed = new Set(policy.roles);
  const needsTwoFactor = administratorsOnly(policy.roles);
  const staff = policy.staffRoles ? new Set(policy.staffRoles) : null;
  const ownAccount = policy.roles === EVERY_ROLE;
  // What a hospital's two-factor requirement closes: patients' data and every change.
  const guardedByStaffTwoFactor = policy.healthData || policy.writeAccess;
  const refusal =
    policy.staffRoles === HOSPITAL_ADMINS
      ? STAFF_MESSAGES.adminsOnly
      : policy.staffRoles === CLINICAL_STAFF
        ? STAFF_MESSAGES.noRecordContents
        : undefined;
  return async (request) => {
    const user = request.user;
    if (!user) throw unauthorized();
    if (!allowed.has(user.role)) throw forbidden();
    if (needsTwoFactor && !user.twoFactorEnabled) throw forbidden(TWO_FACTOR_MESSAGES.adminSetupRequired);
    if (user.role !== 'hospital' || ownAccount) return;
    if (staff && !staff.has(user.staffRole ?? 'front_desk')) throw forbidden(refusal);
    if (guardedByStaffTwoFactor && user.staffTwoFactorRequired && !user.twoFactorEnabled)
      throw forbidden(STAFF_MESSAGES.twoFactorRequired);
  };
}

export interface PolicyDeps {
  /** Throws (402) when the signed-in account may not write now (features/billing: the trial). */
  assertMayWrite: (user: { id: string; role: Role; hospitalId?: string | null }) => Promise<void>;
}

/** The route's guards, in order, from its policy; they run before the body is read. */
function guardsOf(policy: RoutePolicy, deps: PolicyDeps): onRequestAsyncHookHandler[] {
  if (isPublic(policy)) return [];
  const guards = [roleGuard(policy)];
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
    if (
      !isPublic(policy) &&
      policy.roles.includes('hospital') &&
      policy.roles !== EVERY_ROLE &&
      policy.staffRoles === undefined
    ) {
      throw new Error(`${methodsOf(route)} ${route.url} is open to hospitals but declares no staffRoles`);
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
