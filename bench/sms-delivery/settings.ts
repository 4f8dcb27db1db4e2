// The SMS delivery benchmark's settings (bench/sms-delivery.ts), shared by its parts.

export const MESSAGES = Number(process.env.BENCH_SMS ?? 60_000);
export const BARE_IN_FLIGHT = 100;
// Sent before each round's clock starts, by the same worker or loop: a running worker's connections
// are open and PostgreSQL has loaded and planned what its statements need (a new connection's first
// claim and outcome write cost it several times a later one's), and the loop's are open too.
export const WARM_UP = 2_000;
export const TEXT = 'Your Herald verification code is 482913. It expires in 10 minutes.';
export const SID = 'AC00000000000000000000000000000001';
export const TOKEN = 'twilio-bench-auth-token';
