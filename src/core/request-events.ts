/**
 * The `diagnostics_channel` names on which the client's own transport (http/node-fetch.ts) tells
 * the rate limiter (limits/slot.ts) about its requests, as undici's `undici:request:create` and
 * `undici:client:sendHeaders` do for Node's fetch. Each message is `{ request }`, the same object
 * on both channels.
 */

/** Published in the async context of the call that makes the request, before it is sent. */
export const REQUEST_CREATED = "seqera-api-client:request:create";
/** Published when the request (headers and body) has been handed to the operating system. */
export const REQUEST_SENT = "seqera-api-client:request:sent";
