// The CSV of people the Contacts import test sends.

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
