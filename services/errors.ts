// One error hierarchy for the platform's use cases. A use case (services/<feature>/) throws these
// for what the caller got wrong or cannot have; the API maps each to its HTTP status and the JSON
// body {"error": {"code", "message", "details"?}} (api/errors.ts), the CLI to a message and an exit
// code. Anything else is an internal error: a 500 without internals.

export interface FieldIssue {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends ApiError {
  constructor(message: string, issues: FieldIssue[]) {
    super(400, 'validation_failed', message, issues);
  }
}
export class BadRequestError extends ApiError {
  constructor(code: string, message: string, details?: unknown) {
    super(400, code, message, details);
  }
}
export class UnauthorizedError extends ApiError {
  constructor(message = 'authentication required') {
    super(401, 'unauthenticated', message);
  }
}
export class ForbiddenError extends ApiError {
  constructor(message = 'your roles do not allow this') {
    super(403, 'forbidden', message);
  }
}
export class NotFoundError extends ApiError {
  constructor(message = 'not found') {
    super(404, 'not_found', message);
  }
}
export class ConflictError extends ApiError {
  constructor(message: string, details?: unknown) {
    super(409, 'conflict', message, details);
  }
}
export class PayloadTooLargeError extends ApiError {
  constructor(message = 'request body too large') {
    super(413, 'payload_too_large', message);
  }
}
export class UnsupportedMediaTypeError extends ApiError {
  constructor(message: string) {
    super(415, 'unsupported_media_type', message);
  }
}
export class UnprocessableError extends ApiError {
  constructor(code: string, message: string, details?: unknown) {
    super(422, code, message, details);
  }
}
export class ServiceUnavailableError extends ApiError {
  constructor(message: string, details?: unknown) {
    super(503, 'unavailable', message, details);
  }
}
