// Admin API: a team's wallet (top-ups, adjustments, reversals, reads) and sender IDs (operator.md,
// "More admin API"). Each write is one transaction through src/wallet.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { settleOwedProMonth } from '../billing/index.ts';
import type { SenderIdRow } from '../db/schema-wallet.ts';
import type { AdminDeps } from './admin-deps.ts';
import { formatMinor, minorToJson } from '../platform/money.ts';
import {
  adjust,
  createSenderId,
  deleteSenderId,
  getWallet,
  listSenderIds,
  listTransactions,
  reverse,
  topUp,
  walletTransactionView,
  WalletTransaction,
} from '../wallet/index.ts';
import { AdminError, TeamParams } from './schemas.ts';
import * as s from './wallet-schemas.ts';
import { ADMIN_ERRORS, ADMIN_ROUTE, requireTeam } from './route-kit.ts';

const senderIdView = (row: SenderIdRow) => ({
  id: row.id,
  senderId: row.sender_id,
  country: row.country,
  status: row.status,
  createdAt: row.created_at.toISOString(),
});

export function registerWalletRoutes(app: FastifyInstance, deps: Pick<AdminDeps, 'db' | 'clock' | 'prices'>): void {
  const admin = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = deps;
  const common = ADMIN_ROUTE;
  const errors = ADMIN_ERRORS;

  admin.get(
    '/teams/:teamId/wallet',
    {
      schema: {
        ...common,
        summary: "Read a team's wallet balance",
        params: TeamParams,
        response: { 200: s.Wallet, ...errors },
      },
    },
    async (request) => {
      await requireTeam(db, request.params.teamId);
      const wallet = await getWallet(db, request.params.teamId);
      if (!wallet) return { currency: null, balanceMinor: 0, balanceFormatted: null, updatedAt: null };
      return {
        currency: wallet.currency,
        balanceMinor: minorToJson(wallet.balance),
        balanceFormatted: formatMinor(wallet.balance, wallet.currency),
        updatedAt: wallet.updated_at.toISOString(),
      };
    },
  );

  admin.get(
    '/teams/:teamId/wallet/transactions',
    {
      schema: {
        ...common,
        summary: "List a team's wallet ledger, newest first",
        params: TeamParams,
        querystring: s.WalletTransactionsQuery,
        response: { 200: s.WalletTransactionsPage, ...errors },
      },
    },
    async (request) => {
      const { teamId } = request.params;
      await requireTeam(db, teamId);
      const wallet = await getWallet(db, teamId);
      const rows = wallet ? await listTransactions(db, teamId, request.query.limit) : [];
      return { currency: wallet?.currency ?? null, data: rows.map(walletTransactionView) };
    },
  );

  admin.post(
    '/teams/:teamId/wallet/top-ups',
    {
      schema: {
        ...common,
        summary: 'Top up a wallet (idempotent by reference); the row has a receipt',
        params: TeamParams,
        body: s.TopUpBody,
        response: { 201: WalletTransaction, ...errors },
      },
    },
    async (request, reply) => {
      await requireTeam(db, request.params.teamId);
      const { amountMinor, reference, description } = request.body;
      const { row } = await db.transaction().execute(async (tx) => {
        const topped = await topUp(tx, request.params.teamId, {
          amountMinor: BigInt(amountMinor),
          reference,
          description,
          at: clock.now(),
        });
        // A Pro month owed (grace or lapse) is paid at once when the wallet now covers it.
        if (topped.created) await settleOwedProMonth(tx, request.params.teamId, deps.prices, clock.now());
        return topped;
      });
      return reply.code(201).send(walletTransactionView(row));
    },
  );

  admin.post(
    '/teams/:teamId/wallet/adjustments',
    {
      schema: {
        ...common,
        summary: 'Adjust a wallet by a signed amount; a debit below zero is refused (400)',
        params: TeamParams,
        body: s.AdjustmentBody,
        response: { 201: WalletTransaction, ...errors },
      },
    },
    async (request, reply) => {
      await requireTeam(db, request.params.teamId);
      const { amountMinor, description } = request.body;
      const row = await db
        .transaction()
        .execute((tx) =>
          adjust(tx, request.params.teamId, { amountMinor: BigInt(amountMinor), description, at: clock.now() }),
        );
      return reply.code(201).send(walletTransactionView(row));
    },
  );

  admin.post(
    '/teams/:teamId/wallet/reversals',
    {
      schema: {
        ...common,
        summary: 'Reverse a top-up or adjustment (once: 409 the second time)',
        params: TeamParams,
        body: s.ReversalBody,
        response: { 201: WalletTransaction, 409: AdminError, ...errors },
      },
    },
    async (request, reply) => {
      await requireTeam(db, request.params.teamId);
      const row = await db
        .transaction()
        .execute((tx) => reverse(tx, request.params.teamId, { ...request.body, at: clock.now() }));
      return reply.code(201).send(walletTransactionView(row));
    },
  );

  admin.get(
    '/teams/:teamId/sender-ids',
    {
      schema: {
        ...common,
        summary: "List a team's sender IDs",
        params: TeamParams,
        response: { 200: s.SenderId.array(), ...errors },
      },
    },
    async (request) => {
      await requireTeam(db, request.params.teamId);
      return (await listSenderIds(db, request.params.teamId)).map(senderIdView);
    },
  );

  admin.post(
    '/teams/:teamId/sender-ids',
    {
      schema: {
        ...common,
        summary: 'Add an approved sender ID; its fee is charged to the wallet at once (402 when it cannot pay)',
        params: TeamParams,
        body: s.CreateSenderIdBody,
        response: { 201: s.SenderId, 402: AdminError, 409: AdminError, ...errors },
      },
    },
    async (request, reply) => {
      await requireTeam(db, request.params.teamId);
      const { senderId, country, feeMinor } = request.body;
      const row = await createSenderId(
        db,
        request.params.teamId,
        { senderId, country, feeMinor: BigInt(feeMinor) },
        clock.now(),
      );
      return reply.code(201).send(senderIdView(row));
    },
  );

  admin.delete(
    '/teams/:teamId/sender-ids/:id',
    {
      schema: {
        ...common,
        summary: 'Delete a sender ID; with refund, its fee goes back to the wallet',
        params: s.SenderIdParams,
        body: s.DeleteSenderIdBody,
        response: { 200: s.DeletedSenderId, ...errors },
      },
    },
    async (request) => {
      const { teamId, id } = request.params;
      await deleteSenderId(db, teamId, id, request.body?.refund ?? false, clock.now());
      return { id, deleted: true as const };
    },
  );
}
