// Teams, members and domains have PostgreSQL `serial` ids (int4). A number past 2^31 - 1 can name
// none of them and would make the query itself fail (a 500), so every schema taking one bounds it.
import { z } from 'zod';

export const SERIAL_ID_MAX = 2_147_483_647;

/** A serial id in a JSON body. */
export const serialId = () => z.number().int().positive().max(SERIAL_ID_MAX);

/** A serial id in a path or query string. */
export const serialIdParam = () => z.coerce.number().int().positive().max(SERIAL_ID_MAX);
