// DATABASE_REPLICA_URL: read only beside DATABASE_URL, checked as it is, never shown in a refusal.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

const primary = 'postgres://herald:pw@db-1:5432/herald';
// With DATABASE_URL the secrets come from the environment (no data dir to keep them in).
const secrets = {
  HERALD_SECRET: 'a-secret-of-at-least-32-characters-0123',
  HERALD_ADMIN_TOKEN: 'an-admin-token-of-some-length-0123456',
};

describe('DATABASE_REPLICA_URL', () => {
  it('is read beside DATABASE_URL', () => {
    const replica = 'postgres://herald:pw@db-2:5432/herald';
    expect(loadConfig({ ...secrets, DATABASE_URL: primary, DATABASE_REPLICA_URL: replica }).databaseReplicaUrl).toBe(
      replica,
    );
    expect(loadConfig({ ...secrets, DATABASE_URL: primary }).databaseReplicaUrl).toBeNull();
  });

  it('is refused without DATABASE_URL, and when malformed, without showing the value', () => {
    expect(() => loadConfig({ ...secrets, DATABASE_REPLICA_URL: 'postgres://db-2/herald' })).toThrow(
      /^DATABASE_REPLICA_URL is not valid: it needs DATABASE_URL/,
    );
    const bad = () =>
      loadConfig({ ...secrets, DATABASE_URL: primary, DATABASE_REPLICA_URL: 'mysql://u:secret@db-2/x' });
    expect(bad).toThrow(/^DATABASE_REPLICA_URL is not valid: its scheme is not postgres/);
    expect(bad).not.toThrow(/secret/);
  });
});
