/**
 * sinks: delivery of alerts to chat, webhook and pager destinations. So far it holds the
 * DestinationPolicy that decides which addresses a sink may reach, applied when a sink is
 * configured and again by the delivery worker after DNS resolution. Imports only core.
 */
export { DestinationPolicy, blockedAddressReason, blockedHostReason } from './destination-policy.js';
export { parseIpAddress, type IpAddress } from './ip-address.js';
