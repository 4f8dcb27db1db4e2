// First start on an empty database: a team with an owner and one full access key made by that
// owner, so that a newcomer can call the API at once. Runs in one transaction; a database that
// already has a team is left alone.
import type { Kysely } from 'kysely';
import type { Database, TeamPlan } from '../db/schema.ts';
import type { Secrets } from '../platform/crypto.ts';
import { createApiKey, type CreatedApiKey } from './api-keys.ts';
import { addMember, createTeam, lockTeamsAndFindAny } from './queries.ts';

interface BootstrapResult {
  teamId: number;
  plan: TeamPlan;
  ownerEmail: string;
  key: CreatedApiKey;
}

export async function bootstrapFirstTeam(
  db: Kysely<Database>,
  secrets: Secrets,
  now: Date,
  /** HERALD_MAIL_DOMAIN: the owner's address is on it, so the first email can go there at once. */
  mailDomain = 'herald.localhost',
  /** config.firstTeamPlan: HERALD_DEFAULT_PLAN, or pro on the embedded database. */
  plan: TeamPlan = 'free',
): Promise<BootstrapResult | null> {
  return db.transaction().execute(async (tx) => {
    if (await lockTeamsAndFindAny(tx)) return null;
    const team = await createTeam(tx, { name: 'My team', plan }, now);
    const owner = await addMember(tx, team.id, { email: `owner@${mailDomain}`, name: 'Owner', role: 'OWNER' }, now);
    const key = await createApiKey(tx, secrets, team.id, { kind: 'full', name: 'First key', memberId: owner.id });
    return { teamId: team.id, plan: team.plan, ownerEmail: owner.email, key };
  });
}

interface BannerContext {
  adminToken: string | null;
  /** HERALD_ADMIN_TOKEN was given: the operator has it, and a banner that printed it would copy an
   * operator's secret into a terminal or log. Only what Herald generated is shown. */
  adminTokenFromEnvironment: boolean;
  /** HERALD_PUBLIC_URL. */
  publicUrl: string;
  /** publicUrl + apiPrefix. */
  baseUrl: string;
  mailDomain: string;
  /** HERALD_MAIL_TRANSPORT's kind: 'log', 'smtp' (relay) or 'direct'. */
  transport: string;
  /** A one-time dashboard sign-in link for the owner (src/sessions/), when one was made. */
  signInUrl?: string | null;
}

/** Single-quoted for a POSIX shell. */
const shellQuoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function bootstrapBanner(result: BootstrapResult, context: BannerContext): string {
  const { adminToken, publicUrl, baseUrl, mailDomain, transport } = context;
  const lines = [
    '',
    '  Herald is set up. This is shown once; keep these somewhere safe.',
    '',
    `  Team ${result.teamId} (${result.plan} plan), owner ${result.ownerEmail}`,
    `  Full access API key:  ${result.key.key}`,
  ];
  if (context.signInUrl) {
    lines.push(
      `  Dashboard sign-in:    ${context.signInUrl}`,
      `                        (once, within the hour; later: herald admin sign-in-link ${result.ownerEmail})`,
    );
  }
  if (context.adminTokenFromEnvironment) {
    lines.push('  The admin token is the one HERALD_ADMIN_TOKEN gives (from the environment; not shown).');
  } else if (adminToken !== null) {
    lines.push(`  Admin token:          ${adminToken}`);
  }
  const body = JSON.stringify({
    from: `Herald <onboarding@${mailDomain}>`,
    to: result.ownerEmail,
    subject: 'Hello from Herald',
    html: '<p>My first email from Herald.</p>',
  });
  lines.push(
    '',
    `  Try it:  curl -H "Authorization: Bearer ${result.key.key}" ${baseUrl}/v1/whoami`,
    '',
    `  Send your first email: every team may send from ${mailDomain} to its own members.`,
    `    curl -X POST ${baseUrl}/v1/emails \\`,
    `      -H "Authorization: Bearer ${result.key.key}" -H "Content-Type: application/json" \\`,
    `      -d ${shellQuoted(body)}`,
    '',
    transport === 'log'
      ? '  Mail is not sent anywhere (HERALD_MAIL_TRANSPORT=log): read it with `npm run herald -- admin outbox`\n' +
          '  and `npm run herald -- admin outbox show <id>`.'
      : `  Mail goes out through HERALD_MAIL_TRANSPORT (${transport}); publish the records of \`herald admin dns\`.`,
    `  API reference: ${baseUrl}/docs   Admin API: ${publicUrl}/admin/v1 (docs/OPERATIONS.md)`,
    '  To send to anyone, add your own domain: POST /v1/domains.',
    '',
  );
  return lines.join('\n');
}
