// @fip/sdk: the fraud-intelligence platform's typed client (Node 20+ and browsers; fetch-based).
export { createFipClient, FipClient } from './client';
export type { CrossScanWallet, IntakeFile, IntakePayload, Task, TaskAccepted, TypedRequestOptions, WaitOptions, WalletSearch } from './client';
export { FipApiError, FipTaskFailedError, FipTimeoutError } from './errors';
export { PagedList } from './pagination';
export { filenameFromDisposition, type Download } from './download';
export { OPAQUE_FIELDS, camelToSnake, snakeToCamel } from './case-keys';
export { PROXY_IDENTITY_HEADER, kindFromEnvironment, type ApiKind, type ClientOptions, type RetryOptions } from './transport';
export type { Camelize, HttpMethod, Page, PathsWith, Schema, paths } from './types';
export type { components, operations } from './generated/openapi';
