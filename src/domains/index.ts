// What other areas may use of Domains. Everything else in this folder is the area's own.
export { registerDomainRoutes } from './routes.ts';
export { domainCheckQueue, DOMAIN_CHECK_QUEUE } from './check-queue.ts';
export { canSendFrom, getSendingDomain, sendingDomainId, type SendingDomain } from './sending.ts';
export {
  domainExists,
  domainName,
  domainNameOf,
  firstVerifiedDomainName,
  unknownDomainIds,
  verifiedDomainId,
  verifiedDomainsJson,
} from './queries.ts';
export {
  BUILTIN_DKIM_SELECTOR,
  builtinDkimKey,
  builtinDnsRecords,
  builtinSendingDomain,
  type BuiltinDnsRecord,
} from './builtin-domain.ts';
