// What the Contacts and Segments browser tests read and import besides the API seeds (api-seeds.ts):
// the outbox's messages to an address, and the CSV of people the import test sends.
import { TEST_ADMIN_TOKEN } from '../../support/app.ts';
import type { SignedInBed } from './signed-in.ts';

/** The outbox's messages to `to` (the log transport's), newest last. */
export async function outboxTo(bed: SignedInBed, to: string): Promise<{ envelope: { from: string }; raw: string }[]> {
  const response = await bed.t.app.inject({
    method: 'GET',
    url: '/admin/v1/outbox?limit=100',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
  });
  return (response.json() as { envelope: { from: string; to: string[] }; raw: string }[]).filter((m) =>
    m.envelope.to.includes(to),
  );
}

/** 2,500 rows; line 11 has a bad address, line 21 repeats line 2's, line 31 a bad subscribed. */
export function peopleCsv(): string {
  const lines = ['email,First Name,plan,subscribed'];
  for (let i = 1; i <= 2500; i++) {
    const line = i + 1;
    const email = line === 11 ? 'not-an-email' : line === 21 ? 'user1@example.com' : `user${i}@example.com`;
    lines.push(`${email},Person ${i},${i % 2 ? 'pro' : 'free'},${line === 31 ? 'maybe' : 'yes'}`);
  }
  return `${lines.join('\n')}\n`;
}
