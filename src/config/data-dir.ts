// HERALD_DATA_DIR: where the embedded database and what lives beside it are kept. Apart from the
// rest of the configuration, so that `herald admin` finds it without loading all of it.
import path from 'node:path';
import { text, type Env } from './parse.ts';

export const dataDirOf = (env: Env): string => path.resolve(text(env, 'HERALD_DATA_DIR') ?? './data');
