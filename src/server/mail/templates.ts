// The product's e-mails: plain text plus a simple HTML version. Every value placed into HTML is
// escaped (hospital and contact names come from a public form).
import {
  BRAND,
  FAMILY_INVITE_HOURS,
  PASSWORD_RESET_TOKEN_HOURS,
  REGISTRATION_TOKEN_HOURS,
  STAFF_INVITE_HOURS,
  TRIAL_DAYS,
} from '../../shared/constants.js';
import type { OutgoingMail } from './mailer.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function html(paragraphs: string[], link?: { href: string; label: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const button = link
    ? `<p><a href="${escapeHtml(link.href)}" style="background:#1c7ed6;color:#fff;padding:10px 16px;border-radius:4px;text-decoration:none">${escapeHtml(link.label)}</a></p>\n<p>${escapeHtml(link.href)}</p>`
    : '';
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">\n${body}\n${button}\n<p>${BRAND}</p></body></html>`;
}

export function registrationInvite(
  to: string,
  contactName: string,
  hospitalName: string,
  link: string,
): OutgoingMail {
  const lines = [
    `Dear ${contactName},`,
    `Good news: the application of ${hospitalName} to join ${BRAND} has been approved.`,
    `Complete your registration with the link below. It can be used once and is valid for ${REGISTRATION_TOKEN_HOURS} hours. Your account starts with a ${TRIAL_DAYS}-day free trial; no payment is needed up front.`,
  ];
  return {
    to,
    kind: 'registration',
    subject: `Your ${BRAND} application has been approved`,
    text: `${lines.join('\n\n')}\n\n${link}\n\n${BRAND}\n`,
    html: html(lines, { href: link, label: 'Complete Registration' }),
    links: [link],
  };
}

/** An existing (self-signed-up) hospital's request for verification was approved: nothing to register. */
export function hospitalVerified(to: string, contactName: string, hospitalName: string): OutgoingMail {
  const lines = [
    `Dear ${contactName},`,
    `${hospitalName} is now verified by ${BRAND}.`,
    'Your patients, and anyone checking a record of yours, now see "Verified provider" beside your records. Nothing else changes: your staff, patients and records stay as they are.',
  ];
  return {
    to,
    kind: 'verified',
    subject: `${hospitalName} is verified by ${BRAND}`,
    text: `${lines.join('\n\n')}\n\n${BRAND}\n`,
    html: html(lines),
    links: [],
  };
}

export function applicationRejected(
  to: string,
  contactName: string,
  hospitalName: string,
  supportEmail: string,
): OutgoingMail {
  const lines = [
    `Dear ${contactName},`,
    `Thank you for the interest of ${hospitalName} in ${BRAND}.`,
    `After reviewing your application we are unable to approve it at this time. If you believe this is a mistake or your circumstances change, you are welcome to contact us at ${supportEmail} or to apply again.`,
    'With kind regards,',
  ];
  return {
    to,
    kind: 'rejection',
    subject: `Your ${BRAND} application`,
    text: `${lines.join('\n\n')}\n\n${BRAND}\n`,
    html: html(lines),
    links: [],
  };
}

/** To the applicant, right after a provider application is saved (issue 13). */
export function applicationReceived(
  to: string,
  contactName: string,
  hospitalName: string,
  publicUrl: string,
): OutgoingMail {
  const lines = [
    `Dear ${contactName},`,
    `We have received the application of ${hospitalName} to join ${BRAND}.`,
    'A MedLedger administrator will review it, usually within two working days. If it is approved, you will receive a one-time link to complete your registration.',
    'If you did not apply, you can ignore this email.',
  ];
  const link = { href: publicUrl, label: `Visit ${BRAND}` };
  return {
    to,
    kind: 'application_received',
    subject: `We received your ${BRAND} application`,
    text: `${lines.join('\n\n')}\n\n${link.label}: ${link.href}\n\n${BRAND}\n`,
    html: html(lines, link),
    links: [link.href],
  };
}

export function passwordReset(to: string, name: string, link: string): OutgoingMail {
  const lines = [
    `Hello ${name},`,
    `Someone asked to reset the password of your ${BRAND} account. If it was you, choose a new password with the link below. It can be used once and is valid for ${PASSWORD_RESET_TOKEN_HOURS} hour. Resetting signs you out everywhere.`,
    'If you did not ask for this, you can ignore this email; your password stays as it is.',
  ];
  return {
    to,
    kind: 'password-reset',
    subject: `Reset your ${BRAND} password`,
    text: `${lines.join('\n\n')}\n\n${link}\n\n${BRAND}\n`,
    html: html(lines, { href: link, label: 'Reset Password' }),
    links: [link],
  };
}

/** After a signup that made an account: its welcome, which the signup answer tells to look for. */
export function accountCreated(to: string, name: string, signInUrl: string): OutgoingMail {
  const lines = [
    `Welcome to ${BRAND}, ${name}!`,
    'Your account has been created. You can now sign in with this email address and the password you chose.',
    'If you did not sign up, someone else used your address: "Forgot password?" on the sign-in page lets you take the account over.',
  ];
  return {
    to,
    kind: 'welcome',
    subject: `Welcome to ${BRAND}`,
    text: `${lines.join('\n\n')}\n\n${signInUrl}\n\n${BRAND}\n`,
    html: html(lines, { href: signInUrl, label: 'Sign In' }),
    links: [signInUrl],
  };
}

/**
 * After a signup with an address that already has an account: nothing was made, and the owner
 * (not the person who signed up) is told how to get in. The signup answer is the same either way.
 */
export function signupWithTakenAddress(to: string, name: string, signInUrl: string): OutgoingMail {
  const lines = [
    `Hello ${name},`,
    `Someone, perhaps you, has just tried to create a ${BRAND} account with this email address. It already has an account, so no new one was made.`,
    'If it was you, sign in with your password; if you have forgotten it, use "Forgot password?" on the sign-in page.',
    'If it was not you, you can ignore this email; your account has not changed.',
  ];
  return {
    to,
    kind: 'signup-address-taken',
    subject: `Your ${BRAND} account already exists`,
    text: `${lines.join('\n\n')}\n\n${signInUrl}\n\n${BRAND}\n`,
    html: html(lines, { href: signInUrl, label: 'Sign In' }),
    links: [signInUrl],
  };
}

/** The one-time link that finishes a sign-in when the account is under attack (sign-in-links.ts). */
export function signInLink(to: string, name: string, link: string, minutes: number): OutgoingMail {
  const lines = [
    `Hello ${name},`,
    `Your ${BRAND} account has had many failed sign-in attempts, so a password alone no longer signs in to it for now. Someone, probably you, has just signed in with the right password: to finish signing in, open the link below. It can be used once and is valid for ${minutes} minutes.`,
    'If it was not you, your password is known to someone else: change it now, or use "Forgot password?" on the sign-in page.',
  ];
  return {
    to,
    kind: 'sign-in-link',
    subject: `Finish signing in to ${BRAND}`,
    text: `${lines.join('\n\n')}\n\n${link}\n\n${BRAND}\n`,
    html: html(lines, { href: link, label: 'Sign In' }),
    links: [link],
  };
}

/**
 * A notification (issue 13): what happened, in a subject without health details, and a link into
 * the app; the details stay in the body, which only the account holder receives.
 */
export function notificationMail(
  to: string,
  kind: string,
  subject: string,
  lines: string[],
  link: { href: string; label: string },
  attachments?: OutgoingMail['attachments'],
): OutgoingMail {
  const footer = `You receive this because e-mail notifications are on in your ${BRAND} profile.`;
  return {
    to,
    kind,
    subject: `${BRAND}: ${subject}`,
    text: `${lines.join('\n\n')}\n\n${link.label}: ${link.href}\n\n${footer}\n${BRAND}\n`,
    html: html([...lines], link).replace(
      '</body>',
      `<p style="color:#868e96">${escapeHtml(footer)}</p></body>`,
    ),
    links: [link.href],
    ...(attachments ? { attachments } : {}),
  };
}

/**
 * "New sign-in to your MedLedger account" (issue 13): the device, address and time of a sign-in
 * from a device the account had not used before, and a link to the sessions list. No health data.
 */
export function newSignInMail(
  to: string,
  name: string,
  sign: { device: string; ip: string | null; at: string },
  link: string,
): OutgoingMail {
  const lines = [
    `Hello ${name},`,
    `Your ${BRAND} account was signed in to from a device it had not used before.`,
    `Device: ${sign.device}`,
    `Address: ${sign.ip ?? 'unknown'}`,
    `Time: ${sign.at}`,
    'If this was you, there is nothing to do. If not, sign out that session from your profile page, change your password and turn on two-factor sign-in.',
  ];
  const footer = `You receive this because new sign-in notices are on in your ${BRAND} profile.`;
  return {
    to,
    kind: 'new_sign_in',
    subject: `New sign-in to your ${BRAND} account`,
    text: `${lines.join('\n\n')}\n\nReview your sessions: ${link}\n\n${footer}\n${BRAND}\n`,
    html: html(lines, { href: link, label: 'Review your sessions' }).replace(
      '</body>',
      `<p style="color:#868e96">${escapeHtml(footer)}</p></body>`,
    ),
    links: [link],
  };
}

/**
 * To a patient the hospital has just added (or given a new code): the activation link, which fills
 * in the MRN and the one-time code on the signup page, and the code itself for typing by hand.
 */
export function patientActivation(
  to: string,
  details: { name: string; hospitalName: string; mrn: string; code: string; expires: string },
  link: string,
): OutgoingMail {
  const lines = [
    `Dear ${details.name},`,
    `${details.hospitalName} keeps your medical records in ${BRAND}. Create your patient account with the link below to see them.`,
    `Your Medical Record Number is ${details.mrn} and your one-time activation code is ${details.code}. The code can be used once and is valid until ${details.expires}.`,
    'If you did not expect this email, you can ignore it.',
  ];
  return {
    to,
    kind: 'patient-activation',
    subject: `Activate your ${BRAND} patient account`,
    text: `${lines.join('\n\n')}\n\n${link}\n\n${BRAND}\n`,
    html: html(lines, { href: link, label: 'Create Your Account' }),
    links: [link],
  };
}

/**
 * To a family contact the patient gave access to their records (docs/decisions.md#family-proxy-access):
 * the one-time link that creates a family account or, for someone who has one, adds the patient to it.
 */
export function familyInvitation(
  to: string,
  details: { name: string; patientName: string },
  link: string,
): OutgoingMail {
  const lines = [
    `Dear ${details.name},`,
    `${details.patientName} has given you read access to their medical records and upcoming appointments in ${BRAND}.`,
    `Create your family account with the link below, or sign in to your family account with it if you already have one. The link can be used once and is valid for ${FAMILY_INVITE_HOURS} hours. ${details.patientName} can end this access at any time.`,
    'If you did not expect this email, you can ignore it.',
  ];
  return {
    to,
    kind: 'family-invitation',
    subject: `${details.patientName} invited you to ${BRAND}`,
    ...linkBody(lines, { href: link, label: 'Accept Invitation' }),
  };
}

/**
 * To the recipient of a specialist share link (docs/decisions.md#specialist-share-links): who
 * shared, until when, the sender's note and the link. No health details in the subject; the link
 * itself is the key, so the mail says to keep it to themself.
 */
export function shareLinkMail(
  to: string,
  details: { senderName: string; expires: string; note: string | null },
  link: string,
): OutgoingMail {
  const lines = [
    'Hello,',
    `${details.senderName} shared a medical record with you through ${BRAND}. Open it with the link below; no account is needed. The link works until ${details.expires}, unless it is withdrawn earlier.`,
    ...(details.note ? [`Their note: ${details.note}`] : []),
    'Anyone with this link can open the record, so do not forward it. If you did not expect this email, you can ignore it.',
  ];
  const subject = `A medical record has been shared with you on ${BRAND}`;
  return {
    to,
    kind: 'share-link',
    subject,
    ...linkBody(lines, { href: link, label: 'Open the Shared Record' }),
  };
}

/** The text and HTML of a mail that is a few paragraphs and one link. */
const linkBody = (lines: string[], link: { href: string; label: string }) => ({
  text: `${lines.join('\n\n')}\n\n${link.href}\n\n${BRAND}\n`,
  html: html(lines, link),
  links: [link.href],
});

/** To someone a hospital admin invited to the hospital's staff: the one-time link that registers them. */
export function staffInvitation(
  to: string,
  details: { name: string; hospitalName: string; inviterName: string; role: string },
  link: string,
): OutgoingMail {
  const lines = [
    `Dear ${details.name},`,
    `${details.inviterName} has invited you to join ${details.hospitalName} in ${BRAND} as ${details.role}.`,
    `Create your own staff account with the link below: you will sign in with this e-mail address and a password of your own. The link can be used once and is valid for ${STAFF_INVITE_HOURS} hours.`,
    'If you did not expect this email, you can ignore it.',
  ];
  return {
    to,
    kind: 'staff-invitation',
    subject: `Join ${details.hospitalName} in ${BRAND}`,
    ...linkBody(lines, { href: link, label: 'Accept Invitation' }),
  };
}
