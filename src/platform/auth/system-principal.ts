// A principal no API key made: the service itself sending for a team (a contact's confirmation
// email, a one-time code, a journey step). It may do what a full access key not limited to a domain
// may; the email's api_key_id records `system:<purpose>`, which names the sender and matches no key.
import type { Principal } from './api-keys.ts';

export const SYSTEM_SEND_PURPOSES = ['contact-confirmation', 'verification', 'journey', 'campaign'] as const;
export type SystemSendPurpose = (typeof SYSTEM_SEND_PURPOSES)[number];

export function systemPrincipal(teamId: number, purpose: SystemSendPurpose): Principal {
  return {
    keyId: `system:${purpose}`,
    keyHash: Buffer.alloc(0),
    teamId,
    kind: 'full',
    domainId: null,
    memberId: null,
    makerRole: null,
    apiRateLimit: 0,
  };
}
