// The API's error answers: the platform's error hierarchy (services/errors.ts, thrown by use cases and
// by the API itself) as the JSON body {"error": {"code", "message", "details"?}}.
import type { ApiError } from '../services/errors';

export * from '../services/errors';

export function errorBody(err: ApiError): { error: { code: string; message: string; details?: unknown } } {
  return { error: { code: err.code, message: err.message, ...(err.details === undefined ? {} : { details: err.details }) } };
}
