// The prepaid wallet, for other areas (SMS, one-time codes, billing reads). Charges and releases
// take the caller's transaction, so an SMS and its charge commit or roll back together.
export { charge, planCharge, release, topUp, adjust, reverse, type ChargeInput, type ChargeType } from './movements.ts';
export {
  getWallet,
  findTransaction,
  findByReceipt,
  findByReference,
  ledgerPage,
  listTransactions,
  lockWallets,
  writeMovements,
  listSenderIds,
  senderIdsJson,
  walletCurrency,
  walletCurrencyOf,
  type LedgerFilter,
  type Tx,
} from './queries.ts';
export { createSenderId, deleteSenderId } from './sender-ids.ts';
export { walletTransactionView, WalletTransaction, WALLET_TRANSACTION_TYPES } from './view.ts';
export { chargePlan, type PlanChargeInput, type PlanChargeType } from './plan-charges.ts';
