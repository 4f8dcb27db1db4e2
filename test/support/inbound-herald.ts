// The common start of the process tests that mail Herald itself: `herald start` with its SMTP
// listener on a loopback port of its own, receiving for herald.localhost, and a team with a full
// access key.
import { randomBytes } from 'node:crypto';
import { provisionTeam, startAdminHerald, type AdminHerald } from './admin-herald.ts';
import { freePort, type HeraldProcess } from './spawn.ts';

export interface InboundHerald extends AdminHerald {
  smtpPort: number;
  teamId: number | string;
  key: string;
}

/** `variables` add to the environment or override it (HERALD_SMTP_* limits, say). */
export async function startInboundHerald(
  started: HeraldProcess[],
  o: { teamName: string; databaseUrl: string | null; variables?: Record<string, string> },
): Promise<InboundHerald> {
  const smtpPort = await freePort();
  const herald = await startAdminHerald(
    started,
    {
      ...(o.databaseUrl === null ? {} : { DATABASE_URL: o.databaseUrl }),
      HERALD_SECRET: randomBytes(32).toString('hex'),
      HERALD_MAIL_DOMAIN: 'herald.localhost',
      HERALD_SMTP_PORT: String(smtpPort),
      ...o.variables,
    },
    150_000,
  );
  const { teamId, key } = await provisionTeam(herald.admin, { name: o.teamName });
  return { ...herald, smtpPort, teamId, key };
}
