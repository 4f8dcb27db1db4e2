// GET /v1/billing/transactions, /receipts and /receipts/{reference}: the wallet ledger, newest first.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { WalletTransactionType } from '../db/schema-wallet.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import type { Secrets } from '../platform/crypto.ts';
import { notFound } from '../platform/errors.ts';
import { decodeCursor, encodeCursor } from '../platform/pagination.ts';
import { walletCurrency, walletTransactionView } from '../wallet/index.ts';
import { findReceiptRow, ledgerPage, type LedgerFilter, type LedgerRow } from './ledger-queries.ts';
import { withReadDeadline } from './read-deadline.ts';
import { receiptView } from './receipt-view.ts';
import * as s from './schemas.ts';

export interface LedgerRouteDeps {
  db: Kysely<Database>;
  secrets: Secrets;
  readTimeoutMs: number;
}

/** Ledger rows a receipts page looks at, at most: a page may hold fewer receipts and still go on. */
export const RECEIPT_SCAN_ROWS = 500;

const errors = {
  400: s.ErrorBody,
  401: s.ErrorBody,
  403: s.ErrorBody,
  404: s.ErrorBody,
  422: s.ErrorBody,
  429: s.ErrorBody,
  503: s.ErrorBody,
};

const filterDescription =
  `type: one row kind; from: inclusive, to: exclusive (ISO 8601); limit 1 to ${s.LIST_LIMIT_MAX} (default ` +
  `${s.LIST_LIMIT_DEFAULT}); pass nextCursor back as cursor with the same filters (a cursor of another list, ` +
  'filter or team is 400).';

function listName(kind: string, q: s.LedgerQueryInput): string {
  return `billing-${kind}:${q.type ?? ''}:${q.from?.toISOString() ?? ''}:${q.to?.toISOString() ?? ''}`;
}

function filterOf(deps: LedgerRouteDeps, teamId: number, list: string, q: s.LedgerQueryInput): LedgerFilter {
  const position = q.cursor === undefined ? undefined : decodeCursor(deps.secrets, q.cursor, list, teamId);
  return {
    type: q.type as WalletTransactionType | undefined,
    from: q.from,
    to: q.to,
    afterSeq: position === undefined ? undefined : Number(position[0]),
  };
}

export function registerLedgerRoutes(app: FastifyInstance, deps: LedgerRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const common = { tags: ['billing'], security: [{ apiKey: [] }] };
  const cursorAfter = (list: string, teamId: number, row: LedgerRow) =>
    encodeCursor(deps.secrets, list, teamId, [Number(row.seq)]);

  api.get(
    '/v1/billing/transactions',
    {
      config: { access: 'billingRead' },
      schema: {
        ...common,
        summary: 'List wallet transactions, newest first',
        description: `Signed amounts with the balance after each row. ${filterDescription} A team with no wallet gets {currency: null, data: []}.`,
        querystring: s.LedgerQuery,
        response: { 200: s.TransactionList, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const list = listName('transactions', request.query);
      const filter = filterOf(deps, teamId, list, request.query);
      const limit = request.query.limit;
      return withReadDeadline(deps.db, deps.readTimeoutMs, async (tx) => {
        const currency = await walletCurrency(tx, teamId);
        if (currency === null) return { currency: null, data: [], nextCursor: null };
        const rows = await ledgerPage(tx, teamId, filter, limit + 1);
        const page = rows.slice(0, limit);
        return {
          currency,
          data: page.map(walletTransactionView),
          nextCursor: rows.length > limit ? cursorAfter(list, teamId, page[page.length - 1]!) : null,
        };
      });
    },
  );

  api.get(
    '/v1/billing/receipts',
    {
      config: { access: 'billingRead' },
      schema: {
        ...common,
        summary: 'List receipts, newest first',
        description: `${filterDescription} A page looks at ${RECEIPT_SCAN_ROWS} ledger rows at most, so it can hold fewer receipts than limit and still have a nextCursor.`,
        querystring: s.LedgerQuery,
        response: { 200: s.ReceiptList, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const list = listName('receipts', request.query);
      const filter = filterOf(deps, teamId, list, request.query);
      const limit = request.query.limit;
      return withReadDeadline(deps.db, deps.readTimeoutMs, async (tx) => {
        const currency = await walletCurrency(tx, teamId);
        if (currency === null) return { currency: null, data: [], nextCursor: null };
        const scanned = await ledgerPage(tx, teamId, filter, RECEIPT_SCAN_ROWS + 1);
        const receipts: LedgerRow[] = [];
        let last: LedgerRow | undefined;
        let more = false;
        for (const [i, row] of scanned.entries()) {
          if (i === RECEIPT_SCAN_ROWS) {
            more = true;
            break;
          }
          if (row.receipt_reference === null) {
            last = row;
            continue;
          }
          if (receipts.length === limit) {
            more = true;
            break;
          }
          receipts.push(row);
          last = row;
        }
        return {
          currency,
          data: receipts.map(receiptView),
          nextCursor: more && last ? cursorAfter(list, teamId, last) : null,
        };
      });
    },
  );

  api.get(
    '/v1/billing/receipts/:reference',
    {
      config: { access: 'billingRead' },
      schema: {
        ...common,
        summary: 'Read one receipt',
        description:
          "reference: a transaction's receiptReference. 404 for another team's reference and for a row without a receipt.",
        params: s.ReceiptParams,
        response: { 200: s.ReceiptWithTeam, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const row = await withReadDeadline(deps.db, deps.readTimeoutMs, (tx) =>
        findReceiptRow(tx, teamId, request.params.reference),
      );
      if (row === undefined) throw notFound('receipt');
      return { ...receiptView(row), teamName: row.team_name };
    },
  );
}
