// Typed errors of the SDK. The platform answers errors as {"error": {"code", "message", "details"?}}.

/** An error answer of the API (any 4xx/5xx), with its status, code, message and details. */
export class FipApiError extends Error {
  override readonly name = 'FipApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** As the API sent them, keys camelCased (platform variant); validation issues are [{path, message}] with camelCase paths. */
    readonly details?: unknown,
    readonly requestId?: string,
  ) {
    super(message);
  }
}

/** tasks.wait: the task ended without completing (failed or cancelled). */
export class FipTaskFailedError extends Error {
  override readonly name = 'FipTaskFailedError';
  constructor(
    readonly taskId: string,
    readonly status: string,
    message: string,
    /** The task as last polled. */
    readonly task: unknown,
  ) {
    super(message);
  }
}

/** tasks.wait: the task did not end within timeoutMs. */
export class FipTimeoutError extends Error {
  override readonly name = 'FipTimeoutError';
  constructor(
    message: string,
    readonly task: unknown,
  ) {
    super(message);
  }
}
