// The SMS delivery benchmark's baseline: a bare undici loop posting the same forms as the twilio
// adapter to the same fake, with as many in flight.
import { Agent, request } from 'undici';
import { measureCpu, type RoundResult } from './cpu.ts';
import { BARE_IN_FLIGHT, MESSAGES, SID, TEXT, TOKEN, WARM_UP } from './settings.ts';

/** Posts WARM_UP forms, then MESSAGES more: answers the time and CPU the timed ones took. */
export async function bareLoop(url: string, fakePid: number): Promise<RoundResult> {
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  await postAll(agent, url, WARM_UP, BARE_IN_FLIGHT);
  const cpu = measureCpu(fakePid);
  const started = performance.now();
  await postAll(agent, url, MESSAGES, BARE_IN_FLIGHT);
  const result = { seconds: (performance.now() - started) / 1000, cpu: cpu.per(MESSAGES) };
  await agent.close();
  return result;
}

async function postAll(agent: Agent, url: string, count: number, inFlight: number): Promise<void> {
  const endpoint = `${url}/2010-04-01/Accounts/${SID}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const form = new URLSearchParams({
        To: `+1415555${String(i % 10000).padStart(4, '0')}`,
        From: 'Herald',
        Body: TEXT,
        StatusCallback: 'http://127.0.0.1:1/hooks/sms/twilio',
      });
      const response = await request(endpoint, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
      });
      const body = (await response.body.json()) as { sid?: string };
      if (response.statusCode !== 201 || !body.sid) throw new Error(`bare loop: ${response.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
}
