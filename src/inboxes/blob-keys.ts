// Where received messages' bytes live in the blob store: one pack file per stored batch, under the
// hour (UTC) of the latest arrival in it, so every message in an hour's directory arrived by its
// end, and retention removes whole hours past the cutoff (packs of batches that rolled back
// included) in one sweep.
//   inbound/<YYYY-MM-DD-HH>/<packId>.pack
import { newId } from '../platform/ids.ts';

export const INBOUND_PREFIX = 'inbound/';
export const HOUR_DIRECTORY = /^\d{4}-\d{2}-\d{2}-\d{2}$/;

/** The UTC hour of an instant, as its directory is named; names sort as their hours do. */
export const hourOf = (at: Date): string => at.toISOString().slice(0, 13).replace('T', '-');

/** A new pack's key, for a batch whose latest message arrived at `latest`. */
export const newPackKey = (latest: Date): string => `${INBOUND_PREFIX}${hourOf(latest)}/${newId('pack_', latest)}.pack`;
