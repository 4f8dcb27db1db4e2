// The error every bad operator variable or file stops start-up with. Its own module so that what
// config.ts reads (the price list) can throw it without importing config.ts.
export class ConfigError extends Error {
  constructor(variable: string, accepts: string, value: string) {
    const shown = withoutPasswords(value);
    super(`${variable}=${JSON.stringify(shown)} is not valid: ${variable} accepts ${accepts}`);
    this.name = 'ConfigError';
  }
}

/**
 * Text with the password of every `scheme://user:password@host` (up to the last @ of the run, so a
 * password holding an @ is hidden whole) and every `password=` parameter replaced by `***`: URLs
 * such as DATABASE_URL, REDIS_URL or HERALD_MAIL_TRANSPORT carry credentials, and a message that
 * names them is printed and logged.
 */
export function withoutPasswords(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*):\S*@/gi, '$1:***@')
    .replace(/([?&]password=)[^&\s]*/gi, '$1***');
}
