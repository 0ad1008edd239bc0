// Every kind of audit event the server writes (docs/decisions.md#audit-trail): its action name,
// its typed data, its label, and the one sentence every reader shows for it (the hospital's trail,
// the patient's activity trail). An entry stores the data (audit_logs.data); the text is made
// here, when it is read. Entries written before typed events keep their `details` text.
import { z } from 'zod';
import type { AUDIT_ACTIONS } from './constants.js';

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

const text = z.string().max(2000);
const count = z.number().int().min(0);
const fields = z.array(text).max(100);

interface EventKind<S extends z.ZodType> {
  label: string;
  data: S;
  /** The sentence readers show. */
  text: (data: z.infer<S>) => string;
  /** Who acted, for an actor without an account (a specialist's link, Stripe, the command line). */
  actor?: (data: z.infer<S>) => string | undefined;
}

const kind = <S extends z.ZodType>(k: EventKind<S>) => k;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const onOff = (on: boolean) => (on ? 'on' : 'off');
const listFormat = new Intl.ListFormat('en', { type: 'conjunction' });
/** Whom a specialist share link was given to, named as the actor of its openings. */
const linkHolder = (recipient: string | undefined) =>
  recipient === undefined ? undefined : `Specialist (${recipient}, by a shared link)`;
const byLink = (recipient: string | undefined) =>
  recipient === undefined ? '' : ` by specialist link to ${recipient}`;

const appointment = z.object({ appointment: text });
const accountChange = z.object({ account: text, sessionsEnded: count, links: count, grants: count });

export const AUDIT_EVENTS = {
  login: kind({
    label: 'Login',
    data: z.object({ role: text, how: text.optional() }),
    text: (d) => `Signed in as ${d.role}${d.how ? ` ${d.how}` : ''}`,
  }),
  record_upload: kind({
    label: 'Record Upload',
    data: z.object({ title: text, files: count }),
    text: (d) => `Uploaded "${d.title}" with ${plural(d.files, 'file')}`,
  }),
  record_access: kind({
    label: 'Record Access',
    data: z.discriminatedUnion('read', [
      z.object({
        read: z.literal('list'),
        mrn: text,
        count,
        page: z.number().int().min(1).optional(),
        total: count.optional(),
      }),
      z.object({ read: z.literal('drafts'), count }),
      z.object({ read: z.literal('fhir_export'), records: count }),
    ]),
    text: (d) =>
      d.read === 'list'
        ? `Listed ${plural(d.count, 'medical record')} of patient ${d.mrn}${
            d.total === undefined ? '' : ` (page ${d.page}, ${d.total} in all)`
          }`
        : d.read === 'drafts'
          ? `Listed ${plural(d.count, 'draft record')}`
          : `FHIR export of the patient's data (${d.records} records)`,
  }),
  record_view: kind({
    label: 'Record View',
    data: z.object({ title: text, link: text.optional() }),
    text: (d) => (d.link === undefined ? `Viewed "${d.title}"` : `"${d.title}" opened${byLink(d.link)}`),
    actor: (d) => linkHolder(d.link),
  }),
  record_download: kind({
    label: 'Record Download',
    data: z.object({ title: text, fileName: text, link: text.optional() }),
    text: (d) => `Downloaded "${d.fileName}" of "${d.title}"${byLink(d.link)}`,
    actor: (d) => linkHolder(d.link),
  }),
  receipt_download: kind({
    label: 'Receipt Download',
    data: z.object({ title: text }),
    text: (d) => `Downloaded the ledger receipt of "${d.title}"`,
  }),
  integrity_failure: kind({
    label: 'Integrity Failure',
    data: z.object({ title: text, fileName: text, chunk: count.optional(), reason: text.optional() }),
    text: (d) =>
      `Attachment "${d.fileName}" of "${d.title}" failed its integrity check${
        d.chunk === undefined ? '' : ` at chunk ${d.chunk} (${d.reason ?? ''})`
      }; the download was stopped before the damaged part.`,
  }),
  record_draft: kind({
    label: 'Record Draft',
    data: z.object({ title: text, discarded: z.boolean() }),
    text: (d) => `${d.discarded ? 'Discarded' : 'Saved'} draft "${d.title}"`,
  }),
  record_amend: kind({
    label: 'Record Amendment',
    data: z.object({ title: text, newTitle: text, files: count }),
    text: (d) => `Amended "${d.title}": new version "${d.newTitle}" with ${plural(d.files, 'file')}`,
  }),
  record_entered_in_error: kind({
    label: 'Record Entered in Error',
    data: z.object({ title: text, reason: text }),
    text: (d) => `Marked "${d.title}" as entered in error: ${d.reason}`,
  }),
  consent_change: kind({
    label: 'Consent Change',
    data: z.discriminatedUnion('change', [
      z.object({
        change: z.literal('record_sharing'),
        title: text,
        specialists: z.boolean(),
        family: z.boolean(),
      }),
      z.object({
        change: z.literal('consent'),
        specialists: z.boolean(),
        family: z.boolean(),
        linksRevoked: count,
      }),
      z.object({ change: z.literal('link_shared'), title: text, recipient: text, hours: count }),
      z.object({ change: z.literal('link_revoked'), title: text, recipient: text }),
    ]),
    text: (d) => {
      switch (d.change) {
        case 'record_sharing':
          return `Sharing of "${d.title}": specialists ${onOff(d.specialists)}, family ${onOff(d.family)}`;
        case 'consent':
          return `Consent settings: share with specialists ${onOff(d.specialists)}, family access ${onOff(d.family)}${
            d.linksRevoked ? `; ${plural(d.linksRevoked, 'specialist link')} revoked` : ''
          }`;
        case 'link_shared':
          return `Shared "${d.title}" with ${d.recipient} by a specialist link (${d.hours} h)`;
        case 'link_revoked':
          return `Revoked the specialist link of "${d.title}" to ${d.recipient}`;
      }
    },
  }),
  profile_change: kind({
    label: 'Profile Change',
    data: z.object({ fields }),
    text: (d) => `Profile updated: ${d.fields.join(', ')}`,
  }),
  patient_create: kind({
    label: 'Patient Added',
    data: z.object({ mrn: text }),
    text: (d) => `Added patient ${d.mrn}; activation code issued`,
  }),
  patient_update: kind({
    label: 'Patient Updated',
    data: z.object({ mrn: text, fields }),
    text: (d) =>
      d.fields.length
        ? `Updated patient ${d.mrn}: ${d.fields.join(', ')}`
        : `Saved patient ${d.mrn} without changes`,
  }),
  patient_archive: kind({
    label: 'Patient Removed',
    data: z.object({ mrn: text }),
    text: (d) => `Removed patient ${d.mrn} from the patient list (records kept)`,
  }),
  activation_code_issue: kind({
    label: 'Activation Code Issued',
    data: z.object({ mrn: text }),
    text: (d) => `Issued a new activation code for patient ${d.mrn}; the earlier one is void`,
  }),
  appointment_create: kind({
    label: 'Appointment Booked',
    data: appointment,
    text: (d) => `Scheduled ${d.appointment}`,
  }),
  appointment_update: kind({
    label: 'Appointment Changed',
    data: appointment,
    text: (d) => `Updated to ${d.appointment}`,
  }),
  appointment_status: kind({
    label: 'Appointment Status',
    data: appointment.extend({ from: text, to: text }),
    text: (d) => `Status ${d.from} → ${d.to}: ${d.appointment}`,
  }),
  appointment_cancel: kind({
    label: 'Appointment Cancelled',
    data: appointment,
    text: (d) => `Cancelled ${d.appointment}`,
  }),
  family_contact_change: kind({
    label: 'Family Contact Change',
    data: z.object({ change: z.enum(['added', 'updated', 'removed']), contact: text }),
    text: (d) => `${d.change.charAt(0).toUpperCase()}${d.change.slice(1)} family contact ${d.contact}`,
  }),
  family_access: kind({
    label: 'Family Access',
    data: z.discriminatedUnion('change', [
      z.object({ change: z.literal('invited'), contact: text, email: text }),
      z.object({ change: z.literal('accepted'), email: text }),
      z.object({ change: z.literal('revoked'), contact: text }),
      z.object({ change: z.literal('contact_changed'), contact: text }),
    ]),
    text: (d) => {
      switch (d.change) {
        case 'invited':
          return `Family access invitation sent to ${d.contact} (${d.email})`;
        case 'accepted':
          return `Family access invitation accepted by ${d.email}`;
        case 'revoked':
          return `Revoked the record access of ${d.contact}`;
        case 'contact_changed':
          return `Family access through ${d.contact} ended: the contact was changed, so access needs a new invitation`;
      }
    },
  }),
  settings_change: kind({
    label: 'Settings Change',
    data: z.object({ fields }),
    text: (d) =>
      d.fields.length ? `Changed ${listFormat.format(d.fields)}` : 'Saved settings without changes',
  }),
  application_review: kind({
    label: 'Application Review',
    data: z.discriminatedUnion('change', [
      z.object({ change: z.literal('reviewed'), hospitalName: text, email: text, status: text }),
      z.object({ change: z.literal('link_resent'), email: text }),
      /** A self-signed-up hospital asked to be verified (its own trail). */
      z.object({ change: z.literal('verification_requested'), hospitalName: text }),
    ]),
    text: (d) =>
      d.change === 'reviewed'
        ? `Application of ${d.hospitalName} (${d.email}) ${d.status}`
        : d.change === 'link_resent'
          ? `New registration link sent to ${d.email}`
          : `Verification by MedLedger requested for ${d.hospitalName}`,
  }),
  provider_register: kind({
    label: 'Provider Registration',
    data: z.object({ hospitalName: text }),
    text: (d) => `Hospital account created for ${d.hospitalName}; 7-day trial started`,
  }),
  password_reset: kind({
    label: 'Password Reset',
    data: z.object({}),
    text: () => 'Password reset through an e-mailed link; all sessions ended',
  }),
  password_change: kind({
    label: 'Password Change',
    data: z.object({ sessionsEnded: count }),
    text: (d) => `Changed the password; ended ${plural(d.sessionsEnded, 'other session')}`,
  }),
  two_factor_change: kind({
    label: 'Two-Factor Change',
    data: z.object({ change: z.enum(['on', 'off', 'reset']) }),
    text: (d) =>
      d.change === 'reset'
        ? 'Two-factor sign-in reset from the command line'
        : `Turned ${d.change} two-factor sign-in`,
    actor: (d) => (d.change === 'reset' ? 'An administrator at the command line' : undefined),
  }),
  session_end: kind({
    label: 'Session Ended',
    data: z.object({ device: text }),
    text: (d) => `Signed out a session (${d.device})`,
  }),
  subscription_change: kind({
    label: 'Subscription Change',
    data: z.discriminatedUnion('change', [
      z.object({ change: z.literal('marked_active'), hospitalName: text }),
      z.object({ change: z.literal('checkout') }),
      z.object({ change: z.literal('stripe'), stripeStatus: text, status: text }),
    ]),
    text: (d) =>
      d.change === 'marked_active'
        ? `Subscription of ${d.hospitalName} marked active by an administrator`
        : d.change === 'checkout'
          ? 'Subscription activated through Stripe Checkout'
          : `Stripe subscription ${d.stripeStatus}: subscription ${d.status}`,
    actor: (d) => (d.change === 'marked_active' ? undefined : 'Stripe (billing webhook)'),
  }),
  account_suspend: kind({
    label: 'Account Suspended',
    data: accountChange,
    text: (d) =>
      `Suspended the account ${d.account}; ended ${plural(d.sessionsEnded, 'session')}; stopped ${plural(
        d.links,
        'share link',
      )} and ${plural(d.grants, 'family grant')}`,
  }),
  account_reactivate: kind({
    label: 'Account Reactivated',
    data: z.object({ account: text, restored: z.boolean(), links: count, grants: count }),
    text: (d) =>
      `Reactivated the account ${d.account}; ${d.restored ? 'restored' : 'ended for good'} ${plural(
        d.links,
        'share link',
      )} and ${plural(d.grants, 'family grant')}`,
  }),
  provider_verify: kind({
    label: 'Provider Verified',
    data: z.object({ hospital: text }),
    text: (d) => `Verified ${d.hospital} as a provider`,
  }),
  staff_change: kind({
    label: 'Staff Change',
    data: z.object({
      change: z.enum([
        'invited',
        'invitation_resent',
        'invitation_cancelled',
        'joined',
        'role',
        'deactivated',
        'reactivated',
        'two_factor_policy',
      ]),
      member: text,
      staffRole: text.optional(),
      sessionsEnded: count.optional(),
      required: z.boolean().optional(),
    }),
    text: (d) => {
      const role = d.staffRole ? ` as ${d.staffRole.replace(/_/g, ' ')}` : '';
      switch (d.change) {
        case 'invited':
          return `Invited ${d.member} to the staff${role}`;
        case 'invitation_resent':
          return `Sent the staff invitation to ${d.member} again`;
        case 'invitation_cancelled':
          return `Cancelled the staff invitation to ${d.member}`;
        case 'joined':
          return `${d.member} joined the staff${role}`;
        case 'role':
          return `Changed the staff role of ${d.member} to ${(d.staffRole ?? '').replace(/_/g, ' ')}`;
        case 'deactivated':
          return `Deactivated ${d.member}; ended ${plural(d.sessionsEnded ?? 0, 'session')}`;
        case 'reactivated':
          return `Reactivated ${d.member}`;
        case 'two_factor_policy':
          return `Two-factor sign-in ${d.required ? 'required' : 'no longer required'} for all staff`;
      }
    },
  }),
} satisfies { [A in AuditAction]: EventKind<z.ZodType> };

type Events = typeof AUDIT_EVENTS;
export type AuditData<A extends AuditAction> = z.infer<Events[A]['data']>;
/** One event: its kind and that kind's data. */
export type AuditEvent = { [A in AuditAction]: { kind: A; data: AuditData<A> } }[AuditAction];

/** The one label list (filters, badges). */
export const AUDIT_ACTION_LABELS = Object.fromEntries(
  Object.entries(AUDIT_EVENTS).map(([action, k]) => [action, k.label]),
) as Record<AuditAction, string>;

const isAction = (action: string): action is AuditAction => Object.hasOwn(AUDIT_EVENTS, action);

/** An entry's data read back, if it is a kind's data (else null: an old row, or a changed kind). */
function parsed(action: string, data: unknown): { kind: EventKind<z.ZodType>; data: unknown } | null {
  if (data === null || data === undefined || !isAction(action)) return null;
  const k: EventKind<z.ZodType> = AUDIT_EVENTS[action];
  const result = k.data.safeParse(data);
  return result.success ? { kind: k, data: result.data } : null;
}

/**
 * The text an entry shows: made from its data, or, for a row written before typed events, the
 * `details` it was written with.
 */
export function auditText(action: string, data: unknown, details: string | null): string | null {
  const event = parsed(action, data);
  return event ? event.kind.text(event.data) : details;
}

/** Who acted, for an entry whose actor has no account (else undefined: the account names them). */
export function auditActorName(action: string, data: unknown): string | undefined {
  const event = parsed(action, data);
  return event?.kind.actor?.(event.data);
}
