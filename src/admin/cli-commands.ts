// The table of `herald admin` commands: each maps its options to one admin API request, or, for a
// command that needs several (contacts import), to a job that sends them and returns the output.
import { accountCommands } from './cli-account-commands.ts';
import type { AdminCommand } from './cli-command-kit.ts';
import { mailCommands } from './cli-mail-commands.ts';
import { moneyCommands } from './cli-money-commands.ts';
import { webhookCommands } from './cli-webhook-commands.ts';

export type { AdminJob, AdminJobIo, AdminRequest, AdminResponse } from './cli-command-kit.ts';

export const adminCommands: AdminCommand[] = [
  ...accountCommands,
  ...mailCommands,
  ...moneyCommands,
  ...webhookCommands,
];
