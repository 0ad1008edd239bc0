// The staff pages' and answers' messages, apart from the schemas (staff.ts re-exports them) so that
// the public /join-staff page shows them without loading Zod.

/** The staff page's answers (403/409 bodies say these). */
export const STAFF_MESSAGES = {
  lastAdmin: 'The hospital needs at least one active hospital admin: make someone else an admin first.',
  notMember: 'Staff member not found.',
  invitationNotFound: 'Invitation not found.',
  alreadyMember: 'This person already has a MedLedger account.',
  pendingInvite: 'An invitation to this address is already waiting; resend it instead.',
  inviteInvalid: 'This staff invitation link is invalid. Ask your hospital admin for a new one.',
  inviteUsed: 'This staff invitation has already been used. Sign in with your e-mail and password.',
  inviteExpired: 'This staff invitation has expired. Ask your hospital admin to send a new one.',
  inviteOtherEmail: 'This invitation was sent to another e-mail address: sign up with that one.',
  deactivated: 'Your account has been deactivated by your hospital. Ask its hospital admin to reactivate it.',
  adminsOnly: 'Only a hospital admin can do this.',
  practitionerNotFound: 'Choose a practitioner of your hospital (an active clinician or admin).',
  noRecordContents:
    'Front-desk staff see which records exist, not what is in them: ask a clinician to open this record.',
  twoFactorRequired:
    'Your hospital requires two-factor sign-in for all its staff: turn it on in your account settings to continue.',
} as const;
