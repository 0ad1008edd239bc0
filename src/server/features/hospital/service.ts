// Hospital settings (Settings tab): the hospital name and administrator e-mail are saved and
// audited. Two-factor sign-in is the user's real state (set on the profile page); blockchain
// verification is always on.
import { eq } from 'drizzle-orm';
import type { HospitalSettings, HospitalSettingsInput } from '../../../shared/hospital.js';
import type { Db } from '../../db/connect.js';
import { users } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { recordAudit } from '../audit/service.js';
import { type Actor, orgOf } from '../../access.js';

type UserRow = typeof users.$inferSelect;

const toSettings = (row: UserRow): HospitalSettings => ({
  hospitalName: row.hospitalName,
  adminEmail: row.hospitalAdminEmail ?? row.email,
  twoFactorEnabled: row.twoFactorEnabled,
  blockchainVerificationEnabled: row.blockchainVerificationEnabled,
  timeZone: row.timeZone,
  staffTwoFactorRequired: row.staffTwoFactorRequired,
});

/** The organization's settings; `twoFactorEnabled` is the signed-in member's own (their profile's). */
export async function getSettings(db: Db, actor: Actor): Promise<HospitalSettings> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.id, orgOf(actor)));
  if (!row || row.role !== 'hospital') throw notFound();
  const [me] = await db
    .select({ twoFactorEnabled: users.twoFactorEnabled })
    .from(users)
    .where(eq(users.id, actor.id));
  return { ...toSettings(row), twoFactorEnabled: me?.twoFactorEnabled ?? false };
}

export async function saveSettings(
  db: Db,
  actor: Actor,
  input: HospitalSettingsInput,
): Promise<HospitalSettings> {
  const before = await getSettings(db, actor);
  const changed = [
    before.hospitalName !== input.hospitalName ? 'hospital name' : null,
    before.adminEmail !== input.adminEmail ? 'administrator e-mail' : null,
    input.timeZone && before.timeZone !== input.timeZone
      ? `time zone (${before.timeZone} → ${input.timeZone})`
      : null,
  ].filter((c): c is string => c !== null);
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({
        hospitalName: input.hospitalName,
        hospitalAdminEmail: input.adminEmail,
        ...(input.timeZone ? { timeZone: input.timeZone } : {}),
        ...(input.staffTwoFactorRequired !== undefined
          ? { staffTwoFactorRequired: input.staffTwoFactorRequired }
          : {}),
      })
      .where(eq(users.id, orgOf(actor)))
      .returning();
    await recordAudit(tx, actor, {
      event: { kind: 'settings_change', data: { fields: changed } },
      subject: { type: 'hospital', id: orgOf(actor) },
    });
    const required = input.staffTwoFactorRequired;
    if (required !== undefined && required !== before.staffTwoFactorRequired) {
      await recordAudit(tx, actor, {
        event: { kind: 'staff_change', data: { change: 'two_factor_policy', member: 'all staff', required } },
        subject: { type: 'hospital', id: orgOf(actor) },
      });
    }
    return updated;
  });
  return { ...toSettings(row), twoFactorEnabled: before.twoFactorEnabled };
}
