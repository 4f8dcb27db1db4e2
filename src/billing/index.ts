// What other parts may use of Billing. Everything else in this folder is the area's own.
export { registerBillingRoutes, billingParts, type BillingParts } from './routes.ts';
export { stripeHookRoutes } from './stripe-hook.ts';
export { startCardCheckout, type CardCheckoutDeps } from './card-checkout.ts';
export { proRenewalChore, renewDueProMonths } from './renewal-chore.ts';
export { chargeDueProUnits } from './pro-units.ts';
export { setPlanAndBillingMethod, settleOwedProMonth, GRACE_DAYS } from './pro-months.ts';
export { auditChange, type AuditedChange } from './audit-queries.ts';
