// operator.md: "A variable with a bad value stops the process at start with a message that names
// the variable and what it accepts." Checked against the real process, before it touches anything.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { describeEmbedded } from '../support/embedded-only.ts';
import { DEFAULT_PLANS_FILE, DEFAULT_PRICES_FILE } from '../../src/config.ts';
import { cleanUpHeralds, heraldEnv, makeDataDir, runHerald } from '../support/spawn.ts';

afterEach(cleanUpHeralds);

const SECRET = 'a-long-enough-master-secret-0123456789';

// A price list with one fractional price: start-up must name the variable and the path in the file.
const badPrices = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bad-prices-')), 'prices.json');
const prices = JSON.parse(fs.readFileSync(DEFAULT_PRICES_FILE, 'utf8'));
prices.currencies.KES.channels.sms.lines[2].cells[1] = 0.25;
fs.writeFileSync(badPrices, JSON.stringify(prices));
// A negative tier volume, which once threw a TypeError from the tier checks instead of naming the path.
const negativeVolume = path.join(path.dirname(badPrices), 'negative-volume.json');
const shipped = JSON.parse(fs.readFileSync(DEFAULT_PRICES_FILE, 'utf8'));
shipped.currencies.USD.channels.sms.tiers[0].maxVolume = -5;
fs.writeFileSync(negativeVolume, JSON.stringify(shipped));
// A plans file whose pro daily limit is negative: start-up names the file's field.
const badPlans = path.join(path.dirname(badPrices), 'plans.json');
const plans = JSON.parse(fs.readFileSync(DEFAULT_PLANS_FILE, 'utf8'));
plans.pro.dailySends = -1;
fs.writeFileSync(badPlans, JSON.stringify(plans));

/** [variable named in the message, environment that is wrong about it] */
const badConfigurations: Array<[string, Record<string, string>]> = [
  ['PORT', { PORT: 'abc' }],
  ['PORT', { PORT: '70000' }],
  ['HERALD_MAIL_TRANSPORT', { HERALD_MAIL_TRANSPORT: 'carrier-pigeon' }],
  ['HERALD_MAIL_TRANSPORT', { HERALD_MAIL_TRANSPORT: 'http://relay.example:25' }],
  ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
  ['HERALD_DNS_SERVERS', { HERALD_DNS_SERVERS: 'not-an-ip' }],
  ['HERALD_DNS_SERVERS', { HERALD_DNS_SERVERS: '1.1.1.1,8.8.8.8:99999' }],
  ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
  ['HERALD_SECRET', { DATABASE_URL: 'postgres://127.0.0.1:1/herald' }],
  ['HERALD_SECRET', { HERALD_SECRET: 'too-short' }],
  ['HERALD_ADMIN_TOKEN', { HERALD_ADMIN_TOKEN: 'short' }],
  ['HERALD_SMTP_PORT', { HERALD_SMTP_PORT: '-1' }],
  ['HERALD_MX_PORT', { HERALD_MX_PORT: '0' }],
  ['HERALD_SMS_PROVIDER', { HERALD_SMS_PROVIDER: 'pigeon' }],
  ['HERALD_TWILIO_ACCOUNT_SID', { HERALD_SMS_PROVIDER: 'twilio' }],
  ['HERALD_SMS_COUNTRIES', { HERALD_SMS_COUNTRIES: 'Nigeria' }],
  ['HERALD_SMS_SHARED_SENDER_ID', { HERALD_SMS_SHARED_SENDER_ID: 'far too long a name' }],
  ['HERALD_PRICES_FILE', { HERALD_PRICES_FILE: '/nonexistent/prices.json' }],
  ['currencies.KES.channels.sms.lines[2].cells[1]', { HERALD_PRICES_FILE: badPrices }],
  ['currencies.USD.channels.sms.tiers[0].maxVolume', { HERALD_PRICES_FILE: negativeVolume }],
  ['pro.dailySends must be a whole number ≥ 0 or null', { HERALD_PLANS_FILE: badPlans }],
  ['HERALD_DEFAULT_PLAN', { HERALD_DEFAULT_PLAN: 'enterprise' }],
  ['HERALD_PUBLIC_URL', { HERALD_PUBLIC_URL: 'ftp://files.example' }],
  ['HERALD_API_PREFIX', { HERALD_API_PREFIX: 'api' }],
  ['HERALD_MAIL_DOMAIN', { HERALD_MAIL_DOMAIN: 'not a domain' }],
  ['HERALD_WEBHOOK_ALLOW_CIDRS', { HERALD_WEBHOOK_ALLOW_CIDRS: '10.0.0.0' }],
  ['REDIS_URL', { REDIS_URL: 'http://cache:6379' }],
  ['HERALD_STRIPE_API_URL', { HERALD_STRIPE_API_URL: 'not a url' }],
  [
    'HERALD_SMTP_TLS_CERT',
    { HERALD_SMTP_TLS_CERT: '/nonexistent/cert.pem', HERALD_SMTP_TLS_KEY: '/nonexistent/key.pem' },
  ],
  ['HERALD_SMTP_TLS_KEY', { HERALD_SMTP_TLS_CERT: '/nonexistent/cert.pem' }],
  ['HERALD_SMTP_MAX_CONNECTIONS_PER_NETWORK', { HERALD_SMTP_MAX_CONNECTIONS_PER_NETWORK: '10' }],
];

// Each run gets runHerald's default allowance: a loaded machine can take many seconds just to start
// Node on bin/herald.js, so a tighter bound fails a correct start-up that was merely slow.
describeEmbedded('bad configuration stops start-up', { timeout: 60_000 }, () => {
  it.each(badConfigurations)('names %s for %j', async (variable, bad) => {
    const dataDir = makeDataDir();
    const result = await runHerald(['start'], heraldEnv(dataDir, 3999, bad));
    expect(result.code, result.stderr).not.toBe(0);
    expect(result.code).not.toBeNull(); // exited on its own, not killed by the timeout
    expect(result.stderr).toContain(variable);
    expect(result.stderr).toMatch(/accepts/);
    expect(result.stderr.split('\n').filter((l) => l.trim() !== '').length).toBeLessThanOrEqual(2); // a message, not a stack trace
    expect(result.stdout).not.toContain('Full access API key');
    // It stopped before opening anything: no lock, no secrets, no database files.
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('never echoes a secret it refuses', async () => {
    const secret = 'too-short-secret';
    const result = await runHerald(['start'], heraldEnv(makeDataDir(), 3999, { HERALD_SECRET: secret }));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('HERALD_SECRET');
    expect(result.stderr).not.toContain(secret);
  });

  it('accepts a good DATABASE_URL together with HERALD_SECRET as far as configuration goes', async () => {
    // Nothing listens on port 1: the failure is the connection, not the configuration.
    const result = await runHerald(
      ['migrate'],
      heraldEnv(makeDataDir(), 3999, { DATABASE_URL: 'postgres://127.0.0.1:1/herald', HERALD_SECRET: SECRET }),
    );
    expect(result.code).not.toBe(0);
    expect(result.stderr).not.toMatch(/DATABASE_URL=.*is not valid/);
    expect(result.stderr).not.toMatch(/HERALD_SECRET=.*is not valid/);
  });

  it.each(['migrate', 'api', 'worker'])('stops `herald %s` the same way', async (command) => {
    const dataDir = makeDataDir();
    const result = await runHerald([command], heraldEnv(dataDir, 3999, { PORT: 'abc' }));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('PORT');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('stops `herald admin` with a usage exit code naming the variable', async () => {
    const result = await runHerald(
      ['admin', 'teams', 'get', '1'],
      heraldEnv(makeDataDir(), 3999, { LOG_LEVEL: 'loud' }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('LOG_LEVEL');
  });
});
