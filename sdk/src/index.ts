// @fip/sdk: the fraud-intelligence platform's typed client (Node 20+ and browsers; fetch-based).
export { createFipClient, FipClient } from './client.js';
export type { CrossScanWallet, FindingProvenance, IntakeFile, IntakePayload, OpenApiDocument, Task, TaskAccepted, TypedRequestOptions, WaitOptions, WalletSearch } from './client.js';
export { FipApiError, FipTaskFailedError, FipTimeoutError } from './errors.js';
export { PagedList } from './pagination.js';
export { filenameFromDisposition, type Download } from './download.js';
export { OPAQUE_FIELDS, camelToSnake, snakeToCamel } from './case-keys.js';
export { PROXY_IDENTITY_HEADER, kindFromEnvironment, type ApiKind, type ClientOptions, type RetryOptions } from './transport.js';
export type { Camelize, HttpMethod, Page, PathsWith, Schema, paths } from './types.js';
export type { components, operations } from './generated/openapi.js';
