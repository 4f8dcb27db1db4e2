// The error every bad operator variable or file stops start-up with. Its own module so that what
// config.ts reads (the price list) can throw it without importing config.ts.
export class ConfigError extends Error {
  constructor(variable: string, accepts: string, value: string) {
    super(`${variable}=${JSON.stringify(value)} is not valid: ${variable} accepts ${accepts}`);
    this.name = 'ConfigError';
  }
}
